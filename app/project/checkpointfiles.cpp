#include "checkpointfiles.h"

#include <base/fdio.h>
#include <sandbox/pathguard.h>

#include <QFile>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Sandcastle::CheckpointFiles {

namespace {

QString lastError()
{
    return QString::fromLocal8Bit(::strerror(errno ? errno : EIO));
}

// A folder of the workspace, opened; `create`: made when missing, with the workspace root's
// owner when this process is root.
Result<int> openFolder(const QString &workspace, const QString &folder, bool create)
{
    std::optional<std::pair<unsigned, unsigned>> owner;
    struct stat root
    {
    };
    if (::geteuid() == 0 && ::stat(QFile::encodeName(workspace).constData(), &root) == 0)
        owner = std::make_pair(unsigned(root.st_uid), unsigned(root.st_gid));
    if (folder.isEmpty()) {
        const int fd
            = ::open(QFile::encodeName(workspace).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        return fd >= 0 ? Result<int>::ok(fd) : Result<int>::failure(lastError());
    }
    return PathGuard::openInside(workspace, folder, O_RDONLY | O_DIRECTORY, create, owner);
}

// Writes one entry into the open folder: beside the old one, then renamed over it.
Result<bool> writeEntry(int dirFd, const QByteArray &name, const Entry &entry)
{
    struct stat old
    {
    };
    const bool exists = ::fstatat(dirFd, name.constData(), &old, AT_SYMLINK_NOFOLLOW) == 0;
    if (exists && S_ISDIR(old.st_mode))
        return Result<bool>::failure(QStringLiteral("a folder is in its place"));
    struct stat folder
    {
    };
    ::fstat(dirFd, &folder);
    const uid_t uid = exists ? old.st_uid : folder.st_uid;
    const gid_t gid = exists ? old.st_gid : folder.st_gid;
    const QByteArray temp = "." + name + ".sandcastle-restore";
    ::unlinkat(dirFd, temp.constData(), 0);
    if (entry.mode == 0120000) {
        if (::symlinkat(entry.content.constData(), dirFd, temp.constData()) != 0)
            return Result<bool>::failure(lastError());
        if (::geteuid() == 0)
            ::fchownat(dirFd, temp.constData(), uid, gid, AT_SYMLINK_NOFOLLOW);
    } else {
        const bool executable = entry.mode == 0100755;
        mode_t mode = exists && S_ISREG(old.st_mode) ? (old.st_mode & 0666) : 0644;
        if (executable)
            mode |= (mode & 0444) >> 2; // x wherever r is
        const int fd = ::openat(
            dirFd, temp.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0)
            return Result<bool>::failure(lastError());
        bool done = writeAll(fd, entry.content) && ::fchmod(fd, mode) == 0;
        if (done && ::geteuid() == 0)
            done = ::fchown(fd, uid, gid) == 0;
        done = done && ::fsync(fd) == 0;
        const QString why = lastError();
        ::close(fd);
        if (!done) {
            ::unlinkat(dirFd, temp.constData(), 0);
            return Result<bool>::failure(why);
        }
    }
    if (::renameat(dirFd, temp.constData(), dirFd, name.constData()) != 0) {
        const QString why = lastError();
        ::unlinkat(dirFd, temp.constData(), 0);
        return Result<bool>::failure(why);
    }
    return Result<bool>::ok(true);
}

QString folderOf(const QString &path)
{
    const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
    return slash < 0 ? QString() : path.left(slash);
}

// Removes `folder` and its parents while they are empty and not to be kept.
void removeEmptyFolders(const QString &workspace, QString folder, const QSet<QString> &kept)
{
    while (!folder.isEmpty() && !kept.contains(folder)) {
        const Result<int> parent = openFolder(workspace, folderOf(folder), false);
        if (!parent)
            return;
        const QByteArray name
            = QFile::encodeName(folder.mid(folder.lastIndexOf(QLatin1Char('/')) + 1));
        const bool removed = ::unlinkat(parent.value(), name.constData(), AT_REMOVEDIR) == 0;
        ::close(parent.value());
        if (!removed)
            return;
        folder = folderOf(folder);
    }
}

} // namespace

Result<QStringList> apply(const QString &workspace,
                          const QList<Entry> &present,
                          const QStringList &absent,
                          const QSet<QString> &keptFolders)
{
    QStringList changed;
    QStringList failures;
    const auto fail = [&failures](const QString &path, const QString &why) {
        failures << QStringLiteral("%1: %2").arg(path, why);
    };
    for (const QString &path : absent) {
        const Result<QString> checked = PathGuard::checkRelative(path);
        if (!checked) {
            fail(path, checked.error());
            continue;
        }
        const Result<int> dir = openFolder(workspace, folderOf(path), false);
        if (!dir) {
            if (!QFile::exists(workspace + QLatin1Char('/') + folderOf(path)))
                continue; // its folder is gone already, and the file with it
            fail(path, dir.error());
            continue;
        }
        const QByteArray name = QFile::encodeName(path.mid(path.lastIndexOf(QLatin1Char('/')) + 1));
        struct stat st
        {
        };
        if (::fstatat(dir.value(), name.constData(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
            if (S_ISDIR(st.st_mode))
                fail(path, QStringLiteral("a folder is in its place"));
            else if (::unlinkat(dir.value(), name.constData(), 0) != 0)
                fail(path, lastError());
            else
                changed << path;
        }
        ::close(dir.value());
        removeEmptyFolders(workspace, folderOf(path), keptFolders);
    }
    for (const Entry &entry : present) {
        const Result<QString> checked = PathGuard::checkRelative(entry.path);
        if (!checked) {
            fail(entry.path, checked.error());
            continue;
        }
        const Result<int> dir = openFolder(workspace, folderOf(entry.path), true);
        if (!dir) {
            fail(entry.path, dir.error());
            continue;
        }
        const Result<bool> written = writeEntry(
            dir.value(),
            QFile::encodeName(entry.path.mid(entry.path.lastIndexOf(QLatin1Char('/')) + 1)),
            entry);
        ::close(dir.value());
        if (written)
            changed << entry.path;
        else
            fail(entry.path, written.error());
    }
    if (!failures.isEmpty())
        return Result<QStringList>::failure(QStringLiteral("could not restore %1 of %2 files: %3")
                                                .arg(failures.size())
                                                .arg(present.size() + absent.size())
                                                .arg(failures.join(QStringLiteral("; "))));
    changed.sort();
    return Result<QStringList>::ok(changed);
}

} // namespace Sandcastle::CheckpointFiles
