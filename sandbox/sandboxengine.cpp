#include "sandboxengine.h"

#include "daemonendpoint.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>

#include <sys/stat.h>
#include <unistd.h>

namespace Sandcastle {

std::unique_ptr<SandboxEngine> SandboxEngine::forConfig(const SandboxConfig &config)
{
    return std::make_unique<LocalCliEngine>(config);
}

QString SandboxEngine::ignoredLimits(const QByteArray &engineStderr)
{
    if (!engineStderr.contains("Resource limits are not supported and ignored")
        || qEnvironmentVariable("SANDCASTLE_ALLOW_UNLIMITED") == QLatin1String("1"))
        return QString();
    return QStringLiteral(
        "the container engine runs rootless on a host with cgroups v1 and ignores the sandbox's "
        "memory, process and CPU limits, so no code runs there: use Docker, or Podman as root, "
        "or boot the host with cgroups v2 (systemd.unified_cgroup_hierarchy=1); to run without "
        "those limits anyway, set SANDCASTLE_ALLOW_UNLIMITED=1");
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
    QStringList args{QStringLiteral("exec"),
                     QStringLiteral("--interactive"),
                     name,
                     QStringLiteral("python3"),
                     QStringLiteral("/opt/sandcastle/kernel.py")};
    QStringList modules;
    for (const QString &module : m_config.preimports)
        if (SandboxConfig::isValidModuleName(module))
            modules << module;
    if (!modules.isEmpty() && !m_config.fresh)
        args << QStringLiteral("--preimport") << modules.join(QLatin1Char(','));
    return command(args);
}

EngineCommand
LocalCliEngine::execIn(const QString &name, const QStringList &argv, bool withStdin) const
{
    QStringList args{QStringLiteral("exec")};
    if (withStdin)
        args << QStringLiteral("--interactive");
    args << QStringLiteral("--workdir") << QStringLiteral("/workspace") << name;
    return command(args + argv);
}

EngineCommand LocalCliEngine::killContainer(const QString &name) const
{
    return command({QStringLiteral("kill"), name});
}

EngineCommand LocalCliEngine::removeContainer(const QString &name) const
{
    // --volumes: copy mode's anonymous volume goes with it (a conversation's named one stays).
    return command(
        {QStringLiteral("rm"), QStringLiteral("--force"), QStringLiteral("--volumes"), name});
}

EngineCommand LocalCliEngine::readOomCounters(const QString &name) const
{
    return command({QStringLiteral("exec"),
                    name,
                    QStringLiteral("cat"),
                    QStringLiteral("/sys/fs/cgroup/memory/memory.oom_control"),
                    QStringLiteral("/sys/fs/cgroup/memory.events")});
}

namespace {

// Whether a connection failure (a line of it, or all of it) says why, in ssh's words.
bool saysWhy(const QString &line)
{
    return line.contains(QLatin1String("Permission denied"))
           || line.contains(QLatin1String("Connection refused"))
           || line.contains(QLatin1String("Could not resolve"))
           || line.contains(QLatin1String("timed out"));
}

// docker's closing advice ("Run 'docker run --help' for more information.", "See '...'.").
bool isUsageHint(const QString &line)
{
    return line.startsWith(QLatin1String("Run '")) || line.startsWith(QLatin1String("See '"));
}

} // namespace

bool LocalCliEngine::connectionFailedWithoutReason(const QByteArray &stderrData) const
{
    if (m_config.daemonIsLocal())
        return false;
    const QString err = QString::fromUtf8(stderrData);
    return err.contains(QLatin1String("error during connect")) && !saysWhy(err)
           && (err.contains(QLatin1String("broken pipe")) || err.contains(QLatin1String("EOF"))
               || err.contains(QLatin1String("file already closed")));
}

QString LocalCliEngine::describeStartFailure(const QByteArray &stderrData) const
{
    const QString err = QString::fromUtf8(stderrData).trimmed();
    const bool remote = !m_config.daemonIsLocal();
    if (err.contains(QLatin1String("No such image"))
        || err.contains(QLatin1String("Unable to find image"))
        || err.contains(QLatin1String("pull access denied"))
        || err.contains(QLatin1String("image not known"))) { // podman's words
        if (remote)
            return QStringLiteral("the sandbox image %1 is not on %2: send it from this machine "
                                  "with 'sandcastle image send', or build it there with "
                                  "'sandcastle image build'")
                .arg(m_config.image, describeEndpoint());
        return QStringLiteral(
                   "the sandbox image %1 is missing; build it with 'sandcastle image build'")
            .arg(m_config.image);
    }
    // The way to a remote daemon (ssh, TCP, TLS) failed before the daemon could answer.
    if (remote
        && (err.contains(QLatin1String("error during connect"))
            || err.contains(QLatin1String("ssh: "))
            || err.contains(QLatin1String("Permission denied (publickey"))
            || err.contains(QLatin1String("Connection refused"))
            || err.contains(QLatin1String("connection reset"))
            || err.contains(QLatin1String("Cannot connect to the Docker daemon"))
            || err.contains(QLatin1String("Cannot connect to Podman"))
            || err.contains(QLatin1String("unable to connect to Podman")))) {
        QStringList lines = err.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        lines.removeIf([](const QString &line) { return isUsageHint(line.trimmed()); });
        // ssh's own words are the most useful line, such as "Permission denied (publickey)".
        QString said = lines.isEmpty() ? err : lines.last().trimmed();
        for (const QString &line : lines) {
            if (saysWhy(line))
                said = line.trimmed();
        }
        const qsizetype stderrAt = said.lastIndexOf(QLatin1String("stderr="));
        if (stderrAt >= 0 && stderrAt + 7 < said.size())
            said = said.mid(stderrAt + 7).trimmed(); // ssh's own words inside docker's
        return QStringLiteral("could not reach %1: %2").arg(describeEndpoint(), said.left(400));
    }
    if (err.contains(QLatin1String("Cannot connect to the Docker daemon"))
        || err.contains(QLatin1String("Is the docker daemon running")))
        return QStringLiteral("the Docker daemon is not running: ") + err;
    if (err.contains(QLatin1String("permission denied"), Qt::CaseInsensitive))
        return QStringLiteral("permission denied talking to the container engine: ") + err;
    return QStringLiteral("could not start the sandbox container: ") + err;
}

QString LocalCliEngine::describeEndpoint() const
{
    // Where the CLI's daemon is, as its context says: a remote one named with its address.
    const QString host = DaemonEndpoint::hostOf(m_config);
    const bool remote = !host.isEmpty() && !m_config.daemonIsLocal();
    if (!m_config.context.isEmpty() && m_config.context != QLatin1String("default"))
        return remote && !host.startsWith(QLatin1String("unknown-context:"))
                   ? QStringLiteral("%1 context %2 (%3)")
                         .arg(m_config.engine, m_config.context, host)
                   : QStringLiteral("%1 context %2").arg(m_config.engine, m_config.context);
    if (remote)
        return QStringLiteral("the %1 daemon at %2").arg(m_config.engine, host);
    return QStringLiteral("%1 on this machine").arg(m_config.engine);
}

Result<bool> LocalCliEngine::prepareWorkspace() const
{
    if (m_config.workspace.isEmpty())
        return Result<bool>::ok(true);
    if (m_config.copiesWorkspace()) {
        // Nothing of this folder is mounted: it only has to be there to be read and written.
        if (!QDir().mkpath(m_config.workspace))
            return Result<bool>::failure(QStringLiteral("cannot create the workspace folder ")
                                         + m_config.workspace);
        return Result<bool>::ok(true);
    }
    if (m_config.workspace.contains(QLatin1Char(','))) {
        return Result<bool>::failure(QStringLiteral("the workspace path must not contain a comma: ")
                                     + m_config.workspace);
    }
    if (!QDir().mkpath(m_config.workspace)) {
        return Result<bool>::failure(QStringLiteral("cannot create the workspace folder ")
                                     + m_config.workspace);
    }
    // Root on the host runs the code as the image's user 1000; give it the workspace, and what
    // root put inside (an uploaded file, an exported bundle), so that the code can change it.
    // lchown: a symlink is handed over itself, never what it points to. A folder the person
    // opened (the config names its user) is never chowned.
    if (::getuid() == 0 && m_config.user.isEmpty()) {
        const QString root = QDir(m_config.workspace).absolutePath();
        if (::chown(QFile::encodeName(root).constData(), 1000, 1000) != 0) {
            return Result<bool>::failure(
                QStringLiteral("cannot hand the workspace to the sandbox user: ")
                + m_config.workspace);
        }
        QDirIterator it(root,
                        QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QByteArray path = QFile::encodeName(it.next());
            struct stat st
            {
            };
            if (::lstat(path.constData(), &st) == 0 && st.st_uid == 0
                && ::lchown(path.constData(), 1000, 1000) != 0)
                qWarning("sandbox: cannot hand %s to the sandbox user", path.constData());
        }
    }
    return Result<bool>::ok(true);
}

} // namespace Sandcastle
