#pragma once

#include <QDateTime>
#include <QHash>
#include <QString>
#include <QStringList>

namespace Sandcastle {

// Size and modification time of every regular file under a workspace folder, so that two
// snapshots (before and after a run) tell which files the run created or changed. Symlinks
// are not followed; the private ".sandcastle" folder is skipped. Every file is recorded, however
// many there are: a limit would silently miss the changes past it.
class WorkspaceSnapshot
{
public:
    static WorkspaceSnapshot take(const QString &root);

    // Relative paths (with '/') that are new in `after` or differ from `before`, sorted.
    static QStringList changedFiles(const WorkspaceSnapshot &before,
                                    const WorkspaceSnapshot &after);

    int size() const { return int(m_entries.size()); }

    struct Entry
    {
        qint64 size = 0;
        qint64 mtimeNs = 0;
        bool operator==(const Entry &o) const { return size == o.size && mtimeNs == o.mtimeNs; }
    };
    // Every regular file: its relative path, size and modification time.
    const QHash<QString, Entry> &entries() const { return m_entries; }
    // The sum of the recorded files' sizes.
    qint64 totalBytes() const;

private:
    // Folders deeper than this are not looked into (each level holds a file descriptor).
    static constexpr int kMaxDepth = 64;
    void walk(int dirFd, const QString &prefix, int depth);
    QHash<QString, Entry> m_entries;
};

} // namespace Sandcastle
