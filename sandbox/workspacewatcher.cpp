#include "workspacewatcher.h"

#include "workspacewalk.h"

#include <QFile>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Sandcastle {

namespace {

// As deep as WorkspaceSnapshot looks.
constexpr int kMaxDepth = 64;
constexpr uint32_t kMask = IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB | IN_MOVED_TO
                           | IN_MOVED_FROM | IN_DELETE | IN_ONLYDIR | IN_EXCL_UNLINK;
// The events that make a file one of the run's files.
constexpr uint32_t kChanging = IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB | IN_MOVED_TO;

// Opens a folder under the root one name at a time, never through a symlink (the code may
// have replaced a folder by a link since the event). -1 when it is not a folder any more.
int openFolder(int rootFd, const QByteArray &relative, int flags)
{
    int fd = ::openat(rootFd, ".", flags | O_DIRECTORY | O_CLOEXEC);
    if (relative.isEmpty())
        return fd;
    const QList<QByteArray> parts = relative.split('/');
    for (const QByteArray &part : parts) {
        if (fd < 0)
            return -1;
        const int next
            = ::openat(fd, part.constData(), flags | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        ::close(fd);
        fd = next;
    }
    return fd;
}

bool lstatInside(int rootFd, const QByteArray &relative, struct stat *st)
{
    const qsizetype slash = relative.lastIndexOf('/');
    const int dir = openFolder(rootFd, slash < 0 ? QByteArray() : relative.left(slash), O_PATH);
    if (dir < 0)
        return false;
    const bool ok = ::fstatat(dir, relative.constData() + slash + 1, st, AT_SYMLINK_NOFOLLOW) == 0;
    ::close(dir);
    return ok;
}

bool notBefore(const timespec &a, const timespec &b)
{
    return a.tv_sec > b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec >= b.tv_nsec);
}

} // namespace

WorkspaceWatcher::WorkspaceWatcher(QString root)
    : m_root(std::move(root))
{}

WorkspaceWatcher::~WorkspaceWatcher()
{
    close();
    if (m_rootFd >= 0)
        ::close(m_rootFd);
}

