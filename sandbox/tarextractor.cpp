#include "tarextractor.h"

#include "pathguard.h"

#include <base/fdio.h>

#include <QDir>
#include <QFile>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Sandcastle {

TarExtractor::TarExtractor(QString root,
                           qint64 quotaBytes,
                           std::optional<std::pair<unsigned, unsigned>> owner)
    : m_root(std::move(root))
    , m_quota(quotaBytes)
    , m_owner(owner)
{
    m_reader.onEntry = [this](const Tar::Entry &entry) {
        return onEntry(entry);
    };
    m_reader.onData = [this](const QByteArray &data) {
        return onData(data);
    };
    m_reader.onEntryEnd = [this] {
        return onEntryEnd();
    };
}

TarExtractor::~TarExtractor()
{
    closeCurrent(false);
}

void TarExtractor::onlyThese(const QStringList &paths)
{
    m_asked = QSet<QString>(paths.begin(), paths.end());
    m_askedFolders.clear();
    for (const QString &path : paths) {
        for (qsizetype slash = path.indexOf(QLatin1Char('/')); slash > 0;
             slash = path.indexOf(QLatin1Char('/'), slash + 1))
            m_askedFolders.insert(path.left(slash));
    }
}

bool TarExtractor::onEntry(const Tar::Entry &entry)
{
    m_skipping = false;
    QString path = entry.path;
    while (path.startsWith(QLatin1String("./")))
        path = path.mid(2);
    if (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    if (path.isEmpty() || path == QLatin1String("."))
        return true; // the archive's root: the workspace itself
    const auto refuse = [&](const QString &why) {
        m_refused << path + QStringLiteral(": ") + why;
        m_skipping = true;
        return true;
    };
    if (entry.path.startsWith(QLatin1Char('/')))
        return refuse(QStringLiteral("an absolute path"));
    const Result<QString> checked = PathGuard::checkRelative(path);
    if (!checked)
        return refuse(checked.error());
    if (m_asked
        && !(entry.type == Tar::EntryType::Directory ? m_askedFolders.contains(checked.value())
                                                     : m_asked->contains(checked.value())))
        return refuse(QStringLiteral("not asked for, not copied"));
    switch (entry.type) {
    case Tar::EntryType::Symlink:
        return refuse(QStringLiteral("a symbolic link (to %1), not copied").arg(entry.linkTarget));
    case Tar::EntryType::HardLink:
        return refuse(QStringLiteral("a hard link (to %1), not copied").arg(entry.linkTarget));
    case Tar::EntryType::Other:
        return refuse(QStringLiteral("not a regular file (type '%1'), not copied")
                          .arg(QLatin1Char(entry.typeFlag ? entry.typeFlag : '?')));
    case Tar::EntryType::Directory: {
        const Result<int> fd
            = PathGuard::openInside(m_root, checked.value(), O_RDONLY | O_DIRECTORY, true, m_owner);
        if (!fd)
            return refuse(fd.error());
        ::close(fd.value());
        return true;
    }
    case Tar::EntryType::File:
        break;
    }
    if (m_bytes + entry.size > m_quota) {
        m_error = QStringLiteral("the files coming back pass the workspace quota of %1 MB "
                                 "(%2 would be %3 bytes)")
                      .arg(m_quota >> 20)
                      .arg(checked.value())
                      .arg(entry.size);
        return false;
    }
    const Result<int> fd = PathGuard::openInside(
        m_root, checked.value(), O_WRONLY | O_CREAT | O_TRUNC, true, m_owner);
    if (!fd)
        return refuse(fd.error());
    m_fd = fd.value();
    ::fchmod(m_fd, (entry.mode & 0111) ? 0755 : 0644);
    m_current = checked.value();
    m_mtime = entry.mtime;
    return true;
}

bool TarExtractor::onData(const QByteArray &data)
{
    if (m_skipping || m_fd < 0)
        return true;
    m_bytes += data.size();
    if (m_bytes > m_quota) {
        m_error = QStringLiteral("the files coming back pass the workspace quota of %1 MB")
                      .arg(m_quota >> 20);
        closeCurrent(false);
        return false;
    }
    if (!writeAll(m_fd, data)) {
        m_error = QStringLiteral("could not write %1 (is the disk full?)").arg(m_current);
        closeCurrent(false);
        return false;
    }
    return true;
}

bool TarExtractor::onEntryEnd()
{
    if (m_fd >= 0)
        closeCurrent(true);
    m_skipping = false;
    return true;
}

void TarExtractor::closeCurrent(bool keep)
{
    if (m_fd < 0)
        return;
    if (keep && m_mtime >= 0) { // the volume's time, so that the next comparison finds it equal
        const struct timespec times[2] = {{0, UTIME_OMIT}, {m_mtime, 0}};
        ::futimens(m_fd, times);
    }
    ::close(std::exchange(m_fd, -1));
    const QString current = std::exchange(m_current, QString());
    if (keep)
        m_written << current;
    else
        QFile::remove(QDir(m_root).filePath(current)); // a partial file is not left behind
}

Result<bool> TarExtractor::feed(const QByteArray &bytes)
{
    if (!m_error.isEmpty())
        return Result<bool>::failure(m_error);
    Result<bool> fed = m_reader.feed(bytes);
    if (!m_error.isEmpty()) {
        closeCurrent(false);
        return Result<bool>::failure(m_error);
    }
    return fed;
}

Result<bool> TarExtractor::finish()
{
    if (!m_error.isEmpty())
        return Result<bool>::failure(m_error);
    Result<bool> done = m_reader.finish();
    closeCurrent(done.isOk());
    return done;
}

} // namespace Sandcastle
