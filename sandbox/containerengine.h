#pragma once

#include <base/result.h>

#include <QSet>
#include <QString>
#include <QStringList>

namespace Sandcastle {

// Thin, synchronous access to the container engine's CLI (docker or podman) for checks and
// housekeeping: is it installed, is the daemon up, is the image there, which containers are
// left over. Long-running work (sessions) goes through SandboxSession instead.
class ContainerEngine
{
public:
    // context: docker --context for every call (empty: the default; DOCKER_HOST is honoured
    // because the environment is passed on).
    explicit ContainerEngine(QString program = QStringLiteral("docker"),
                             QString context = QString());

    struct Output
    {
        int exitCode = -1;
        QByteArray stdoutData;
        QByteArray stderrData;
        bool started = false;
        bool timedOut = false;
    };

    const QString &program() const { return m_program; }
    Output run(const QStringList &args, int timeoutMs = 30000, const QByteArray &input = {}) const;

    // Engine version when the daemon answers; otherwise a message that says which of
    // "not installed", "daemon not running" or "permission denied" is the case.
    Result<QString> checkDaemon() const;
    Result<bool> imageExists(const QString &image) const;

    // Removes containers labelled app=sandcastle whose owning process on this machine is gone
    // (after a crash); another machine's (label sandcastle.owner-host) are left alone.
    // Returns how many were removed.
    int reapOrphans() const;
    // Removes every container of one conversation (label sandcastle.conversation=ID).
    Result<int> removeConversationContainers(const QString &conversationId) const;
    // Removes the conversation's copy-mode volume (sandcastle-ws-ID); none there is success.
    Result<bool> removeConversationVolume(const QString &conversationId) const;
    // Removes copy-mode volumes that no container uses, labelled with this machine and this
    // data folder (SandboxConfig::ownerData), whose conversation is not in
    // `liveConversations` (deleted while the engine could not be reached). Returns how many.
    int reapOrphanVolumes(const QString &ownerData, const QSet<QString> &liveConversations) const;
    // The sandboxes of a data folder running now (label sandcastle.owner-data) and the memory
    // they use together; -1 for what the engine would not say.
    struct Usage
    {
        int running = -1;
        qint64 memoryBytes = -1;
    };
    Usage sandboxUsage(const QString &ownerData) const;
    // The bytes of a `docker stats` MemUsage ("12.5MiB / 1GiB": the part before the slash);
    // -1 for anything else.
    static qint64 parseMemoryUsage(const QString &text);

private:
    QString m_program;
    QString m_context;
};

} // namespace Sandcastle
