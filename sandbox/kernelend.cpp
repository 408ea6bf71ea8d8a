#include "kernelend.h"

#include <QList>

#include <optional>

namespace Sandcastle {

namespace {

// The line of an engine's or ssh's message worth showing: what ssh said after "stderr=", else
// the last line that is not a probe's own complaint.
QString remoteWords(const QString &text)
{
    QString said;
    const QStringList lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const QString &line : lines) {
        if (!line.trimmed().startsWith(QLatin1String("cat:")))
            said = line.trimmed();
    }
    const qsizetype stderrAt = said.lastIndexOf(QLatin1String("stderr="));
    if (stderrAt >= 0) {
        // docker's log line quotes its whole message (msg="… stderr="): a closing quote is not
        // ssh's words, and ssh may have said nothing (killed).
        QString words = said.mid(stderrAt + 7);
        while (words.endsWith(QLatin1Char('"')))
            words.chop(1);
        words = words.trimmed();
        if (!words.isEmpty())
            return words.left(300);
    }
    // docker's "command [ssh … dial-stdio] has exited with signal: killed, make sure …"
    const qsizetype exited = said.indexOf(QLatin1String("] has exited with "));
    if (said.contains(QLatin1String("command [ssh")) && exited > 0)
        return QStringLiteral("ssh") + said.mid(exited + 1).section(QLatin1Char(','), 0, 0);
    return said.left(300);
}

} // namespace

void describeKernelEnd(const KernelEnd &end, ExecutionResult &result)
{
    result.stateLost = true;
    if (end.killedByHost && end.reason == StopReason::Timeout) {
        result.status = ExecutionResult::Status::Timeout;
        result.exitCode = 124;
        result.error
            = QStringLiteral("the run took longer than its time limit and did not stop when "
                             "interrupted; the sandbox was restarted, so variables are gone");
    } else if (end.killedByHost && end.reason == StopReason::Quota) {
        result.status = ExecutionResult::Status::Killed;
        result.exitCode = 137;
        result.error = end.quotaMessage + QStringLiteral("; variables are gone");
    } else if (end.killedByHost) {
        result.status = ExecutionResult::Status::Killed;
        result.exitCode = 137;
        result.error
            = end.reason == StopReason::OutputCap
                  ? QStringLiteral(
                        "the run printed more than %1 MiB and was stopped; variables are gone")
                        .arg(end.outputCapBytes / (1024 * 1024))
                  : QStringLiteral("the run was stopped; variables are gone");
    } else if (end.death == KernelDeath::OutOfMemory) {
        result.status = ExecutionResult::Status::OutOfMemory;
        result.exitCode = 137;
        result.error = QStringLiteral("the run used more memory than the sandbox allows (%1) and "
                                      "was killed; variables are gone")
                           .arg(end.memory);
    } else if ((end.death == KernelDeath::DaemonGone || end.death == KernelDeath::ContainerGone
                || end.death == KernelDeath::Gone)
               && !end.remote.isEmpty()) {
        // A remote engine: the connection may be what went, not the daemon or the kernel.
        result.status = ExecutionResult::Status::Killed;
        result.exitCode = 137;
        const bool daemon = end.death == KernelDeath::DaemonGone;
        const QString said = remoteWords(daemon ? end.engineSaid : end.diagnostics);
        result.error = (daemon ? QStringLiteral("lost %1 during the run (the connection broke or "
                                                "the daemon stopped)")
                               : QStringLiteral("the run's connection to %1 ended early (the "
                                                "connection broke, or the sandbox stopped)"))
                           .arg(end.remote)
                       + (said.isEmpty() ? QString() : QStringLiteral(": ") + said)
                       + QStringLiteral("; variables are gone, nothing here was lost, and the "
                                        "next run connects again and starts a new sandbox");
    } else if (end.death == KernelDeath::DaemonGone || end.death == KernelDeath::ContainerGone) {
        result.status = ExecutionResult::Status::Killed;
        result.exitCode = 137;
        result.error
            = end.death == KernelDeath::DaemonGone
                  ? QStringLiteral("the Docker daemon stopped during the run, and the sandbox "
                                   "with it; variables are gone (the next run starts a new "
                                   "sandbox once the daemon is back)")
                  : QStringLiteral("the sandbox container stopped during the run (the Docker "
                                   "daemon restarted, the container was stopped from outside, "
                                   "or its init was killed); variables are gone, the next run "
                                   "starts a new sandbox");
    } else if (end.death == KernelDeath::Signal) {
        result.status = ExecutionResult::Status::Killed;
        result.exitCode = 137;
        result.error = QStringLiteral("the sandbox kernel stopped unexpectedly: something in the "
                                      "sandbox killed it (SIGKILL); variables are gone");
    } else {
        result.status = ExecutionResult::Status::Killed;
        result.exitCode = end.exitCode < 0 ? 137 : end.exitCode;
        result.error = QStringLiteral("the sandbox kernel stopped unexpectedly (exit code %1) %2")
                           .arg(end.exitCode)
                           .arg(end.diagnostics)
                           .trimmed();
    }
}

KernelDeath deathFromOomProbe(const QByteArray &stdoutData,
                              const QByteArray &stderrData,
                              int exitCode,
                              qint64 &oomKillsSeen)
{
    std::optional<qint64> kills;
    const QList<QByteArray> lines = stdoutData.split('\n');
    for (const QByteArray &line : lines) {
        if (line.startsWith("oom_kill "))
            kills = line.mid(9).trimmed().toLongLong();
    }
    // cat fails on the cgroup version the host does not have, after the other file: the count
    // is what matters.
    if (!kills) {
        // The daemon, or the way to it (ssh, a TCP connection), does not answer.
        return stderrData.contains("Cannot connect to the Docker daemon")
                       || stderrData.contains("Is the docker daemon running")
                       || stderrData.contains("error during connect")
                       || stderrData.contains("Connection refused")
                       || stderrData.contains("connection reset") || stderrData.contains("ssh: ")
                   ? KernelDeath::DaemonGone
                   : KernelDeath::ContainerGone;
    }
    const bool oom = *kills > oomKillsSeen;
    oomKillsSeen = *kills;
    if (exitCode != 137)
        return KernelDeath::Gone;
    return oom ? KernelDeath::OutOfMemory : KernelDeath::Signal;
}

} // namespace Sandcastle
