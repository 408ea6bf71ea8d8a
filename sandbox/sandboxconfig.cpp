#include "sandboxconfig.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>

#include <sys/stat.h>
#include <unistd.h>

namespace Sandcastle {

SandboxConfig SandboxConfig::fromEnvironment()
{
    SandboxConfig config;
    const QString engine = qEnvironmentVariable("SANDCASTLE_ENGINE");
    if (!engine.isEmpty())
        config.engine = engine;
    const QString image = qEnvironmentVariable("SANDCASTLE_IMAGE");
    if (!image.isEmpty())
        config.image = image;
    return config;
}

bool SandboxConfig::isValidMemory(const QString &size)
{
    static const QRegularExpression pattern(QStringLiteral("^[0-9]+[bkmgBKMG]?$"));
    return pattern.match(size).hasMatch();
}

QString SandboxConfig::containerUser()
{
    const uid_t uid = ::getuid();
    const gid_t gid = ::getgid();
    if (uid == 0)
        return QStringLiteral("1000:1000");
    return QString::number(uid) + QLatin1Char(':') + QString::number(gid);
}

SandboxConfig::FolderAccess SandboxConfig::folderAccess(uint ownerUid, uint ownerGid, uint hostUid)
{
    if (ownerUid != 0)
        return {
            QString::number(ownerUid) + QLatin1Char(':') + QString::number(ownerGid), false, {}};
    const QString fix = hostUid == 0 ? QStringLiteral("chown it to the person it belongs to")
                                     : QStringLiteral("chown it to yourself (uid %1)").arg(hostUid);
    return {QStringLiteral("1000:1000"),
            true,
            QStringLiteral("/workspace is read-only: the opened folder is owned by root, and code "
                           "never runs as root. The code runs as uid 1000 and can read the "
                           "files but not change them; to let it write, %1 and reopen it.")
                .arg(fix)};
}

void SandboxConfig::useOpenedFolder()
{
    struct stat st
    {
    };
    // An owner that cannot be read is treated as root's: read-only, never uid 0.
    const bool known = ::stat(QFile::encodeName(workspace).constData(), &st) == 0;
    const FolderAccess access
        = folderAccess(known ? st.st_uid : 0, known ? st.st_gid : 0, ::getuid());
    user = access.user;
    workspaceReadOnly = access.readOnly;
    workspaceNote = access.reason;
}

bool SandboxConfig::daemonIsLocal() const
{
    if (!context.isEmpty() && context != QLatin1String("default"))
        return false;
    const QString host = qEnvironmentVariable("DOCKER_HOST");
    return host.isEmpty() || host.startsWith(QLatin1String("unix://"));
}

QStringList SandboxConfig::runArguments(const QString &containerName, qint64 ownerPid) const
{
    QStringList args{QStringLiteral("run"),
                     fresh ? QStringLiteral("--interactive") : QStringLiteral("--detach"),
                     QStringLiteral("--pull"),
                     QStringLiteral("never"),
                     QStringLiteral("--name"),
                     containerName,
                     QStringLiteral("--label"),
                     QStringLiteral("app=sandcastle"),
                     QStringLiteral("--label"),
                     QStringLiteral("sandcastle.owner-pid=") + QString::number(ownerPid)};
    if (!conversationId.isEmpty())
        args << QStringLiteral("--label")
             << QStringLiteral("sandcastle.conversation=") + conversationId;
    args << QStringLiteral("--network")
         << (network ? QStringLiteral("bridge") : QStringLiteral("none"))
         << QStringLiteral("--cap-drop") << QStringLiteral("ALL")
         << QStringLiteral("--security-opt") << QStringLiteral("no-new-privileges")
         << QStringLiteral("--read-only") << QStringLiteral("--tmpfs")
         << QStringLiteral("/tmp:rw,nosuid,nodev,size=") + tmpfsSize + QStringLiteral(",mode=1777")
         << QStringLiteral("--memory") << memory << QStringLiteral("--memory-swap") << memory
         << QStringLiteral("--cpus") << cpus << QStringLiteral("--pids-limit")
         << QString::number(pidsLimit) << QStringLiteral("--init") << QStringLiteral("--log-driver")
         << QStringLiteral("none") << QStringLiteral("--user")
         << (user.isEmpty() ? containerUser() : user);
    if (!runtime.isEmpty())
        args << QStringLiteral("--runtime") << runtime;
    if (!workspace.isEmpty()) {
        args << QStringLiteral("--mount")
             << QStringLiteral("type=bind,source=") + QDir(workspace).absolutePath()
                    + QStringLiteral(",target=/workspace")
                    + (workspaceReadOnly ? QStringLiteral(",readonly") : QString());
    }
    args << QStringLiteral("--workdir") << QStringLiteral("/workspace");
    if (fresh) {
        args << QStringLiteral("--rm") << image << QStringLiteral("python3")
             << QStringLiteral("/opt/sandcastle/kernel.py");
    } else {
        args << image << QStringLiteral("sleep") << QStringLiteral("infinity");
    }
    return engineArguments(args);
}

QStringList SandboxConfig::engineArguments(const QStringList &args) const
{
    if (context.isEmpty())
        return args;
    return QStringList{QStringLiteral("--context"), context} + args;
}

bool SandboxConfig::needsNewContainer(const SandboxConfig &current) const
{
    return network != current.network || memory != current.memory || runtime != current.runtime
           || image != current.image || fresh != current.fresh || cpus != current.cpus
           || engine != current.engine || context != current.context || user != current.user
           || workspaceReadOnly != current.workspaceReadOnly;
}

} // namespace Sandcastle
