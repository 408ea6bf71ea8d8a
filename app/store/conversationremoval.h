#pragma once

#include "conversationstore.h"

#include <QLockFile>

#include <memory>

namespace Sandcastle {
class ContainerEngine;
}

// Deleting a conversation: what it left in the store, in the engine and on disk.
namespace Sandcastle::ConversationRemoval {

// Deletes a conversation: its containers, its rows, and its workspace when the conversation
// owns it (made for it under dataDir/workspaces; a folder the person chose is never deleted).
// When the engine cannot be asked about containers, the rest is still deleted and the value is
// a note saying so (any container left is reaped as an orphan later); otherwise it is empty.
// Synchronous: removeRecord() then removeLeftovers().
Result<QString> remove(ConversationStore &store,
                       const ContainerEngine &engine,
                       const QString &dataDir,
                       const QString &conversationId);

// The two halves of remove(), so that a window can take the conversation off its list at once
// and leave the slow half to a worker thread. removeRecord() deletes the rows and returns what
// the conversation was; removeLeftovers() touches no store (safe on any thread): it removes
// the containers and the owned workspace, with the same note and refusals as remove().
Result<ConversationInfo> removeRecord(ConversationStore &store, const QString &conversationId);
Result<QString> removeLeftovers(const ContainerEngine &engine,
                                const QString &dataDir,
                                const ConversationInfo &info);

// A workspace Sandcastle made for a conversation that was never saved (a launch without a
// conversation, a New pressed twice) is removed when nothing was put in it: only a folder
// under dataDir/workspaces, not a link, holding nothing but empty folders. Files are never
// deleted. True when it is gone (or was never made).
bool removeEmptyWorkspace(const QString &dataDir, const QString &workspace);

// The lock a process holds while a conversation's own workspace is in use (a window, a
// `sandcastle chat`); the sweep below passes by a locked workspace. Never null.
std::unique_ptr<QLockFile> lockWorkspace(const QString &dataDir, const QString &conversationId);

// Removes the empty workspaces no stored conversation names and no process holds (left by a crash,
// or by versions that made one at every launch), except `keep`. Returns how many went; none when
// the store cannot be read.
int sweepEmptyWorkspaces(const ConversationStore &store,
                         const QString &dataDir,
                         const QString &keep);

} // namespace Sandcastle::ConversationRemoval
