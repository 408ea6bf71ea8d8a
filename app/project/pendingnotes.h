#pragma once

#include <app/project/checkpoints.h>

#include <QStringList>

namespace Sandcastle {

class ConversationStore;

// What the model must hear with a conversation's next message (files an undo or restore put
// back), kept in the store's settings until then, so that one made from the command line or
// before a restart is not lost.
namespace PendingNotes {

// The note for an undo or restore: `what` was done ("undid turn 2 (…)"), these files changed.
QString restored(const QString &what, const QList<CheckpointChange> &changes);
QStringList read(const ConversationStore &store, const QString &conversationId);
void append(ConversationStore &store, const QString &conversationId, const QString &note);
void clear(ConversationStore &store, const QString &conversationId);

} // namespace PendingNotes
} // namespace Sandcastle
