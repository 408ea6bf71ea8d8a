#include "sandboxconfig.h"

#include <QDir>
#include <QRegularExpression>

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
         << QStringLiteral("none") << QStringLiteral("--user") << containerUser();
    if (!runtime.isEmpty())
        args << QStringLiteral("--runtime") << runtime;
    if (!workspace.isEmpty()) {
        args << QStringLiteral("--mount")
             << QStringLiteral("type=bind,source=") + QDir(workspace).absolutePath()
                    + QStringLiteral(",target=/workspace");
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
           || engine != current.engine || context != current.context;
}

} // namespace Sandcastle
