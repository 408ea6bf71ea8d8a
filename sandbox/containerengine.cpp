#include "containerengine.h"

#include "engineprobe.h"
#include "sandboxconfig.h"

#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>

#include <cerrno>
#include <csignal>

namespace Sandcastle {

ContainerEngine::ContainerEngine(QString program, QString context)
    : m_program(std::move(program))
    , m_context(std::move(context))
{}

ContainerEngine::Output
ContainerEngine::run(const QStringList &args, int timeoutMs, const QByteArray &input) const
{
    Output out;
    QProcess process;
    // Podman names its remote endpoints connections; docker, contexts.
    const QString option = EngineProbe::isPodman(m_program) ? QStringLiteral("--connection")
                                                            : QStringLiteral("--context");
    process.start(m_program, m_context.isEmpty() ? args : QStringList{option, m_context} + args);
    if (!process.waitForStarted(timeoutMs))
        return out;
    out.started = true;
    if (!input.isEmpty())
        process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(timeoutMs)) {
        out.timedOut = true;
        process.kill();
        process.waitForFinished(2000);
    }
    out.stdoutData = process.readAllStandardOutput();
    out.stderrData = process.readAllStandardError();
    out.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    return out;
}

Result<QString> ContainerEngine::checkDaemon() const
{
    if (QStandardPaths::findExecutable(m_program).isEmpty()
        && !m_program.contains(QLatin1Char('/'))) {
        return Result<QString>::failure(
            QStringLiteral("'%1' is not installed (on Debian/Ubuntu: apt-get install docker.io)")
                .arg(m_program));
    }
    const Output out = run({QStringLiteral("version"),
                            QStringLiteral("--format"),
                            QStringLiteral("{{.Server.Version}}")},
                           15000);
    if (!out.started)
        return Result<QString>::failure(QStringLiteral("could not start '%1'").arg(m_program));
    if (out.timedOut)
        return Result<QString>::failure(
            QStringLiteral("the %1 daemon did not answer in 15 s").arg(m_program));
    if (out.exitCode == 0)
        return Result<QString>::ok(QString::fromUtf8(out.stdoutData).trimmed());
    const QString err = QString::fromUtf8(out.stderrData).trimmed();
    if (err.contains(QLatin1String("permission denied"), Qt::CaseInsensitive)) {
        return Result<QString>::failure(
            QStringLiteral("permission denied on the %1 socket (add yourself to the 'docker' group "
                           "or run as root): %2")
                .arg(m_program, err));
    }
    return Result<QString>::failure(
        QStringLiteral("the %1 daemon is not running (start it with 'sudo systemctl start docker' "
                       "or 'sudo dockerd'): %2")
            .arg(m_program, err));
}

Result<bool> ContainerEngine::imageExists(const QString &image) const
{
    const Output out = run({QStringLiteral("image"), QStringLiteral("inspect"), image}, 15000);
    if (!out.started || out.timedOut)
        return Result<bool>::failure(
            QStringLiteral("could not ask %1 about the image").arg(m_program));
    return Result<bool>::ok(out.exitCode == 0);
}

int ContainerEngine::reapOrphans() const
{
    const Output out = run({QStringLiteral("ps"),
                            QStringLiteral("--all"),
                            QStringLiteral("--filter"),
                            QStringLiteral("label=app=sandcastle"),
                            QStringLiteral("--format"),
                            QStringLiteral("{{.ID}} {{.Label \"sandcastle.owner-pid\"}} "
                                           "{{.Label \"sandcastle.owner-host\"}}")},
                           15000);
    if (out.exitCode != 0)
        return 0;
    QStringList orphans;
    const QStringList lines
        = QString::fromUtf8(out.stdoutData).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const QString &line : lines) {
        const QStringList parts = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (parts.isEmpty())
            continue;
        // Another machine's (a shared remote engine): its pid means nothing here. Containers
        // from before the label have none and are taken for this machine's.
        if (parts.size() > 2 && parts.at(2) != SandboxConfig::ownerHost())
            continue;
        bool ok = false;
        const qint64 pid = parts.size() > 1 ? parts.at(1).toLongLong(&ok) : 0;
        // kill(pid, 0) fails with ESRCH when no such process exists: the owner is gone.
        if (!ok || pid <= 0 || (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH))
            orphans << parts.first();
    }
    if (orphans.isEmpty())
        return 0;
    // --volumes: a fresh run's anonymous volume goes too (a conversation's named one stays).
    run(QStringList{QStringLiteral("rm"), QStringLiteral("--force"), QStringLiteral("--volumes")}
            + orphans,
        30000);
    return int(orphans.size());
}

