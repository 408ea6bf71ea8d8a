#pragma once

#include "conversationstore.h"

namespace Sandcastle {
class ContainerEngine;
}

namespace Sandcastle::ConversationManager {

// A title from the first prompt: its first line, at most 60 characters.
QString titleFromPrompt(const QString &prompt);

// Deletes a conversation: its containers, its rows, and its workspace when the conversation
// owns it (made for it under dataDir/workspaces; a folder the person chose is never deleted).
// When the engine cannot be asked about containers, the rest is still deleted and the value is
// a note saying so (any container left is reaped as an orphan later); otherwise it is empty.
Result<QString> remove(ConversationStore &store,
                       const ContainerEngine &engine,
                       const QString &dataDir,
                       const QString &conversationId);

} // namespace Sandcastle::ConversationManager
