#include "workspacechanges.h"

#include "blockingjobs.h"
#include "workspacewatcher.h"

#include <QThreadPool>

namespace Sandcastle {

WorkspaceChanges::WorkspaceChanges() = default;
WorkspaceChanges::~WorkspaceChanges() = default;

void WorkspaceChanges::watch(const QString &root, bool local)
{
    if (!local || root.isEmpty()) {
        stopWatching();
        return;
    }
    if (m_watcher && m_watcher->root() == root)
        return;
    // The first walk takes a while in a big folder: on the pool. A run that begins before it
    // ends waits for it (begin() takes the watcher's lock), which is still cheaper than the
    // walks it replaces.
    auto watcher = std::make_shared<WorkspaceWatcher>(root);
    m_watcher = watcher;
    blockingJobs()->start([watcher] { watcher->start(); });
}

void WorkspaceChanges::stopWatching()
{
    m_watcher.reset(); // the pool's job keeps it alive until its walk ends
    m_watching = false;
}

void WorkspaceChanges::begin(const QString &root)
{
    m_root = root;
    m_before.reset();
    m_watching = false;
    if (root.isEmpty())
        return;
    m_watching = m_watcher && m_watcher->root() == root && m_watcher->begin();
    if (!m_watching)
        m_before = WorkspaceSnapshot::take(root);
}

QStringList WorkspaceChanges::finish()
{
    if (m_watching && m_watcher)
        return m_watcher->finish();
    if (m_before)
        return WorkspaceSnapshot::changedFiles(*m_before, WorkspaceSnapshot::take(m_root));
    return {};
}

std::function<qint64()> WorkspaceChanges::usageProbe(const QString &root) const
{
    std::shared_ptr<WorkspaceWatcher> watcher
        = m_watcher && m_watcher->root() == root ? m_watcher : nullptr;
    return [watcher, root] {
        const qint64 watched = watcher ? watcher->totalBytes() : -1;
        return watched >= 0 ? watched : WorkspaceSnapshot::take(root).totalBytes();
    };
}

} // namespace Sandcastle
