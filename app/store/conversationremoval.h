#pragma once

#include "conversationstore.h"

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

} // namespace Sandcastle::ConversationRemoval
