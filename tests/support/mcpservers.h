#pragma once

#include <app/mcp/mcpconfig.h>
#include <support/testtimeouts.h>

#include <QDir>
#include <QProcess>
#include <QTcpServer>
#include <QTcpSocket>
#include <QtTest>

namespace Sandcastle::Testing {

// The MCP reference servers from the npm registry (tests/mcp, installed by scripts/setup with
// npm ci): their entry scripts, run with the machine's node.
inline QString mcpServerScript(const QString &package)
{
    const QString root = qEnvironmentVariable("SANDCASTLE_SOURCE_DIR");
    return QDir(root).filePath(
        QStringLiteral("tests/mcp/node_modules/@modelcontextprotocol/%1/dist/index.js")
            .arg(package));
}

// Empty when node and the servers are there; otherwise why not.
inline QString mcpServersMissing()
{
    if (QStandardPaths::findExecutable(QStringLiteral("node")).isEmpty())
        return QStringLiteral("node is not installed (Debian's nodejs)");
    for (const QString &package :
         {QStringLiteral("server-everything"), QStringLiteral("server-filesystem")}) {
        if (!QFileInfo::exists(mcpServerScript(package)))
            return QStringLiteral("%1 is not installed: scripts/setup runs npm ci in tests/mcp")
                .arg(package);
    }
    return {};
}

// Skips the test without the servers, or fails it in CI, where scripts/setup installs them.
#define SANDCASTLE_REQUIRE_MCP_SERVERS()                                                           \
    do {                                                                                           \
        const QString missing = Sandcastle::Testing::mcpServersMissing();                          \
        if (!missing.isEmpty()) {                                                                  \
            if (qEnvironmentVariable("CI") == QLatin1String("true"))                               \
                QFAIL(qPrintable(QStringLiteral("CI=true and ") + missing));                       \
            QSKIP(qPrintable(missing));                                                            \
        }                                                                                          \
    } while (false)

// server-everything over stdio, as a person's mcp.json would start it.
inline McpServerConfig everythingOverStdio(const QString &name = QStringLiteral("everything"))
{
    McpServerConfig config;
    config.name = name;
    config.command = QStringLiteral("node");
    config.args = {mcpServerScript(QStringLiteral("server-everything")), QStringLiteral("stdio")};
    return config;
}

// A free port on the loopback interface.
inline quint16 freeLoopbackPort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

// server-everything's Streamable HTTP server on `port`, started and listening (or failed).
class EverythingOverHttp
{
public:
    explicit EverythingOverHttp(quint16 port)
        : m_port(port)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PORT"), QString::number(port));
        m_process.setProcessEnvironment(env);
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.start(QStringLiteral("node"),
                        {mcpServerScript(QStringLiteral("server-everything")),
                         QStringLiteral("streamableHttp")});
        m_process.waitForStarted(kWaitMs);
    }
    ~EverythingOverHttp()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(3000))
            m_process.kill();
        m_process.waitForFinished(3000);
    }
    bool waitListening(int timeoutMs = kLongWaitMs) // node starting
    {
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < timeoutMs && m_process.state() == QProcess::Running) {
            QTcpSocket socket;
            socket.connectToHost(QHostAddress::LocalHost, m_port);
            if (socket.waitForConnected(200))
                return true;
            QTest::qWait(100);
        }
        return false;
    }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1/mcp").arg(m_port); }
    qint64 pid() const { return m_process.processId(); }

private:
    quint16 m_port;
    QProcess m_process;
};

} // namespace Sandcastle::Testing
