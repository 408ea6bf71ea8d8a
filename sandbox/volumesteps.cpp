#include "volumesteps.h"

#include "pathguard.h"
#include "tarextractor.h"
#include "tarstream.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>

#include <optional>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Sandcastle::VolumeSteps {

namespace {

// Starts `argv` in the container through the engine.
void startIn(QProcess &process,
             const SandboxEngine &engine,
             const QString &container,
             const QStringList &argv,
             bool withStdin)
{
    const EngineCommand command = engine.execIn(container, argv, withStdin);
    process.start(command.program, command.arguments);
}

QString engineError(const QString &what, QProcess &process)
{
    const QString said = QString::fromUtf8(process.readAllStandardError()).trimmed().right(400);
    return QStringLiteral("%1 failed (exit %2)%3")
        .arg(what)
        .arg(process.exitCode())
        .arg(said.isEmpty() ? QString() : QStringLiteral(": ") + said);
}

QByteArray nulList(const QStringList &paths)
{
    QByteArray out;
    for (const QString &path : paths)
        out += path.toUtf8() + '\0';
    return out;
}

bool writeAllTo(QProcess &process, const QByteArray &bytes, const QElapsedTimer &clock)
{
    process.write(bytes);
    while (process.bytesToWrite() > (4 << 20)) {
        if (!process.waitForBytesWritten(1000) && process.state() != QProcess::Running)
            return false;
        if (clock.elapsed() > StepTimeoutMs)
            return false;
    }
    return true;
}

// One workspace file as tar header and data, read through PathGuard; false when it is gone or
// is not a regular file any more (it is then left out).
bool appendFile(QProcess &process,
                const QString &root,
                const QString &path,
                const QElapsedTimer &clock,
                bool *broken)
{
    const Result<int> fd = PathGuard::openInside(root, path, O_RDONLY);
    if (!fd)
        return false;
    struct stat st
    {
    };
    if (::fstat(fd.value(), &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd.value());
        return false;
    }
    const qint64 size = st.st_size;
    if (!writeAllTo(
            process,
            Tar::header(path, Tar::EntryType::File, size, int(st.st_mode), st.st_mtim.tv_sec),
            clock)) {
        ::close(fd.value());
        *broken = true;
        return false;
    }
    qint64 sent = 0;
    QByteArray chunk(1 << 20, Qt::Uninitialized);
    while (sent < size) {
        const ssize_t n
            = ::read(fd.value(), chunk.data(), size_t(qMin<qint64>(chunk.size(), size - sent)));
        if (n <= 0)
            break;
        sent += n;
        if (!writeAllTo(process, chunk.left(n), clock)) {
            *broken = true;
            break;
        }
    }
    ::close(fd.value());
    // A file that shrank meanwhile is padded to the size its header gave.
    if (!*broken && sent < size)
        *broken = !writeAllTo(process, QByteArray(size - sent, '\0'), clock);
    return !*broken && writeAllTo(process, Tar::padding(size), clock);
}

} // namespace

Owner hostOwner(const SandboxConfig &config)
{
    if (::getuid() != 0)
        return std::nullopt;
    const QStringList ids = (config.user.isEmpty() ? SandboxConfig::containerUser() : config.user)
                                .split(QLatin1Char(':'));
    bool uidOk = false;
    bool gidOk = false;
    const unsigned uid = ids.value(0).toUInt(&uidOk);
    const unsigned gid = ids.value(1).toUInt(&gidOk);
    if (!uidOk || !gidOk || uid == 0)
        return std::pair<unsigned, unsigned>{1000u, 1000u};
    return std::pair<unsigned, unsigned>{uid, gid};
}

QStringList travelling(const QStringList &paths)
{
    QStringList kept;
    kept.reserve(paths.size());
    for (const QString &path : paths) {
        if (nameTravels(path))
            kept << path;
        else
            qInfo("sandbox: %s stays where it is: its name is not UTF-8", qPrintable(path));
    }
    return kept;
}

