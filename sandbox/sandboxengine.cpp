#include "sandboxengine.h"

namespace Sandcastle {

std::unique_ptr<SandboxEngine> SandboxEngine::forConfig(const SandboxConfig &config)
{
    return std::make_unique<LocalCliEngine>(config);
}

LocalCliEngine::LocalCliEngine(SandboxConfig config)
    : m_config(std::move(config))
{}

EngineCommand LocalCliEngine::command(const QStringList &arguments) const
{
    return {m_config.engine, m_config.engineArguments(arguments)};
}

EngineCommand LocalCliEngine::createContainer(const QString &name, qint64 ownerPid) const
{
    // runArguments() already carries the global options.
    return {m_config.engine, m_config.runArguments(name, ownerPid)};
}

EngineCommand LocalCliEngine::execKernel(const QString &name) const
{
    return command({QStringLiteral("exec"),
                    QStringLiteral("--interactive"),
                    name,
                    QStringLiteral("python3"),
                    QStringLiteral("/opt/sandcastle/kernel.py")});
}

EngineCommand LocalCliEngine::killContainer(const QString &name) const
{
    return command({QStringLiteral("kill"), name});
}

EngineCommand LocalCliEngine::removeContainer(const QString &name) const
{
    return command({QStringLiteral("rm"), QStringLiteral("--force"), name});
}

EngineCommand LocalCliEngine::readOomCounters(const QString &name) const
{
    return command({QStringLiteral("exec"),
                    name,
                    QStringLiteral("cat"),
                    QStringLiteral("/sys/fs/cgroup/memory/memory.oom_control"),
                    QStringLiteral("/sys/fs/cgroup/memory.events")});
}

QString LocalCliEngine::describeStartFailure(const QByteArray &stderrData) const
{
    const QString err = QString::fromUtf8(stderrData).trimmed();
    if (err.contains(QLatin1String("No such image"))
        || err.contains(QLatin1String("Unable to find image"))
        || err.contains(QLatin1String("pull access denied"))) {
        return QStringLiteral(
                   "the sandbox image %1 is missing; build it with 'sandcastle image build'")
            .arg(m_config.image);
    }
    if (err.contains(QLatin1String("Cannot connect to the Docker daemon"))
        || err.contains(QLatin1String("Is the docker daemon running")))
        return QStringLiteral("the Docker daemon is not running: ") + err;
    if (err.contains(QLatin1String("permission denied"), Qt::CaseInsensitive))
        return QStringLiteral("permission denied talking to the container engine: ") + err;
    return QStringLiteral("could not start the sandbox container: ") + err;
}

} // namespace Sandcastle
