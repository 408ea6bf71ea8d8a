#pragma once

#include "storedrun.h"

#include <app/llm/message.h>
#include <base/result.h>
#include <sandbox/executionresult.h>

#include <nlohmann/json.hpp>

#include <QHash>
#include <QString>
#include <QStringList>

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

class QSqlDatabase;
class QThread;

namespace Sandcastle {

// Appends messages to a conversation store's file from a thread and connection of its own,
// committing everything that queued up while the previous commit went to disk in one
// transaction (group commit). A message is acknowledged only once its transaction is durable
// (WAL, synchronous=FULL: fsync'd), exactly as with one commit per message; but a burst of
// messages costs one fsync instead of one each, and the caller never waits on the disk.
//
// A message that can never be saved (its conversation is gone: a constraint fails) is dropped
// and reported; one that fails for any other reason (disk full, I/O error, locked) stays queued,
// in order, and is tried again at the next append or flush(), so nothing is lost while the
// process lives. Thread-safe; the observer is called on the writer's thread.
class MessageWriter
{
public:
    // After each commit attempt: the sequence number settled up to (appends are numbered from
    // 1: each one up to it is durable, or was dropped for good and is named in the error), and
    // what went wrong (empty if nothing did). Called with the writer's lock held: it
    // must be quick and must not call the writer (or the store) back.
    using Observer = std::function<void(quint64 durableUpTo, const QString &error)>;

    // Opens `path` (an existing, migrated store) on a connection named `connectionName`.
    MessageWriter(const QString &path, const QString &connectionName);
    // Commits what is queued (one last attempt: what still fails then is lost with the process,
    // which is why the recorder flushes and reports at the end of every turn), then stops.
    ~MessageWriter();
    MessageWriter(const MessageWriter &) = delete;
    MessageWriter &operator=(const MessageWriter &) = delete;

    // Whether the writer's connection opened; the reason when it did not.
    Result<bool> started() const;
    // Queues a message; returns its sequence number.
    quint64 append(const QString &conversationId, nlohmann::json message);
    // The same, turned into the store's JSON (toStoreJson()) on the writer's thread.
    quint64 append(const QString &conversationId, const Message &message);
    // A run as it starts, and its end, in the same queue (the caller never waits for the disk,
    // nor for the messages before them): the end names the start by its sequence number. An
    // end whose start could not be saved is dropped and reported.
    quint64 appendRunStart(const StoredRun &run);
    quint64 appendRunEnd(quint64 start, const ExecutionResult &result);
    // Waits until everything appended so far is durable, retrying a failed commit once (an
    // attempt that begins after the call).
    // Fails with the reason when something is still not saved, or when a message was dropped
    // since the last flush (that report is then consumed; wait() leaves it).
    Result<bool> flush();
    // flush() in two halves, for a caller that must not wait: what was appended so far, asked
    // to be saved now ...
    struct FlushTicket
    {
        quint64 target = 0; // appended up to here
        quint64 begun = 0;  // attempts begun before the request
    };
    FlushTicket requestFlush();
    // ... and, read back later, nothing while that is under way, then what flush() would have
    // returned (consuming the report of dropped messages the same way).
    std::optional<Result<bool>> flushed(const FlushTicket &ticket);
    // Like flush(), without consuming the report of dropped messages; true when nothing is
    // left unsaved.
    bool wait();
    void setObserver(Observer observer);

private:
    struct Item
    {
        enum class Kind { Message, RunStart, RunEnd };
        quint64 seq = 0;
        Kind kind = Kind::Message;
        QString conversationId;
        nlohmann::json message;
        std::optional<Message> unconverted; // to become `message` on the writer's thread
        StoredRun run;                      // RunStart
        quint64 start = 0;                  // RunEnd: its RunStart's sequence number
        ExecutionResult result;             // RunEnd
    };
    // One item inside the batch's transaction; false when the batch must be tried again.
    bool write(QSqlDatabase &db,
               const Item &item,
               QHash<quint64, qint64> *started,
               QString *error,
               QStringList *dropped);
    quint64 enqueue(Item item);
    void run();
    // With the lock held: asks for an attempt that holds everything appended so far.
    FlushTicket beginFlush();
    // With the lock held: the ticket's messages are saved, or an attempt begun after it failed,
    // or the writer is gone.
    bool settled(const FlushTicket &ticket) const;
    // Waits for everything appended so far (see flush()); whether it is all saved.
    bool waitForQueue(std::unique_lock<std::mutex> &lock);
    // With the lock held: flush()'s answer (consumes the report of dropped messages).
    Result<bool> outcome(bool saved);
    // One transaction for the batch, emptied once it is durable. False (batch untouched) when it
    // has to be tried again; messages that can never be saved are described in `dropped`.
    bool commit(std::deque<Item> &batch, QString *error, QStringList *dropped);

    const QString m_path;
    const QString m_connection;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;         // to the writer: work, retry or stop
    mutable std::condition_variable m_done; // from the writer: opened, or a commit attempt ended
    std::deque<Item> m_queue;
    quint64 m_appended = 0;
    quint64 m_durable = 0;
    quint64 m_begun = 0;     // commit attempts begun
    quint64 m_attempts = 0;  // and ended
    quint64 m_retryFrom = 0; // a flush waits for the attempt with this number
    bool m_opened = false;
    QString m_openError;
    bool m_paused = false; // the last commit failed: wait for a retry before trying again
    bool m_stop = false;
    bool m_running = false;
    QString m_failure;                // why the queue is paused
    QStringList m_dropped;            // not yet reported by flush()
    QHash<quint64, qint64> m_runRows; // the writer thread's: a started run's row, by sequence
    Observer m_observer;
    std::unique_ptr<QThread> m_thread;
};

} // namespace Sandcastle
