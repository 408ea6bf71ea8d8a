#include "conversationremoval.h"

#include <app/project/checkpoints.h>
#include <sandbox/containerengine.h>

#include <QDir>
#include <QFileInfo>

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
    const QString note = containers ? QString()
                                    : containers.error()
                                          + QStringLiteral(" (a container left behind is removed "
                                                           "the next time Sandcastle starts)");
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
