#pragma once

#include "workspacesnapshot.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace Sandcastle {

class WorkspaceWatcher;

// Which files a session's run created or changed, and how many bytes the workspace holds (for
// its quota). A local workspace is watched with inotify (WorkspaceWatcher, set up on the
// blocking pool when the session starts), so a run costs no walk of the tree; when it cannot
// be watched (a remote engine, no inotify, the watch limit), the folder is walked before and
// after every run, as a whole: no file count limit.
class WorkspaceChanges
{
public:
    WorkspaceChanges();
    ~WorkspaceChanges();

    // Watches `root` from now on (a no-op when it is watched already). `local`: the engine's
    // bind mount is this machine's folder, so the container's writes raise inotify events.
    void watch(const QString &root, bool local);
    void stopWatching();
    // Before a run in `root`.
    void begin(const QString &root);
    // After it: the sorted relative paths of the regular files it created or changed.
    QStringList finish();
    // For the quota, on any thread: the bytes the workspace's regular files hold.
    std::function<qint64()> usageProbe(const QString &root) const;

private:
    QString m_root;
    std::shared_ptr<WorkspaceWatcher> m_watcher;
    bool m_watching = false; // this run's files come from the watcher
    std::optional<WorkspaceSnapshot> m_before;
};

} // namespace Sandcastle
