#include "daemonendpoint.h"

#include "sandboxconfig.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QMutex>
#include <QProcess>
#include <QUrl>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>

namespace Sandcastle {

namespace {

QString cacheKey(const SandboxConfig &config)
{
    const QStringList parts{config.engine,
                            config.context,
                            qEnvironmentVariable("DOCKER_HOST"),
                            qEnvironmentVariable("DOCKER_CONTEXT"),
                            qEnvironmentVariable("CONTAINER_HOST"),
                            qEnvironmentVariable("CONTAINER_CONNECTION")};
    return parts.join(QChar(0x1f));
}

QMutex &cacheMutex()
{
    static QMutex mutex;
    return mutex;
}

QString readCliLine(const QString &program, const QStringList &arguments)
{
    QProcess process;
    process.start(program, arguments);
    if (!process.waitForFinished(15000)) {
        process.kill();
        process.waitForFinished(1000);
        return {};
    }
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
        return {};
    return QString::fromUtf8(process.readAllStandardOutput())
        .trimmed()
        .section(QLatin1Char('\n'), 0, 0);
}

QString podmanHost(const SandboxConfig &config)
{
    QString name = config.context;
    if (name.isEmpty())
        name = qEnvironmentVariable("CONTAINER_CONNECTION");
    if (name.isEmpty())
        return qEnvironmentVariable("CONTAINER_HOST"); // empty: podman on this machine
    const QString listing = [&] {
        QProcess process;
        process.start(config.engine,
                      {QStringLiteral("system"),
                       QStringLiteral("connection"),
                       QStringLiteral("list"),
                       QStringLiteral("--format"),
                       QStringLiteral("{{.Name}}\t{{.URI}}")});
        process.waitForFinished(15000);
        return QString::fromUtf8(process.readAllStandardOutput());
    }();
    for (const QString &line : listing.split(QLatin1Char('\n'))) {
        if (line.section(QLatin1Char('\t'), 0, 0) == name)
            return line.section(QLatin1Char('\t'), 1).trimmed();
    }
    return QStringLiteral("podman-connection://") + name; // unknown: not local
}

struct stat statOrZero(const QByteArray &path, bool *ok)
{
    struct stat st
    {
    };
    *ok = ::stat(path.constData(), &st) == 0;
    return st;
}

} // namespace

qint64 DaemonEndpoint::socketPeerPid(const QString &path)
{
    const QByteArray encoded = QFile::encodeName(path);
    sockaddr_un address{};
    if (encoded.size() >= qsizetype(sizeof(address.sun_path)))
        return -1;
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, encoded.constData(), size_t(encoded.size()));
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    qint64 pid = -1;
    if (::connect(fd, reinterpret_cast<const sockaddr *>(&address), sizeof(address)) == 0) {
        ucred credentials{};
        socklen_t length = sizeof(credentials);
        if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0)
            pid = credentials.pid;
    }
    ::close(fd);
    return pid > 0 ? pid : -1;
}

QString DaemonEndpoint::hostOf(const SandboxConfig &config)
{
    static QHash<QString, QString> hosts;
    const QString key = cacheKey(config);
    {
        const QMutexLocker lock(&cacheMutex());
        const auto found = hosts.constFind(key);
        if (found != hosts.constEnd())
            return *found;
    }
    QString host;
    if (config.isPodman()) {
        host = podmanHost(config);
    } else {
        QStringList arguments{QStringLiteral("context"), QStringLiteral("inspect")};
        if (!config.context.isEmpty())
            arguments << config.context;
        arguments << QStringLiteral("--format") << QStringLiteral("{{.Endpoints.docker.Host}}");
        host = readCliLine(config.engine, arguments);
        // The CLI could not say (an old one without contexts, or none): without a context,
        // DOCKER_HOST or the default socket; a named context that is not there is not local
        // (and the engine will refuse it with its own message).
        const QString dockerHost = qEnvironmentVariable("DOCKER_HOST");
        if (host.isEmpty() && !config.context.isEmpty())
            host = QStringLiteral("unknown-context://") + config.context;
        else if (host.isEmpty())
            host
                = dockerHost.isEmpty() ? QStringLiteral("unix:///var/run/docker.sock") : dockerHost;
    }
    const QMutexLocker lock(&cacheMutex());
    hosts.insert(key, host);
    return host;
}

bool DaemonEndpoint::seesFolder(const QString &host, const QString &folder)
{
    if (host.isEmpty())
        return true; // podman itself: the containers are its children on this machine
    const QUrl url(host);
    if (url.scheme() != QLatin1String("unix"))
        return false;
    const qint64 pid = socketPeerPid(url.path());
    if (pid < 0)
        return true; // nobody answers: the start fails with the engine's own words either way
    // The nearest folder that exists, as this process and as the daemon see it.
    QString existing = QDir::cleanPath(QDir(folder).absolutePath());
    while (!QFileInfo::exists(existing) && existing != QLatin1String("/"))
        existing = QFileInfo(existing).path();
    bool here = false;
    const struct stat mine = statOrZero(QFile::encodeName(existing), &here);
    const QString root = QStringLiteral("/proc/%1/root").arg(pid);
    bool rootReadable = false;
    statOrZero(QFile::encodeName(root + QLatin1Char('/')), &rootReadable);
    if (!rootReadable || !here)
        return true; // cannot look: the ordinary local daemon, as before this check existed
    bool there = false;
    const struct stat theirs = statOrZero(QFile::encodeName(root + existing), &there);
    return there && theirs.st_dev == mine.st_dev && theirs.st_ino == mine.st_ino;
}

bool DaemonEndpoint::sharesFolder(const SandboxConfig &config)
{
    static QHash<QString, bool> answers;
    const QString key = cacheKey(config) + QChar(0x1f) + config.workspace;
    {
        const QMutexLocker lock(&cacheMutex());
        const auto found = answers.constFind(key);
        if (found != answers.constEnd())
            return *found;
    }
    const QString host = hostOf(config);
    const bool shares = seesFolder(host, config.workspace);
    // A socket that nobody answers is asked again next time: the daemon may start later.
    const bool known
        = !host.startsWith(QLatin1String("unix:")) || socketPeerPid(QUrl(host).path()) > 0;
    const QMutexLocker lock(&cacheMutex());
    if (known)
        answers.insert(key, shares);
    return shares;
}

} // namespace Sandcastle