Result<int> ContainerEngine::removeConversationContainers(const QString &conversationId) const
{
    const Output out = run({QStringLiteral("ps"),
                            QStringLiteral("--all"),
                            QStringLiteral("--quiet"),
                            QStringLiteral("--filter"),
                            QStringLiteral("label=sandcastle.conversation=") + conversationId},
                           15000);
    if (!out.started || out.timedOut || out.exitCode != 0)
        return Result<int>::failure(
            QStringLiteral("could not list the conversation's containers: %1")
                .arg(QString::fromUtf8(out.stderrData).trimmed()));
    const QStringList ids
        = QString::fromUtf8(out.stdoutData).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (ids.isEmpty())
        return Result<int>::ok(0);
    const Output removed = run(
        QStringList{QStringLiteral("rm"), QStringLiteral("--force"), QStringLiteral("--volumes")}
            + ids,
        30000);
    if (removed.exitCode != 0)
        return Result<int>::failure(QStringLiteral("could not remove the container: %1")
                                        .arg(QString::fromUtf8(removed.stderrData).trimmed()));
    return Result<int>::ok(int(ids.size()));
}

Result<bool> ContainerEngine::removeConversationVolume(const QString &conversationId) const
{
    const QString volume = SandboxConfig::volumeFor(conversationId);
    const Output out = run(
        {QStringLiteral("volume"), QStringLiteral("rm"), QStringLiteral("--force"), volume}, 30000);
    const QString err = QString::fromUtf8(out.stderrData).trimmed();
    // None there (a conversation that never ran on a remote engine) is what was wanted.
    if (out.exitCode == 0 || err.contains(QLatin1String("no such volume"), Qt::CaseInsensitive))
        return Result<bool>::ok(true);
    return Result<bool>::failure(
        QStringLiteral("could not remove the conversation's volume %1: %2")
            .arg(volume, out.timedOut ? QStringLiteral("no answer") : err));
}

ContainerEngine::Usage ContainerEngine::sandboxUsage(const QString &ownerData) const
{
    Usage usage;
    if (ownerData.isEmpty())
        return usage;
    const Output listed = run({QStringLiteral("ps"),
                               QStringLiteral("--quiet"),
                               QStringLiteral("--filter"),
                               QStringLiteral("label=sandcastle.owner-data=") + ownerData},
                              10000);
    if (listed.exitCode != 0)
        return usage;
    const QStringList ids
        = QString::fromUtf8(listed.stdoutData).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    usage.running = int(ids.size());
    if (ids.isEmpty()) {
        usage.memoryBytes = 0;
        return usage;
    }
    const Output stats = run(QStringList{QStringLiteral("stats"),
                                         QStringLiteral("--no-stream"),
                                         QStringLiteral("--format"),
                                         QStringLiteral("{{.MemUsage}}")}
                                 + ids,
                             10000);
    if (stats.exitCode != 0)
        return usage;
    qint64 total = 0;
    for (const QString &line :
         QString::fromUtf8(stats.stdoutData).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const qint64 bytes = parseMemoryUsage(line);
        if (bytes < 0)
            return usage;
        total += bytes;
    }
    usage.memoryBytes = total;
    return usage;
}

qint64 ContainerEngine::parseMemoryUsage(const QString &text)
{
    static const QRegularExpression amount(
        QStringLiteral("^\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([KMGT]?i?B|[kKMGT]?B)\\s*(?:/.*)?$"));
    const QRegularExpressionMatch match = amount.match(text);
    if (!match.hasMatch())
        return -1;
    const double value = match.captured(1).toDouble();
    const QString unit = match.captured(2);
    const bool binary = unit.contains(QLatin1Char('i'));
    const double base = binary ? 1024.0 : 1000.0;
    int power = 0;
    switch (unit.at(0).toUpper().toLatin1()) {
    case 'K':
        power = 1;
        break;
    case 'M':
        power = 2;
        break;
    case 'G':
        power = 3;
        break;
    case 'T':
        power = 4;
        break;
    default:
        break;
    }
    double bytes = value;
    for (int i = 0; i < power; ++i)
        bytes *= base;
    return qint64(bytes);
}

int ContainerEngine::reapOrphanVolumes(const QString &ownerData,
                                       const QSet<QString> &liveConversations) const
{
    if (ownerData.isEmpty() || EngineProbe::isPodman(m_program))
        return 0; // Podman's volumes carry no labels (SandboxConfig::runArguments)
    const Output out
        = run({QStringLiteral("volume"),
               QStringLiteral("ls"),
               QStringLiteral("--quiet"),
               QStringLiteral("--filter"),
               QStringLiteral("dangling=true"),
               QStringLiteral("--filter"),
               QStringLiteral("label=sandcastle.owner-host=") + SandboxConfig::ownerHost(),
               QStringLiteral("--filter"),
               QStringLiteral("label=sandcastle.owner-data=") + ownerData},
              15000);
    if (out.exitCode != 0)
        return 0;
    const QString prefix = SandboxConfig::volumeFor(QString());
    QStringList orphans;
    for (const QString &name :
         QString::fromUtf8(out.stdoutData).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QString volume = name.trimmed();
        if (volume.startsWith(prefix) && !liveConversations.contains(volume.mid(prefix.size())))
            orphans << volume;
    }
    if (orphans.isEmpty())
        return 0;
    // A volume a container took meanwhile is refused by the engine and stays.
    const Output removed
        = run(QStringList{QStringLiteral("volume"), QStringLiteral("rm")} + orphans, 30000);
    return int(
        QString::fromUtf8(removed.stdoutData).split(QLatin1Char('\n'), Qt::SkipEmptyParts).size());
}

} // namespace Sandcastle