Manifest parseManifest(const QByteArray &output)
{
    Manifest manifest;
    for (const QByteArray &record : output.split('\0')) {
        if (record.size() < 7)
            continue;
        const qsizetype a = record.indexOf(' ');
        const qsizetype b = a < 0 ? -1 : record.indexOf(' ', a + 1);
        const qsizetype c = b < 0 ? -1 : record.indexOf(' ', b + 1);
        if (a != 1 || b < 0 || c < 0 || c + 1 >= record.size())
            continue;
        bool sizeOk = false;
        bool timeOk = false;
        RemoteEntry entry;
        entry.type = record.at(0);
        entry.size = record.mid(a + 1, b - a - 1).toLongLong(&sizeOk);
        entry.mtime = qint64(record.mid(b + 1, c - b - 1).toDouble(&timeOk));
        if (sizeOk && timeOk)
            manifest.insert(QString::fromUtf8(record.mid(c + 1)), entry);
    }
    return manifest;
}

Result<Manifest> readManifest(const SandboxEngine &engine, const QString &container)
{
    QProcess process;
    startIn(process,
            engine,
            container,
            {QStringLiteral("find"),
             QStringLiteral("/workspace"),
             QStringLiteral("-mindepth"),
             QStringLiteral("1"),
             QStringLiteral("-path"),
             QStringLiteral("/workspace/.sandcastle"),
             QStringLiteral("-prune"),
             QStringLiteral("-o"),
             QStringLiteral("-printf"),
             QStringLiteral("%y %s %T@ %P\\0")},
            false);
    process.closeWriteChannel();
    if (!process.waitForFinished(StepTimeoutMs)) {
        process.kill();
        process.waitForFinished(2000);
        return Result<Manifest>::failure(QStringLiteral("listing the volume took too long"));
    }
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
        return Result<Manifest>::failure(
            engineError(QStringLiteral("listing the volume"), process));
    return Result<Manifest>::ok(parseManifest(process.readAllStandardOutput()));
}

Result<bool> pushFiles(const SandboxEngine &engine,
                       const QString &container,
                       const QString &root,
                       const QStringList &paths)
{
    if (paths.isEmpty())
        return Result<bool>::ok(true);
    QElapsedTimer clock;
    clock.start();
    QProcess process;
    startIn(process,
            engine,
            container,
            {QStringLiteral("tar"),
             QStringLiteral("-x"),
             QStringLiteral("-f"),
             QStringLiteral("-"),
             QStringLiteral("-C"),
             QStringLiteral("/workspace"),
             QStringLiteral("--no-same-owner")},
            true);
    if (!process.waitForStarted(30000))
        return Result<bool>::failure(QStringLiteral("could not start %1").arg(process.program()));
    bool broken = false;
    for (const QString &path : paths) {
        appendFile(process, root, path, clock, &broken);
        if (broken)
            break;
    }
    if (!broken)
        writeAllTo(process, Tar::end(), clock);
    process.closeWriteChannel();
    const qint64 left = qMax<qint64>(1000, StepTimeoutMs - clock.elapsed());
    if (!process.waitForFinished(int(left))) {
        process.kill();
        process.waitForFinished(2000);
        return Result<bool>::failure(QStringLiteral("sending the workspace took too long"));
    }
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
        return Result<bool>::failure(engineError(QStringLiteral("sending the workspace"), process));
    return Result<bool>::ok(true);
}

