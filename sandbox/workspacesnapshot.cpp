#include "workspacesnapshot.h"

#include "workspacewalk.h"

#include <QFile>

#include <algorithm>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Sandcastle {

WorkspaceSnapshot WorkspaceSnapshot::take(const QString &root)
{
    WorkspaceSnapshot snapshot;
    if (root.isEmpty())
        return snapshot;
    const int fd = ::open(QFile::encodeName(root).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0)
        snapshot.walk(fd, QString(), 0);
    return snapshot;
}

// Byte-wise, by file descriptor: a name that is not UTF-8 is still found (and reported with
// U+FFFD in it), and a symlink planted by the code is recorded as itself, never followed.
void WorkspaceSnapshot::walk(int dirFd, const QString &prefix, int depth)
{
    forEachWorkspaceEntry(
        dirFd, depth == 0, [&](int folder, const char *name, const struct stat &st) {
            const QString relative = prefix + QString::fromUtf8(name);
            if (S_ISDIR(st.st_mode)) {
                if (depth >= kMaxDepth)
                    return;
                const int sub
                    = ::openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (sub >= 0)
                    walk(sub, relative + QLatin1Char('/'), depth + 1);
            } else if (S_ISREG(st.st_mode)) {
                m_entries.insert(relative,
                                 {qint64(st.st_size),
                                  qint64(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec});
            }
        });
}

qint64 WorkspaceSnapshot::totalBytes() const
{
    qint64 total = 0;
    for (const Entry &entry : m_entries)
        total += entry.size;
    return total;
}

QStringList WorkspaceSnapshot::changedFiles(const WorkspaceSnapshot &before,
                                            const WorkspaceSnapshot &after)
{
    QStringList changed;
    for (auto it = after.m_entries.cbegin(); it != after.m_entries.cend(); ++it) {
        const auto old = before.m_entries.constFind(it.key());
        if (old == before.m_entries.cend() || !(old.value() == it.value()))
            changed << it.key();
    }
    std::sort(changed.begin(), changed.end());
    return changed;
}

} // namespace Sandcastle
