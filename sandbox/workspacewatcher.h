#pragma once

#include <QByteArray>
#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>

#include <ctime>
#include <mutex>
#include <unordered_map>

namespace Sandcastle {

// Watches a local workspace folder with inotify so that a run's changed files are known
// without walking the whole tree before and after it. start() watches every folder once (and
// records every regular file's size, for the quota); afterwards only the events are read.
// Symlinks are never followed, the private ".sandcastle" folder at the root is not watched,
// and a folder that appears is watched and walked at once (its files may predate its watch).
// When the event queue overflows the tree is walked again: the run's files are then those
// whose inode changed (ctime) since begin(). When watching is impossible (no inotify, the
// watch limit) isWatching() is false and failure() says why; the caller walks instead.
// Every method may be called from any thread (one at a time: a mutex guards the state).
class WorkspaceWatcher
{
public:
    explicit WorkspaceWatcher(QString root);
    ~WorkspaceWatcher();
    WorkspaceWatcher(const WorkspaceWatcher &) = delete;
    WorkspaceWatcher &operator=(const WorkspaceWatcher &) = delete;

    const QString &root() const { return m_root; }
    // Opens inotify and watches the tree: walks it once, so it blocks (call it off the UI
    // thread). False when the folder cannot be watched (see failure()).
    bool start();
    bool isWatching() const;
    QString failure() const;

    // A run starts: events so far are taken in (new folders watched) but not reported.
    // False when the watcher cannot tell this run's files (the caller walks instead).
    bool begin();
    // The run ended: the sorted relative paths ('/'-separated) of the regular files it
    // created, changed, moved in or touched, which are still regular files.
    QStringList finish();
    // The bytes the workspace's regular files hold, kept from the events; -1 when unknown.
    qint64 totalBytes();

    // Test hook: the next read of the events behaves as if the queue had overflowed.
    void simulateOverflowForTest();

private:
    bool open();
    void close();
    void fail(const QString &why);
    void drain();
    void rescan();
    void watchTree(const QByteArray &relative, int depth, bool record, bool byCtime);
    void forgetTree(const QByteArray &relative);
    void restat(const QByteArray &relative);
    void setSize(const QByteArray &relative, qint64 size);

    const QString m_root;
    mutable std::mutex m_mutex;
    int m_rootFd = -1;
    int m_fd = -1;
    QString m_failure;
    bool m_overflowLogged = false;
    bool m_forceOverflow = false;
    bool m_inRun = false;
    timespec m_runStart{};
    std::unordered_map<int, QByteArray> m_dirs; // watch descriptor -> folder ("" for the root)
    QHash<QByteArray, qint64> m_sizes;          // regular file -> size
    qint64 m_totalBytes = 0;
    QSet<QByteArray> m_changed;
};

} // namespace Sandcastle