Result<bool>
removeRemote(const SandboxEngine &engine, const QString &container, const QStringList &paths)
{
    if (paths.isEmpty())
        return Result<bool>::ok(true);
    QProcess process;
    startIn(process,
            engine,
            container,
            {QStringLiteral("xargs"),
             QStringLiteral("-0"),
             QStringLiteral("rm"),
             QStringLiteral("-f"),
             QStringLiteral("--")},
            true);
    process.write(nulList(paths));
    process.closeWriteChannel();
    if (!process.waitForFinished(StepTimeoutMs)) {
        process.kill();
        process.waitForFinished(2000);
        return Result<bool>::failure(QStringLiteral("removing files in the volume took too long"));
    }
    if (process.exitCode() != 0)
        return Result<bool>::failure(
            engineError(QStringLiteral("removing files in the volume"), process));
    return Result<bool>::ok(true);
}

Pulled pullFiles(const SandboxEngine &engine,
                 const QString &container,
                 const QString &root,
                 const QStringList &paths,
                 qint64 quotaBytes,
                 const Owner &owner)
{
    Pulled pulled;
    if (paths.isEmpty())
        return pulled;
    QElapsedTimer clock;
    clock.start();
    QProcess process;
    startIn(process,
            engine,
            container,
            {QStringLiteral("tar"),
             QStringLiteral("-c"),
             QStringLiteral("-f"),
             QStringLiteral("-"),
             QStringLiteral("--null"),
             QStringLiteral("--no-recursion"),
             QStringLiteral("-C"),
             QStringLiteral("/workspace"),
             QStringLiteral("-T"),
             QStringLiteral("-")},
            true);
    process.write(nulList(paths));
    process.closeWriteChannel();
    TarExtractor extractor(root, quotaBytes, owner);
    extractor.onlyThese(paths); // what the remote was asked for, nothing else
    bool stopped = false;
    while (!stopped) {
        const bool more = process.waitForReadyRead(1000);
        const QByteArray bytes = process.readAllStandardOutput();
        if (!bytes.isEmpty()) {
            const Result<bool> fed = extractor.feed(bytes);
            if (!fed) {
                pulled.error = fed.error();
                stopped = true;
            }
        }
        if (!more && process.state() != QProcess::Running)
            break;
        if (clock.elapsed() > StepTimeoutMs) {
            pulled.error = QStringLiteral("bringing the files back took too long");
            stopped = true;
        }
    }
    if (stopped) {
        process.kill();
        process.waitForFinished(2000);
    } else {
        process.waitForFinished(StepTimeoutMs);
        const Result<bool> rest = extractor.feed(process.readAllStandardOutput());
        const Result<bool> done = rest ? extractor.finish() : rest;
        // tar exits 1 when a file changed or went while it was read: what came is kept.
        if (!done)
            pulled.error = done.error() + QStringLiteral(" (")
                           + engineError(QStringLiteral("tar"), process) + QLatin1Char(')');
        else if (process.exitCode() > 1)
            pulled.error = engineError(QStringLiteral("reading the volume"), process);
    }
    pulled.files = extractor.written();
    pulled.refused = extractor.refused();
    return pulled;
}

QStringList removeLocal(const QString &root, const QStringList &paths)
{
    QStringList removed;
    for (const QString &path : paths) {
        const Result<QString> checked = PathGuard::checkRelative(path);
        if (!checked)
            continue;
        const qsizetype slash = checked.value().lastIndexOf(QLatin1Char('/'));
        const QString parent = slash < 0 ? QString() : checked.value().left(slash);
        const QByteArray name = QFile::encodeName(checked.value().mid(slash + 1));
        const Result<int> dir
            = parent.isEmpty()
                  ? Result<int>::ok(::open(QFile::encodeName(root).constData(),
                                           O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC))
                  : PathGuard::openInside(root, parent, O_RDONLY | O_DIRECTORY);
        if (!dir || dir.value() < 0)
            continue;
        struct stat st
        {
        };
        if (::fstatat(dir.value(), name.constData(), &st, AT_SYMLINK_NOFOLLOW) == 0
            && S_ISREG(st.st_mode) && ::unlinkat(dir.value(), name.constData(), 0) == 0)
            removed << checked.value();
        ::close(dir.value());
    }
    return removed;
}

} // namespace Sandcastle::VolumeSteps
