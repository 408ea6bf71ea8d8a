#include "workspacesnapshot.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>

#include <algorithm>

#include <sys/stat.h>

namespace Sandcastle {

WorkspaceSnapshot WorkspaceSnapshot::take(const QString &root, int maxFiles)
{
    WorkspaceSnapshot snapshot;
    if (root.isEmpty())
        return snapshot;
    const QDir rootDir(root);
    QDirIterator it(root,
                    QDir::Files | QDir::Dirs | QDir::Hidden | QDir::NoDotAndDotDot | QDir::System,
                    QDirIterator::Subdirectories);
    while (it.hasNext() && snapshot.m_entries.size() < maxFiles) {
        const QString path = it.next();
        const QString relative = rootDir.relativeFilePath(path);
        if (relative == QLatin1String(".sandcastle")
            || relative.startsWith(QLatin1String(".sandcastle/")))
            continue;
        struct stat st
        {
        };
        // lstat: a symlink planted by the code is recorded as itself, never followed.
        if (::lstat(QFile::encodeName(path).constData(), &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        snapshot.m_entries.insert(
            relative,
            {qint64(st.st_size), qint64(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec});
    }
    return snapshot;
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
