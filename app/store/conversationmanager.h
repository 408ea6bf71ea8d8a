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
Result<bool> remove(ConversationStore &store,
                    const ContainerEngine &engine,
                    const QString &dataDir,
                    const QString &conversationId);

} // namespace Sandcastle::ConversationManager
