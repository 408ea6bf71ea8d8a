#include "pendingnotes.h"

#include <app/store/conversationstore.h>

namespace Sandcastle::PendingNotes {

namespace {
const QString Key = QStringLiteral("pending_notes");
} // namespace

QString restored(const QString &what, const QList<CheckpointChange> &changes)
{
    QStringList files;
    for (const CheckpointChange &change : changes)
        files << change.path;
    return QStringLiteral("[The person %1. These files changed back: %2. Read files again before "
                          "editing them. Variables in the Python session were NOT rewound.]")
        .arg(what, files.isEmpty() ? QStringLiteral("(none)") : files.join(QStringLiteral(", ")));
}

QStringList read(const ConversationStore &store, const QString &conversationId)
{
    QStringList notes;
    if (!store.isOpen())
        return notes;
    const Result<nlohmann::json> stored = store.settings(conversationId);
    if (!stored || !stored.value().contains(Key.toStdString())
        || !stored.value()[Key.toStdString()].is_array())
        return notes;
    for (const nlohmann::json &note : stored.value()[Key.toStdString()]) {
        if (note.is_string())
            notes << QString::fromStdString(note.get<std::string>());
    }
    return notes;
}

void append(ConversationStore &store, const QString &conversationId, const QString &note)
{
    nlohmann::json notes = nlohmann::json::array();
    for (const QString &pending : read(store, conversationId))
        notes.push_back(pending.toStdString());
    notes.push_back(note.toStdString());
    store.setSetting(conversationId, Key, notes);
}

void clear(ConversationStore &store, const QString &conversationId)
{
    store.setSetting(conversationId, Key, nlohmann::json::array());
}

} // namespace Sandcastle::PendingNotes
