#pragma once

#include "messagewriter.h"
#include "storedrun.h"

#include <base/result.h>
#include <sandbox/executionresult.h>

#include <nlohmann/json.hpp>

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace Sandcastle {

// A new conversation's id: the first 8 hex digits of a random UUID.
QString newConversationId();

struct ConversationInfo
{
    QString id;
    QString title;
    QString workspace;
    bool ownsWorkspace = true; // made for it under the data folder (deleted with it)
    qint64 createdMs = 0;
    qint64 updatedMs = 0;
    int messageCount = 0;

    // A title from the first prompt: its first line, at most 60 characters.
    static QString titleFromPrompt(const QString &prompt);
};

struct SearchHit
{
    QString conversationId;
    QString title;
    qint64 messageId = 0;
    QString role;
    QString snippet; // the match in [brackets]
};

// Every conversation on disk: one SQLite database (WAL) in the data folder. Each item is
// written, committed durably, when it completes (messages may go through the writer thread), so a
// crash loses at most what was still streaming; a run that was going when its process died is
// marked `interrupted` the next time the store opens. The schema is versioned (PRAGMA user_version)
// and migrated forward on open; a database from a newer Sandcastle is refused rather than touched.
// Messages are searchable with FTS5. No method throws; failures (disk full, locked, corrupt) come
// back as messages.
class ConversationStore
{
public:
    static constexpr int kSchemaVersion = 3;
    // Migration N takes the schema from version N to N + 1 (exposed for the migration test).
    static QStringList migration(int fromVersion);

    ConversationStore();
    ~ConversationStore();
    ConversationStore(const ConversationStore &) = delete;
    ConversationStore &operator=(const ConversationStore &) = delete;

    // The default file in a data folder.
    static QString defaultPath(const QString &dataDir);
    Result<bool> open(const QString &path);
    bool isOpen() const;
    void close();
    QString path() const { return m_path; }
    // Runs found `running` on open whose process is gone, now marked `interrupted`.
    int interruptedOnOpen() const { return m_interruptedOnOpen; }

    Result<ConversationInfo>
    create(const QString &id, const QString &title, const QString &workspace, bool ownsWorkspace);
    Result<ConversationInfo> conversation(const QString &id) const;
    // Newest first.
    Result<QList<ConversationInfo>> list() const;
    Result<bool> rename(const QString &id, const QString &title);
    // The rows only; ConversationRemoval also removes the workspace and the container.
    Result<bool> remove(const QString &id);

    // A message in the store's JSON (toStoreJson(): role, content, tool_calls, tool_call_id,
    // and an optional "reasoning" string kept beside it).
    // Committed before it returns; refused while appended messages wait to be saved (it would
    // go before them).
    Result<qint64> addMessage(const QString &conversationId, const nlohmann::json &message);
    // Queued for the store's writer thread, which commits what queues up meanwhile in one
    // durable transaction (group commit): returns the message's sequence number at once,
    // without waiting for the disk. flush() waits until everything queued is durable and says
    // what could not be saved; every other method of the store first waits for the queue, so
    // it sees what was appended. The observer (set after open(); a reopen drops it) hears of
    // each commit on the writer's thread, with its lock held: see MessageWriter::Observer.
    Result<quint64> appendMessage(const QString &conversationId, const nlohmann::json &message);
    // The same for a Message, turned into the store's JSON on the writer's thread (a megabyte
    // answer costs the caller's thread nothing).
    Result<quint64> appendMessage(const QString &conversationId, const Message &message);
    Result<bool> flush();
    // flush() without waiting: asks now, and reads back later (nothing while it is under way).
    // A ticket from before a reopen reads as settled: closing committed what it could.
    struct FlushTicket
    {
        quint64 writer = 0;
        MessageWriter::FlushTicket ticket;
    };
    FlushTicket requestFlush();
    std::optional<Result<bool>> flushed(const FlushTicket &ticket);
    void setWriteObserver(std::function<void(quint64 durableUpTo, const QString &error)> observer);
    // In order, in the same shape.
    Result<nlohmann::json> messages(const QString &conversationId) const;
    // When each of those messages was saved (ms since the epoch), in the same order: where the
    // person's runs (StoredRun::startedMs) fall between them (conversationstoretimes.cpp).
    Result<QList<qint64>> messageTimes(const QString &conversationId) const;

    Result<qint64> beginRun(const StoredRun &run);
    // The same through the writer's queue, after the messages appended before it, without
    // waiting (see MessageWriter::appendRunStart()): sequence numbers, the end naming its start.
    Result<quint64> appendRunStart(const StoredRun &run);
    Result<quint64> appendRunEnd(quint64 start, const ExecutionResult &result);
    Result<bool> finishRun(qint64 runId, const ExecutionResult &result);
    Result<QList<StoredRun>> runs(const QString &conversationId) const;

    Result<bool>
    setSetting(const QString &conversationId, const QString &key, const nlohmann::json &value);
    Result<nlohmann::json> settings(const QString &conversationId) const; // an object

    // Full-text search over every message: all words must occur, the last one as a prefix when it
    // has two characters or more. Best match first when fewer than 2,000 messages match; when more
    // do, newest first.
    Result<QList<SearchHit>> search(const QString &text, int limit = 50) const;

    static constexpr int kOutputTailChars = StoredRun::OutputTailChars;

private:
    int markInterruptedRuns();
    // Waits until the writer's queue is committed (what failed stays for flush() to report);
    // false when messages are still waiting to be saved.
    bool settle() const;

    QString m_connection;
    std::unique_ptr<MessageWriter> m_writer;
    quint64 m_writerGeneration = 0; // which writer a FlushTicket belongs to
    QString m_path;
    int m_interruptedOnOpen = 0;
};

} // namespace Sandcastle
