#include "pathguard.h"

#include <QFile>
#include <QStringList>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Sandcastle::PathGuard {

namespace {
QString why(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}
} // namespace

Result<QString> checkRelative(const QString &relative)
{
    if (relative.isEmpty())
        return Result<QString>::failure(QStringLiteral("an empty path"));
    if (relative.contains(QChar(0)))
        return Result<QString>::failure(QStringLiteral("a path with a NUL character"));
    if (relative.startsWith(QLatin1Char('/')) || relative.startsWith(QLatin1Char('\\')))
        return Result<QString>::failure(
            QStringLiteral("'%1' is absolute; paths are relative to the workspace").arg(relative));
    QStringList parts;
    const QStringList raw = relative.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    for (const QString &part : raw) {
        if (part == QLatin1String(".."))
            return Result<QString>::failure(
                QStringLiteral("'%1' leaves the workspace ('..')").arg(relative));
        if (part != QLatin1String("."))
            parts << part;
    }
    if (parts.isEmpty())
        return Result<QString>::failure(
            QStringLiteral("'%1' names the workspace itself, not a file").arg(relative));
    // A backslash first is absolute after "./" too: a checked path must pass its check again.
    if (parts.first().startsWith(QLatin1Char('\\')))
        return Result<QString>::failure(
            QStringLiteral("'%1' is absolute; paths are relative to the workspace").arg(relative));
    return Result<QString>::ok(parts.join(QLatin1Char('/')));
}

Result<int> openInside(const QString &root,
                       const QString &relative,
                       int flags,
                       bool createDirs,
                       std::optional<std::pair<unsigned, unsigned>> owner)
{
    const Result<QString> checked = checkRelative(relative);
    if (!checked)
        return Result<int>::failure(checked.error());
    const QStringList parts = checked.value().split(QLatin1Char('/'));
    int dir = ::open(QFile::encodeName(root).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0)
        return Result<int>::failure(
            QStringLiteral("cannot open the workspace %1: %2").arg(root, why(errno)));
    for (qsizetype i = 0; i + 1 < parts.size(); ++i) {
        const QByteArray name = QFile::encodeName(parts.at(i));
        int next = ::openat(dir, name.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (next < 0 && errno == ENOENT && createDirs) {
            if (::mkdirat(dir, name.constData(), 0755) != 0 && errno != EEXIST) {
                const int error = errno;
                ::close(dir);
                return Result<int>::failure(
                    QStringLiteral("cannot create %1: %2").arg(parts.at(i), why(error)));
            }
            next = ::openat(dir, name.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            // Best effort: without it the folder exists, the sandbox just cannot write into it.
            if (next >= 0 && owner && ::fchown(next, owner->first, owner->second) != 0)
                qWarning("sandbox: cannot hand a new folder to the sandbox user");
        }
        const int error = errno;
        ::close(dir);
        if (next < 0) {
            return Result<int>::failure(
                error == ELOOP || error == ENOTDIR
                    ? QStringLiteral(
                          "refused: '%1' is a symlink or not a folder, and links are not followed")
                          .arg(parts.at(i))
                    : QStringLiteral("cannot open %1: %2").arg(parts.at(i), why(error)));
        }
        dir = next;
    }
    // Truncation waits until the file is known not to be a hard link.
    const QByteArray last = QFile::encodeName(parts.last());
    int fd = ::openat(dir, last.constData(), (flags & ~O_TRUNC) | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0 && errno == ENOENT && createDirs && (flags & O_DIRECTORY)
        && (::mkdirat(dir, last.constData(), 0755) == 0 || errno == EEXIST)) {
        // A folder asked for is made like the ones on the way.
        fd = ::openat(dir, last.constData(), flags | O_NOFOLLOW | O_CLOEXEC);
        if (fd >= 0 && owner && ::fchown(fd, owner->first, owner->second) != 0)
            qWarning("sandbox: cannot hand a new folder to the sandbox user");
    }
    const int error = errno;
    ::close(dir);
    if (fd < 0) {
        return Result<int>::failure(
            error == ELOOP
                ? QStringLiteral("refused: '%1' is a symlink, and links are not followed")
                      .arg(relative)
                : QStringLiteral("cannot open %1: %2").arg(relative, why(error)));
    }
    // A second name for a file may be a host file's (a hard link made where the host's files
    // and the workspace share a file system): reading or writing it would reach that file.
    struct stat st
    {
    };
    if (::fstat(fd, &st) != 0 || (S_ISREG(st.st_mode) && st.st_nlink > 1)) {
        ::close(fd);
        return Result<int>::failure(
            QStringLiteral("refused: '%1' is a hard link to another file, and links are not "
                           "followed")
                .arg(relative));
    }
    if ((flags & O_TRUNC) && (flags & O_ACCMODE) != O_RDONLY && ::ftruncate(fd, 0) != 0) {
        const int truncateError = errno;
        ::close(fd);
        return Result<int>::failure(
            QStringLiteral("cannot empty %1: %2").arg(relative, why(truncateError)));
    }
    if (owner && (flags & O_CREAT) && ::fchown(fd, owner->first, owner->second) != 0)
        qWarning("sandbox: cannot hand a new file to the sandbox user");
    return Result<int>::ok(fd);
}

Result<QByteArray>
readFile(const QString &root, const QString &relative, qint64 maxBytes, bool *truncated)
{
    const Result<int> opened = openInside(root, relative, O_RDONLY | O_NONBLOCK);
    if (!opened)
        return Result<QByteArray>::failure(opened.error());
    const int fd = opened.value();
    struct stat st
    {
    };
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return Result<QByteArray>::failure(
            QStringLiteral("'%1' is not a regular file").arg(relative));
    }
    QByteArray data;
    data.resize(qsizetype(qMin<qint64>(st.st_size, maxBytes)));
    qsizetype got = 0;
    while (got < data.size()) {
        const ssize_t n = ::read(fd, data.data() + got, size_t(data.size() - got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += n;
    }
    ::close(fd);
    data.truncate(got);
    if (truncated)
        *truncated = st.st_size > maxBytes;
    return Result<QByteArray>::ok(data);
}

} // namespace Sandcastle::PathGuard
