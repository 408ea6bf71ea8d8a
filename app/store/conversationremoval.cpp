#include "conversationremoval.h"

#include <app/project/checkpoints.h>
#include <sandbox/containerengine.h>

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QSet>

#include <algorithm>

namespace Sandcastle::ConversationRemoval {

Result<ConversationInfo> removeRecord(ConversationStore &store, const QString &conversationId)
{
    Result<ConversationInfo> info = store.conversation(conversationId);
    if (!info)
        return info;
    const Result<bool> rows = store.remove(conversationId);
    if (!rows)
        return Result<ConversationInfo>::failure(rows.error());
    return info;
}

Result<QString>
removeLeftovers(const ContainerEngine &engine, const QString &dataDir, const ConversationInfo &info)
{
    const Result<int> containers = engine.removeConversationContainers(info.id);
    // Then its volume on a remote engine (copy mode), which its container held.
    const Result<bool> volume
        = containers ? engine.removeConversationVolume(info.id) : Result<bool>::ok(true);
    const QString note = !containers ? containers.error()
                                           + QStringLiteral(" (a container left behind is removed "
                                                            "the next time Sandcastle starts)")
                         : !volume ? volume.error()
                                         + QStringLiteral(" (it is removed the next time "
                                                          "Sandcastle starts)")
                                   : QString();
    if (!info.workspace.isEmpty()) {
        const Result<bool> forgotten = Checkpoints(dataDir, info.workspace, info.id).forget();
        if (!forgotten)
            qWarning("delete: checkpoints left: %s", qPrintable(forgotten.error()));
    }
    if (!info.ownsWorkspace || info.workspace.isEmpty())
        return Result<QString>::ok(note);
    // Only ever a folder under the data folder's workspaces, whatever the row says.
    const QString workspaces = QDir(dataDir + QStringLiteral("/workspaces")).canonicalPath();
    const QFileInfo workspace(info.workspace);
    if (!workspace.exists())
        return Result<QString>::ok(note);
    const QString canonical = workspace.canonicalFilePath();
    if (workspaces.isEmpty() || workspace.isSymLink()
        || !canonical.startsWith(workspaces + QLatin1Char('/')))
        return Result<QString>::failure(
            QStringLiteral("the conversation was deleted, but its workspace %1 is outside %2 and "
                           "was left in place")
                .arg(info.workspace, workspaces));
    if (!QDir(canonical).removeRecursively())
        return Result<QString>::failure(
            QStringLiteral("the conversation was deleted, but its workspace %1 could not be "
                           "removed completely")
                .arg(canonical));
    return Result<QString>::ok(note);
}

bool removeEmptyWorkspace(const QString &dataDir, const QString &workspace)
{
    const QFileInfo info(workspace);
    if (!info.exists() && !info.isSymLink())
        return true;
    const QString workspaces = QDir(dataDir + QStringLiteral("/workspaces")).canonicalPath();
    if (workspaces.isEmpty() || info.isSymLink() || !info.isDir()
        || !info.canonicalFilePath().startsWith(workspaces + QLatin1Char('/')))
        return false;
    // Every entry, hidden ones too, links not followed: any that is not a folder keeps it all.
    QStringList folders;
    QDirIterator it(workspace,
                    QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        const QFileInfo entry = it.fileInfo();
        if (entry.isSymLink() || !entry.isDir())
            return false;
        folders << entry.filePath();
    }
    // The deepest first; rmdir fails on anything that appeared meanwhile, and that is kept.
    std::sort(folders.begin(), folders.end(), [](const QString &a, const QString &b) {
        return a.count(QLatin1Char('/')) > b.count(QLatin1Char('/'));
    });
    for (const QString &folder : folders) {
        if (!QDir().rmdir(folder))
            return false;
    }
    return QDir().rmdir(workspace);
}

namespace {
QString lockPath(const QString &dataDir, const QString &conversationId)
{
    return dataDir + QStringLiteral("/locks/workspace-") + conversationId + QStringLiteral(".lock");
}
} // namespace

std::unique_ptr<QLockFile> lockWorkspace(const QString &dataDir, const QString &conversationId)
{
    QDir().mkpath(dataDir + QStringLiteral("/locks"));
    auto lock = std::make_unique<QLockFile>(lockPath(dataDir, conversationId));
    lock->setStaleLockTime(0); // held as long as the process lives, however long that is
    if (!lock->tryLock(0))
        qWarning("workspace %s: already locked by another process", qPrintable(conversationId));
    return lock;
}

int sweepEmptyWorkspaces(const ConversationStore &store,
                         const QString &dataDir,
                         const QString &keep)
{
    const Result<QList<ConversationInfo>> conversations = store.list();
    if (!conversations)
        return 0;
    QSet<QString> named{QFileInfo(keep).absoluteFilePath()};
    for (const ConversationInfo &info : conversations.value())
        named.insert(QFileInfo(info.workspace).absoluteFilePath());
    const QDir workspaces(dataDir + QStringLiteral("/workspaces"));
    int removed = 0;
    for (const QFileInfo &entry :
         workspaces.entryInfoList(QDir::Dirs | QDir::Hidden | QDir::NoDotAndDotDot)) {
        if (named.contains(entry.absoluteFilePath()))
            continue;
        // Another window's or command's conversation, not saved yet: its lock is held.
        QLockFile lock(lockPath(dataDir, entry.fileName()));
        lock.setStaleLockTime(0);
        if (lock.tryLock(0) && removeEmptyWorkspace(dataDir, entry.absoluteFilePath()))
            ++removed;
    }
    return removed;
}

Result<QString> remove(ConversationStore &store,
                       const ContainerEngine &engine,
                       const QString &dataDir,
                       const QString &conversationId)
{
    const Result<ConversationInfo> info = removeRecord(store, conversationId);
    if (!info)
        return Result<QString>::failure(info.error());
    return removeLeftovers(engine, dataDir, info.value());
}

} // namespace Sandcastle::ConversationRemoval
