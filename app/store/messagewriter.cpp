#include "messagewriter.h"

#include "storesql.h"

#include <algorithm>

#include <QSet>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QThread>

namespace Sandcastle {

namespace {

constexpr int kSqliteConstraint = 19;

} // namespace

MessageWriter::MessageWriter(const QString &path, const QString &connectionName)
    : m_path(path)
    , m_connection(connectionName)
{
    m_thread.reset(QThread::create([this] { run(); }));
    m_thread->setObjectName(QStringLiteral("store-writer"));
    m_running = true;
    m_thread->start();
}

MessageWriter::~MessageWriter()
{
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
        m_paused = false; // one last attempt at what is queued
    }
    m_wake.notify_all();
    m_thread->wait();
}

Result<bool> MessageWriter::started() const
{
    std::unique_lock<std::mutex> lock(m_mutex);
    m_done.wait(lock, [this] { return m_opened; });
    return m_openError.isEmpty() ? Result<bool>::ok(true) : Result<bool>::failure(m_openError);
}

quint64 MessageWriter::append(const QString &conversationId, nlohmann::json message)
{
    quint64 seq = 0;
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        seq = ++m_appended;
        m_queue.push_back({seq, conversationId, std::move(message)});
        m_paused = false; // a new message is a new try (the disk may have room again)
    }
    m_wake.notify_one();
    return seq;
}

Result<bool> MessageWriter::flush()
{
    std::unique_lock<std::mutex> lock(m_mutex);
    QStringList problems;
    if (!waitForQueue(lock))
        problems << (m_failure.isEmpty() ? QStringLiteral("the messages could not be saved")
                                         : m_failure);
    problems += m_dropped;
    m_dropped.clear();
    if (problems.isEmpty())
        return Result<bool>::ok(true);
    return Result<bool>::failure(problems.join(QLatin1String("; ")));
}

bool MessageWriter::wait()
{
    std::unique_lock<std::mutex> lock(m_mutex);
    return waitForQueue(lock);
}

bool MessageWriter::waitForQueue(std::unique_lock<std::mutex> &lock)
{
    const quint64 target = m_appended;
    if (m_durable < target && m_running) {
        // An attempt begun after this call (one in flight may not hold the newest messages).
        const quint64 begun = m_begun;
        m_retryFrom = std::max(m_retryFrom, begun + 1); // a failure before it does not pause
        m_paused = false;
        m_wake.notify_one();
        // Saved, or such an attempt failed, or the writer is gone.
        m_done.wait(lock, [&] {
            return m_durable >= target || !m_running || (m_paused && m_attempts > begun);
        });
    }
    return m_durable >= target;
}

void MessageWriter::setObserver(Observer observer)
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_observer = std::move(observer);
}

void MessageWriter::run()
{
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
        db.setDatabaseName(m_path);
        QString error;
        if (!db.open()) {
            error = StoreSql::errorText(db.lastError());
        } else {
            // Per connection: each commit is fsync'd before it is acknowledged.
            QSqlQuery q(db);
            for (const char *pragma : {"PRAGMA synchronous=FULL", "PRAGMA foreign_keys=ON"}) {
                if (!q.exec(QString::fromLatin1(pragma))) {
                    error = StoreSql::errorText(q.lastError());
                    break;
                }
            }
        }
        std::unique_lock<std::mutex> lock(m_mutex);
        m_opened = true;
        m_openError = error.isEmpty()
                          ? QString()
                          : QStringLiteral("could not open %1 for writing: %2").arg(m_path, error);
        if (!error.isEmpty())
            m_running = false;
        m_done.notify_all();
        while (error.isEmpty()) {
            m_wake.wait(lock, [this] { return m_stop || (!m_queue.empty() && !m_paused); });
            if (m_queue.empty())
                break; // stopping, nothing left
            // Everything queued so far goes in one transaction; appends meanwhile wait for
            // the next.
            std::deque<Item> batch;
            batch.swap(m_queue);
            ++m_begun;
            lock.unlock();
            QString failure;
            QStringList dropped;
            const bool saved = commit(batch, &failure, &dropped);
            lock.lock();
            ++m_attempts;
            if (saved) {
                m_durable = m_appended - m_queue.size();
                m_failure.clear();
            } else {
                // Back at the front, in order, for the next try.
                m_queue.insert(m_queue.begin(),
                               std::make_move_iterator(batch.begin()),
                               std::make_move_iterator(batch.end()));
                m_failure = failure;
                // Paused until the next append or flush, unless a flush that came during this
                // attempt waits for one begun after it: that one starts at once.
                m_paused = m_begun >= m_retryFrom;
            }
            m_dropped += dropped;
            if (m_observer) {
                QStringList problems = dropped;
                if (!saved)
                    problems.prepend(failure);
                m_observer(m_durable, problems.join(QLatin1String("; ")));
            }
            m_done.notify_all();
            if (!saved && m_stop)
                break; // the last attempt failed: what is left cannot be saved
        }
        m_running = false;
        m_done.notify_all();
    }
    QSqlDatabase::removeDatabase(m_connection);
}

bool MessageWriter::commit(std::deque<Item> &batch, QString *error, QStringList *dropped)
{
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    auto fail = [&](const QString &why) {
        db.rollback();
        *error
            = QStringLiteral("%1 message(s) kept to be saved later: %2").arg(batch.size()).arg(why);
        dropped->clear();
        return false;
    };
    if (!db.transaction())
        return fail(StoreSql::errorText(db.lastError()));
    QSet<QString> conversations;
    for (const Item &item : batch) {
        QSqlError sqlError;
        const Result<qint64> inserted
            = StoreSql::insertMessage(db, item.conversationId, item.message, &sqlError);
        if (inserted) {
            conversations.insert(item.conversationId);
        } else if (StoreSql::primaryCode(sqlError) == kSqliteConstraint) {
            // Never saveable (its conversation is gone); SQLite undid just this statement.
            *dropped << QStringLiteral("a message for conversation %1 could not be saved (%2) "
                                       "and was dropped")
                            .arg(item.conversationId, StoreSql::errorText(sqlError));
        } else {
            return fail(StoreSql::errorText(sqlError));
        }
    }
    for (const QString &id : conversations) {
        const Result<bool> touched = StoreSql::touch(db, id);
        if (!touched)
            return fail(touched.error());
    }
    if (!db.commit())
        return fail(StoreSql::errorText(db.lastError()));
    batch.clear();
    return true;
}

} // namespace Sandcastle
