#include "messagewriter.h"

#include "storedmessage.h"
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
    Item item;
    item.conversationId = conversationId;
    item.message = std::move(message);
    return enqueue(std::move(item));
}

quint64 MessageWriter::append(const QString &conversationId, const Message &message)
{
    Item item;
    item.conversationId = conversationId;
    item.unconverted = message;
    return enqueue(std::move(item));
}

quint64 MessageWriter::appendRunStart(const StoredRun &run)
{
    Item item;
    item.kind = Item::Kind::RunStart;
    item.conversationId = run.conversationId;
    item.run = run;
    return enqueue(std::move(item));
}

quint64 MessageWriter::appendRunEnd(quint64 start, const ExecutionResult &result)
{
    Item item;
    item.kind = Item::Kind::RunEnd;
    item.start = start;
    item.result = result;
    return enqueue(std::move(item));
}

quint64 MessageWriter::enqueue(Item item)
{
    quint64 seq = 0;
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        seq = item.seq = ++m_appended;
        m_queue.push_back(std::move(item));
        m_paused = false; // a new message is a new try (the disk may have room again)
    }
    m_wake.notify_one();
    return seq;
}

Result<bool> MessageWriter::flush()
{
    std::unique_lock<std::mutex> lock(m_mutex);
    return outcome(waitForQueue(lock));
}

MessageWriter::FlushTicket MessageWriter::requestFlush()
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    return beginFlush();
}

std::optional<Result<bool>> MessageWriter::flushed(const FlushTicket &ticket)
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    if (!settled(ticket))
        return std::nullopt;
    return outcome(m_durable >= ticket.target);
}

bool MessageWriter::wait()
{
    std::unique_lock<std::mutex> lock(m_mutex);
    return waitForQueue(lock);
}

MessageWriter::FlushTicket MessageWriter::beginFlush()
{
    // An attempt begun after this call (one in flight may not hold the newest messages).
    const FlushTicket ticket{m_appended, m_begun};
    if (m_durable < ticket.target && m_running) {
        m_retryFrom = std::max(m_retryFrom, ticket.begun + 1); // a failure before it does not pause
        m_paused = false;
        m_wake.notify_one();
    }
    return ticket;
}

bool MessageWriter::settled(const FlushTicket &ticket) const
{
    // Saved, or such an attempt failed, or the writer is gone.
    return m_durable >= ticket.target || !m_running || (m_paused && m_attempts > ticket.begun);
}

bool MessageWriter::waitForQueue(std::unique_lock<std::mutex> &lock)
{
    const FlushTicket ticket = beginFlush();
    m_done.wait(lock, [&] { return settled(ticket); });
    return m_durable >= ticket.target;
}

Result<bool> MessageWriter::outcome(bool saved)
{
    QStringList problems;
    if (!saved)
        problems << (m_failure.isEmpty() ? QStringLiteral("the messages could not be saved")
                                         : m_failure);
    problems += m_dropped;
    m_dropped.clear();
    if (problems.isEmpty())
        return Result<bool>::ok(true);
    return Result<bool>::failure(problems.join(QLatin1String("; ")));
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
            for (Item &item : batch) {
                if (item.unconverted)
                    item.message = toStoreJson(*std::exchange(item.unconverted, std::nullopt));
            }
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
    QHash<quint64, qint64> started; // this batch's runs, until it is committed
    for (const Item &item : batch) {
        QString why;
        if (!write(db, item, &started, &why, dropped))
            return fail(why);
        if (item.kind == Item::Kind::Message)
            conversations.insert(item.conversationId);
    }
    for (const QString &id : conversations) {
        const Result<bool> touched = StoreSql::touch(db, id);
        if (!touched)
            return fail(touched.error());
    }
    if (!db.commit())
        return fail(StoreSql::errorText(db.lastError()));
    for (auto it = started.cbegin(); it != started.cend(); ++it)
        m_runRows.insert(it.key(), it.value());
    for (const Item &item : batch) {
        if (item.kind == Item::Kind::RunEnd)
            m_runRows.remove(item.start); // a run ends once
    }
    batch.clear();
    return true;
}

bool MessageWriter::write(QSqlDatabase &db,
                          const Item &item,
                          QHash<quint64, qint64> *started,
                          QString *error,
                          QStringList *dropped)
{
    QSqlError sqlError;
    bool saved = false;
    QString what;
    switch (item.kind) {
    case Item::Kind::Message: {
        saved = bool(StoreSql::insertMessage(db, item.conversationId, item.message, &sqlError));
        what = QStringLiteral("a message");
        break;
    }
    case Item::Kind::RunStart: {
        const Result<qint64> row = StoreSql::insertRun(db, item.run, &sqlError);
        if (row)
            started->insert(item.seq, row.value());
        saved = bool(row);
        what = QStringLiteral("a run");
        break;
    }
    case Item::Kind::RunEnd: {
        const qint64 row = started->value(item.start, m_runRows.value(item.start, 0));
        if (row <= 0) {
            *dropped << QStringLiteral("the result of a run that could not be saved was dropped");
            return true;
        }
        saved = bool(StoreSql::finishRun(db, row, item.result, &sqlError));
        what = QStringLiteral("a run's result");
        break;
    }
    }
    if (saved)
        return true;
    if (StoreSql::primaryCode(sqlError) == kSqliteConstraint) {
        // Never saveable (its conversation is gone); SQLite undid just this statement.
        *dropped << QStringLiteral("%1 for conversation %2 could not be saved (%3) and was dropped")
                        .arg(what, item.conversationId, StoreSql::errorText(sqlError));
        return true;
    }
    *error = StoreSql::errorText(sqlError);
    return false;
}

} // namespace Sandcastle
