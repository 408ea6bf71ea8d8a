#include "mcpstdiotransport.h"

#include <QProcessEnvironment>
#include <QTimer>

#include <csignal>
#include <unistd.h>

namespace Sandcastle {

McpStdioTransport::McpStdioTransport(McpServerConfig config, QObject *parent)
    : McpTransport(parent)
    , m_config(std::move(config))
{
    connect(&m_process, &QProcess::readyReadStandardOutput, this, &McpStdioTransport::readOutput);
    connect(&m_process, &QProcess::readyReadStandardError, this, &McpStdioTransport::readErrors);
    connect(&m_process, &QProcess::finished, this, &McpStdioTransport::onFinished);
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            fail(QStringLiteral("cannot start %1: %2")
                     .arg(m_config.command, m_process.errorString()));
    });
}

McpStdioTransport::~McpStdioTransport()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_closing = true;
    m_process.closeWriteChannel();
    if (!m_process.waitForFinished(300)) {
        stopGroup(SIGTERM);
        if (!m_process.waitForFinished(1000)) {
            stopGroup(SIGKILL);
            m_process.waitForFinished(1000);
        }
    }
    stopGroup(SIGKILL); // what the server started and left behind
}

void McpStdioTransport::open()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (auto it = m_config.env.begin(); it != m_config.env.end(); ++it)
        environment.insert(it.key(), it.value());
    m_process.setProcessEnvironment(environment);
    if (!m_config.cwd.isEmpty())
        m_process.setWorkingDirectory(m_config.cwd);
    // Its own process group: a stop reaches the node that npx started, too.
    m_process.setChildProcessModifier([] { ::setpgid(0, 0); });
    m_process.start(m_config.command, m_config.args);
    m_pid = m_process.processId();
}

void McpStdioTransport::send(const nlohmann::json &message)
{
    if (m_failed || m_process.state() == QProcess::NotRunning)
        return;
    QByteArray line = QByteArray::fromStdString(
        message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    line += '\n';
    m_process.write(line);
}

void McpStdioTransport::close()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_closing = true;
    // As the specification has it: stdin closed, then SIGTERM, then SIGKILL.
    m_process.closeWriteChannel();
    QTimer::singleShot(1000, this, [this] {
        if (m_process.state() != QProcess::NotRunning)
            stopGroup(SIGTERM);
    });
    QTimer::singleShot(3000, this, [this] {
        if (m_process.state() != QProcess::NotRunning)
            stopGroup(SIGKILL);
    });
}

QString McpStdioTransport::diagnostics() const
{
    return QString::fromUtf8(m_stderr).trimmed();
}

qint64 McpStdioTransport::processId() const
{
    return m_process.state() == QProcess::NotRunning ? 0 : m_pid;
}

void McpStdioTransport::readOutput()
{
    while (!m_failed) {
        const QByteArray chunk = m_process.read(1 << 20);
        if (chunk.isEmpty())
            return;
        qsizetype start = 0;
        for (;;) {
            const qsizetype newline = chunk.indexOf('\n', start);
            if (newline < 0) {
                m_line += chunk.mid(start);
                if (m_line.size() > MaxLineBytes)
                    fail(QStringLiteral("the server sent a message longer than 32 MB"));
                break;
            }
            m_line += chunk.mid(start, newline - start);
            start = newline + 1;
            const QByteArray line = std::exchange(m_line, QByteArray()).trimmed();
            if (line.isEmpty())
                continue;
            const nlohmann::json message
                = nlohmann::json::parse(line.toStdString(), nullptr, false);
            if (!message.is_object() && !message.is_array()) {
                fail(QStringLiteral("the server wrote something that is not a JSON-RPC message "
                                    "to its output: \"%1\"")
                         .arg(QString::fromUtf8(line.left(120)).simplified()));
                return;
            }
            Q_EMIT messageReceived(message);
            if (m_failed)
                return;
        }
    }
}

void McpStdioTransport::readErrors()
{
    m_stderr += m_process.readAllStandardError();
    if (m_stderr.size() > StderrKeptBytes)
        m_stderr = m_stderr.right(StderrKeptBytes);
}

void McpStdioTransport::onFinished(int exitCode, QProcess::ExitStatus status)
{
    readErrors();
    stopGroup(SIGKILL);
    if (m_closing || m_failed)
        return;
    QString reason = status == QProcess::CrashExit
                         ? QStringLiteral("the server process ended abnormally (crashed or killed)")
                         : QStringLiteral("the server process exited with code %1").arg(exitCode);
    const QString said = diagnostics();
    if (!said.isEmpty())
        reason += QStringLiteral("; it said: ") + said.right(400).simplified();
    fail(reason);
}

void McpStdioTransport::fail(const QString &reason)
{
    if (m_failed)
        return;
    m_failed = true;
    if (m_process.state() != QProcess::NotRunning) {
        m_closing = true;
        stopGroup(SIGKILL);
    }
    Q_EMIT failed(reason);
}

void McpStdioTransport::stopGroup(int signal)
{
    if (m_pid > 0)
        ::kill(static_cast<pid_t>(-m_pid), signal);
}

} // namespace Sandcastle