bool WorkspaceWatcher::start()
{
    std::lock_guard lock(m_mutex);
    if (m_fd >= 0 || !m_failure.isEmpty())
        return m_failure.isEmpty();
    m_rootFd = ::open(QFile::encodeName(m_root).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (m_rootFd < 0) {
        fail(QStringLiteral("cannot open the folder: ") + QString::fromLocal8Bit(strerror(errno)));
        return false;
    }
    if (!open())
        return false;
    watchTree(QByteArray(), 0, false, false);
    return m_failure.isEmpty();
}

bool WorkspaceWatcher::open()
{
    m_fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (m_fd < 0) {
        fail(QStringLiteral("inotify is not available: ")
             + QString::fromLocal8Bit(strerror(errno)));
        return false;
    }
    return true;
}

void WorkspaceWatcher::close()
{
    if (m_fd >= 0)
        ::close(m_fd); // removes every watch
    m_fd = -1;
    m_dirs.clear();
}

bool WorkspaceWatcher::isWatching() const
{
    std::lock_guard lock(m_mutex);
    return m_fd >= 0 && m_failure.isEmpty();
}

QString WorkspaceWatcher::failure() const
{
    std::lock_guard lock(m_mutex);
    return m_failure;
}

void WorkspaceWatcher::fail(const QString &why)
{
    if (m_failure.isEmpty()) {
        m_failure = why;
        qWarning("sandbox: not watching %s (%s): its files are found by walking it at every run",
                 qPrintable(m_root),
                 qPrintable(why));
    }
    close();
}

void WorkspaceWatcher::simulateOverflowForTest()
{
    std::lock_guard lock(m_mutex);
    m_forceOverflow = true;
}

bool WorkspaceWatcher::begin()
{
    std::lock_guard lock(m_mutex);
    if (m_fd < 0 || !m_failure.isEmpty())
        return false;
    m_inRun = false;
    drain();
    m_changed.clear();
    // The coarse clock: a file's ctime is stamped from it, so a change after this is not
    // before it.
    ::clock_gettime(CLOCK_REALTIME_COARSE, &m_runStart);
    m_inRun = m_failure.isEmpty();
    return m_inRun;
}

QStringList WorkspaceWatcher::finish()
{
    std::lock_guard lock(m_mutex);
    if (!m_inRun)
        return {};
    drain();
    if (!m_failure.isEmpty()) {
        // The watches broke during the run: what changed since its start is in the ctimes.
        m_sizes.clear();
        m_totalBytes = 0;
        watchTree(QByteArray(), 0, true, true);
    }
    m_inRun = false;
    QStringList files;
    for (const QByteArray &path : std::as_const(m_changed)) {
        if (m_sizes.contains(path))
            files << QString::fromUtf8(path);
    }
    m_changed.clear();
    std::sort(files.begin(), files.end());
    return files;
}

qint64 WorkspaceWatcher::totalBytes()
{
    std::lock_guard lock(m_mutex);
    if (m_fd < 0 || !m_failure.isEmpty())
        return -1;
    drain();
    return m_failure.isEmpty() ? m_totalBytes : -1;
}

void WorkspaceWatcher::drain()
{
    if (m_fd < 0)
        return;
    bool overflow = std::exchange(m_forceOverflow, false);
    QSet<QByteArray> dirty;
    alignas(inotify_event) char buffer[64 * 1024];
    for (;;) {
        const ssize_t n = ::read(m_fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; // EAGAIN: nothing more queued
        for (const char *p = buffer; p < buffer + n;) {
            const auto *event = reinterpret_cast<const inotify_event *>(p);
            p += sizeof(inotify_event) + event->len;
            if (event->mask & IN_Q_OVERFLOW) {
                overflow = true;
                continue;
            }
            if (event->mask & IN_IGNORED) {
                m_dirs.erase(event->wd);
                continue;
            }
            const auto dir = m_dirs.find(event->wd);
            if (dir == m_dirs.end() || event->len == 0)
                continue;
            const QByteArray name(event->name); // NUL-padded
            if (dir->second.isEmpty() && name == ".sandcastle")
                continue;
            const QByteArray path = dir->second.isEmpty() ? name : dir->second + '/' + name;
            if (event->mask & IN_ISDIR) {
                // A new folder may hold files made before its watch was added: walk it now.
                const int depth = int(path.count('/')) + 1;
                if ((event->mask & (IN_CREATE | IN_MOVED_TO)) && depth <= kMaxDepth)
                    watchTree(path, depth, m_inRun, false);
                else if (event->mask & IN_MOVED_FROM)
                    forgetTree(path);
                continue;
            }
            dirty.insert(path);
            if (m_inRun && (event->mask & kChanging))
                m_changed.insert(path);
        }
    }
    if (overflow) {
        rescan();
        return;
    }
    for (const QByteArray &path : std::as_const(dirty))
        restat(path);
}

void WorkspaceWatcher::rescan()
{
    if (!std::exchange(m_overflowLogged, true)) {
        qWarning("sandbox: the inotify queue of %s overflowed: walking the folder again "
                 "(raise fs.inotify.max_queued_events to avoid it)",
                 qPrintable(m_root));
    }
    close();
    m_sizes.clear();
    m_totalBytes = 0;
    if (!open())
        return;
    watchTree(QByteArray(), 0, m_inRun, true);
}

// Watches a folder and everything under it, recording the regular files' sizes. `record`:
// the files are the run's (all of them, or with byCtime those changed since the run began).
void WorkspaceWatcher::watchTree(const QByteArray &relative, int depth, bool record, bool byCtime)
{
    const int dirFd = openFolder(m_rootFd, relative, O_RDONLY);
    if (dirFd < 0)
        return;
    if (m_fd >= 0 && m_failure.isEmpty()) {
        // By the descriptor: the folder opened without following a symlink is the one watched.
        const QByteArray self = "/proc/self/fd/" + QByteArray::number(dirFd);
        const int wd = ::inotify_add_watch(m_fd, self.constData(), kMask);
        if (wd >= 0) {
            m_dirs[wd] = relative;
        } else {
            const int error = errno;
            fail(error == ENOSPC ? QStringLiteral("the inotify watch limit is reached (sysctl "
                                                  "fs.inotify.max_user_watches)")
                                 : QStringLiteral("inotify_add_watch: ")
                                       + QString::fromLocal8Bit(strerror(error)));
        }
    }
    forEachWorkspaceEntry(dirFd, depth == 0, [&](int, const char *name, const struct stat &st) {
        const QByteArray path = relative.isEmpty() ? QByteArray(name) : relative + '/' + name;
        if (S_ISDIR(st.st_mode)) {
            if (depth < kMaxDepth)
                watchTree(path, depth + 1, record, byCtime);
        } else if (S_ISREG(st.st_mode)) {
            setSize(path, qint64(st.st_size));
            if (record && (!byCtime || notBefore(st.st_ctim, m_runStart)))
                m_changed.insert(path);
        }
    });
}

// A folder moved away: its watches would name the old place.
void WorkspaceWatcher::forgetTree(const QByteArray &relative)
{
    const QByteArray prefix = relative + '/';
    for (auto it = m_dirs.begin(); it != m_dirs.end();) {
        if (it->second == relative || it->second.startsWith(prefix)) {
            ::inotify_rm_watch(m_fd, it->first);
            it = m_dirs.erase(it);
        } else {
            ++it;
        }
    }
    for (auto it = m_sizes.begin(); it != m_sizes.end();) {
        if (it.key().startsWith(prefix)) {
            m_totalBytes -= it.value();
            it = m_sizes.erase(it);
        } else {
            ++it;
        }
    }
}

void WorkspaceWatcher::restat(const QByteArray &relative)
{
    struct stat st
    {
    };
    if (lstatInside(m_rootFd, relative, &st) && S_ISREG(st.st_mode)) {
        setSize(relative, qint64(st.st_size));
        return;
    }
    const auto it = m_sizes.constFind(relative);
    if (it != m_sizes.cend()) {
        m_totalBytes -= it.value();
        m_sizes.erase(it);
    }
}

void WorkspaceWatcher::setSize(const QByteArray &relative, qint64 size)
{
    qint64 &slot = m_sizes[relative];
    m_totalBytes += size - slot;
    slot = size;
}

} // namespace Sandcastle
