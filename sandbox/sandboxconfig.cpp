#include "sandboxconfig.h"

#include "daemonendpoint.h"
#include "engineprobe.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSysInfo>

#include <sys/stat.h>
#include <unistd.h>

namespace Sandcastle {

namespace {
constexpr int kPodmanLimit = 4096; // open files and processes under Podman
} // namespace

SandboxConfig SandboxConfig::fromEnvironment()
{
    SandboxConfig config;
    const QString engine = qEnvironmentVariable("SANDCASTLE_ENGINE");
    if (!engine.isEmpty())
        config.engine = engine;
    config.context = qEnvironmentVariable("SANDCASTLE_CONTEXT");
    const QString image = qEnvironmentVariable("SANDCASTLE_IMAGE");
    if (!image.isEmpty())
        config.image = image;
    // SANDCASTLE_WORKSPACE_MODE: auto, bind or copy (anything else keeps auto; the commands
    // that read it check it first and refuse a typo).
    if (const auto mode = parseWorkspaceMode(qEnvironmentVariable("SANDCASTLE_WORKSPACE_MODE")))
        config.workspaceMode = *mode;
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
    return DaemonEndpoint::sharesFolder(*this);
}

bool SandboxConfig::copiesWorkspace() const
{
    switch (workspaceMode) {
    case WorkspaceMode::Copy:
        return true;
    case WorkspaceMode::Bind:
        return false;
    case WorkspaceMode::Auto:
        break;
    }
    return !daemonIsLocal();
}

QString SandboxConfig::workspaceModeName(WorkspaceMode mode)
{
    switch (mode) {
    case WorkspaceMode::Copy:
        return QStringLiteral("copy");
    case WorkspaceMode::Bind:
        return QStringLiteral("bind");
    case WorkspaceMode::Auto:
        break;
    }
    return QStringLiteral("auto");
}

std::optional<SandboxConfig::WorkspaceMode> SandboxConfig::parseWorkspaceMode(const QString &name)
{
    for (const WorkspaceMode mode :
         {WorkspaceMode::Auto, WorkspaceMode::Bind, WorkspaceMode::Copy}) {
        if (name.compare(workspaceModeName(mode), Qt::CaseInsensitive) == 0)
            return mode;
    }
    return std::nullopt;
}

QString SandboxConfig::workspaceVolume() const
{
    return conversationId.isEmpty() || !keepsVolume ? QString() : volumeFor(conversationId);
}

QString SandboxConfig::ownerHost()
{
    // /etc/machine-id (D-Bus's id where that is missing), else the host name.
    static const QString host = [] {
        const QByteArray id = QSysInfo::machineUniqueId();
        return id.isEmpty() ? QSysInfo::machineHostName() : QString::fromLatin1(id);
    }();
    return host;
}

QString SandboxConfig::ownerDataFor(const QString &dataDir)
{
    if (dataDir.isEmpty())
        return QString();
    const QString path = QDir(dataDir).absolutePath();
    return QString::fromLatin1(
        QCryptographicHash::hash(path.toUtf8(), QCryptographicHash::Sha256).toHex().left(16));
}

QStringList SandboxConfig::runArguments(const QString &containerName, qint64 ownerPid) const
{
    const bool kernelMain = kernelIsMainProcess();
    QStringList args{QStringLiteral("run"),
                     kernelMain ? QStringLiteral("--interactive") : QStringLiteral("--detach"),
                     QStringLiteral("--pull"),
                     QStringLiteral("never"),
                     QStringLiteral("--name"),
                     containerName,
                     QStringLiteral("--label"),
                     QStringLiteral("app=sandcastle"),
                     QStringLiteral("--label"),
                     QStringLiteral("sandcastle.owner-pid=") + QString::number(ownerPid),
                     QStringLiteral("--label"),
                     QStringLiteral("sandcastle.owner-host=") + ownerHost()};
    if (!ownerData.isEmpty())
        args << QStringLiteral("--label") << QStringLiteral("sandcastle.owner-data=") + ownerData;
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
    // Rootless Podman maps the container's root to this user and everyone else to subordinate
    // ids: keep-id makes the code's uid (containerUser(): this user's) this user's on the host
    // too, so that it can write the bind-mounted folder and what it writes is the person's.
    if (isPodman() && ::geteuid() != 0 && !workspace.isEmpty() && !copiesWorkspace())
        args << QStringLiteral("--userns=keep-id");
    if (isPodman()) {
        // Rootful Podman raises open files and processes to 1,048,576 and 4,194,304 unless told,
        // which a host without CAP_SYS_RESOURCE (a container, a CI runner) refuses at the start;
        // Docker keeps its daemon's. The pids limit above bounds processes anyway.
        args << QStringLiteral("--ulimit") << QStringLiteral("nofile=%1:%1").arg(kPodmanLimit)
             << QStringLiteral("--ulimit") << QStringLiteral("nproc=%1:%1").arg(kPodmanLimit);
    }
    if (!workspace.isEmpty() && copiesWorkspace()) {
        // The daemon cannot see this machine's folders: a volume holds /workspace, filled and
        // read back through tar streams (WorkspaceSync).
        const QString volume = workspaceVolume();
        QString mount = QStringLiteral("type=volume,target=/workspace");
        if (!volume.isEmpty()) {
            mount += QStringLiteral(",source=") + volume;
            // Labels for ContainerEngine::reapOrphanVolumes (Docker sets them when it creates
            // the volume; Podman 4.3 has no volume-label, and its volumes are only removed
            // with their conversation).
            if (!isPodman()) {
                mount += QStringLiteral(",volume-label=app=sandcastle,volume-label=sandcastle."
                                        "owner-host=")
                         + ownerHost();
                if (!ownerData.isEmpty())
                    mount += QStringLiteral(",volume-label=sandcastle.owner-data=") + ownerData;
            }
        }
        args << QStringLiteral("--mount") << mount;
    } else if (!workspace.isEmpty()) {
        args << QStringLiteral("--mount")
             << QStringLiteral("type=bind,source=") + QDir(workspace).absolutePath()
                    + QStringLiteral(",target=/workspace")
                    + (workspaceReadOnly ? QStringLiteral(",readonly") : QString());
    }
    args << QStringLiteral("--workdir") << QStringLiteral("/workspace");
    if (kernelMain) {
        args << QStringLiteral("--rm") << image << QStringLiteral("python3")
             << QStringLiteral("/opt/sandcastle/kernel.py");
    } else {
        args << image << QStringLiteral("sleep") << QStringLiteral("infinity");
    }
    return engineArguments(args);
}

bool SandboxConfig::isValidModuleName(const QString &name)
{
    static const QRegularExpression dotted(
        QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*$"));
    return name.size() <= 200 && dotted.match(name).hasMatch();
}

bool SandboxConfig::isPodman() const
{
    return EngineProbe::isPodman(engine);
}

QStringList SandboxConfig::engineArguments(const QStringList &args) const
{
    if (context.isEmpty())
        return args;
    // Podman names its remote endpoints connections; docker, contexts.
    return QStringList{isPodman() ? QStringLiteral("--connection") : QStringLiteral("--context"),
                       context}
           + args;
}

bool SandboxConfig::needsNewContainer(const SandboxConfig &current) const
{
    return network != current.network || memory != current.memory || runtime != current.runtime
           || image != current.image || fresh != current.fresh || cpus != current.cpus
           || engine != current.engine || context != current.context || user != current.user
           || workspaceReadOnly != current.workspaceReadOnly
           || copiesWorkspace() != current.copiesWorkspace();
}

} // namespace Sandcastle
