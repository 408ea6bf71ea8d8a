#include "conversationstore.h"

#include "messagewriter.h"
#include "storeschema.h"
#include "storesql.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>
#include <QVariant>

#include <cerrno>
#include <csignal>

#include <unistd.h>

namespace Sandcastle {

QString newConversationId()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces).left(8);
}

QString ConversationInfo::titleFromPrompt(const QString &prompt)
{
    QString title = prompt.trimmed().section(QLatin1Char('\n'), 0, 0).simplified();
    if (title.isEmpty())
        return QStringLiteral("New conversation");
    constexpr int kMax = 60;
    if (title.size() > kMax)
        title = title.left(kMax - 1).trimmed() + QChar(0x2026);
    return title;
}

namespace {

using StoreSql::jsonText;
using StoreSql::now;
using StoreSql::parseJson;
using StoreSql::queryFailure;
using StoreSql::text;

bool processIsGone(qint64 pid)
{
    return pid <= 0 || (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH);
}

// What a person types becomes an FTS5 query of quoted words, the last one a prefix (when it
// has two characters or more: prefixes of two and three are indexed, a single one would merge
// the entries of every word it starts): no syntax of theirs (quotes, NEAR, column filters) can
// make the query invalid.
QString ftsQuery(const QString &text)
{
    QStringList terms;
    const QStringList words
        = text.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
    for (const QString &word : words) {
        QString quoted = word;
        quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
        terms << QLatin1Char('"') + quoted + QLatin1Char('"');
    }
    if (!terms.isEmpty() && words.last().size() > 1)
        terms.last() += QLatin1Char('*');
    return terms.join(QLatin1Char(' '));
}

ConversationInfo infoFrom(const QSqlQuery &q)
{
    ConversationInfo info;
    info.id = q.value(0).toString();
    info.title = q.value(1).toString();
    info.workspace = q.value(2).toString();
    info.ownsWorkspace = q.value(3).toBool();
    info.createdMs = q.value(4).toLongLong();
    info.updatedMs = q.value(5).toLongLong();
    info.messageCount = q.value(6).toInt();
    return info;
}

const char *const kInfoColumns
    = "SELECT c.id, c.title, c.workspace, c.owns_workspace, c.created_at, c.updated_at, "
      "c.message_count FROM conversations c ";

} // namespace

QStringList ConversationStore::migration(int fromVersion)
{
    return StoreSql::migration(fromVersion);
}

ConversationStore::ConversationStore()
    : m_connection(QStringLiteral("store-") + QUuid::createUuid().toString(QUuid::WithoutBraces))
{}

ConversationStore::~ConversationStore()
{
    close();
}

QString ConversationStore::defaultPath(const QString &dataDir)
{
    return dataDir + QStringLiteral("/conversations.sqlite3");
}

bool ConversationStore::isOpen() const
{
    return QSqlDatabase::contains(m_connection)
           && QSqlDatabase::database(m_connection, false).isOpen();
}

void ConversationStore::close()
{
    m_writer.reset(); // commits what is queued first
    if (!QSqlDatabase::contains(m_connection))
        return;
    {
        QSqlDatabase db = QSqlDatabase::database(m_connection, false);
        db.close();
    }
    QSqlDatabase::removeDatabase(m_connection);
}

Result<bool> ConversationStore::open(const QString &path)
{
    close();
    m_path = path;
    m_interruptedOnOpen = 0;
    // The window may have started this file's migrations on a worker thread: they end first.
    StoreSchema::waitForPreparation(path);
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE")))
        return Result<bool>::failure(
            QStringLiteral("the Qt SQLite driver is missing (install libqt6sql6-sqlite)"));
    const QFileInfo file(path);
    if (!QDir().mkpath(file.absolutePath()))
        return Result<bool>::failure(
            QStringLiteral("could not create the folder %1").arg(file.absolutePath()));
    QString error;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
        db.setDatabaseName(path);
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
        if (!db.open())
            error = QStringLiteral("could not open %1: %2")
                        .arg(path, StoreSql::errorText(db.lastError()));
    }
    if (error.isEmpty()) {
        const Result<bool> upToDate = StoreSchema::bringUpToDate(m_connection, path);
        if (!upToDate)
            error = upToDate.error();
    }
    if (!error.isEmpty()) {
        close();
        return Result<bool>::failure(error);
    }
    m_interruptedOnOpen = markInterruptedRuns();
    m_writer = std::make_unique<MessageWriter>(path, m_connection + QStringLiteral("-writer"));
    ++m_writerGeneration;
    Result<bool> writing = m_writer->started();
    if (!writing) {
        close();
        return writing;
    }
    return Result<bool>::ok(true);
}

bool ConversationStore::settle() const
{
    return !m_writer || m_writer->wait();
}

Result<quint64> ConversationStore::appendMessage(const QString &conversationId,
                                                 const nlohmann::json &message)
{
    if (!isOpen() || !m_writer)
        return Result<quint64>::failure(QStringLiteral("the store is not open"));
    if (!message.is_object() || !message.contains("role") || !message["role"].is_string())
        return Result<quint64>::failure(QStringLiteral("a message needs a role"));
    return Result<quint64>::ok(m_writer->append(conversationId, message));
}

Result<quint64> ConversationStore::appendMessage(const QString &conversationId,
                                                 const Message &message)
{
    if (!isOpen() || !m_writer)
        return Result<quint64>::failure(QStringLiteral("the store is not open"));
    return Result<quint64>::ok(m_writer->append(conversationId, message));
}

Result<quint64> ConversationStore::appendRunStart(const StoredRun &run)
{
    if (!isOpen() || !m_writer)
        return Result<quint64>::failure(QStringLiteral("the store is not open"));
    return Result<quint64>::ok(m_writer->appendRunStart(run));
}

Result<quint64> ConversationStore::appendRunEnd(quint64 start, const ExecutionResult &result)
{
    if (!isOpen() || !m_writer)
        return Result<quint64>::failure(QStringLiteral("the store is not open"));
    return Result<quint64>::ok(m_writer->appendRunEnd(start, result));
}

Result<bool> ConversationStore::flush()
{
    return m_writer ? m_writer->flush() : Result<bool>::ok(true);
}

ConversationStore::FlushTicket ConversationStore::requestFlush()
{
    if (!m_writer)
        return {};
    return {m_writerGeneration, m_writer->requestFlush()};
}

std::optional<Result<bool>> ConversationStore::flushed(const FlushTicket &ticket)
{
    if (!m_writer || ticket.writer != m_writerGeneration)
        return Result<bool>::ok(true);
    return m_writer->flushed(ticket.ticket);
}

void ConversationStore::setWriteObserver(
    std::function<void(quint64 durableUpTo, const QString &error)> observer)
{
    if (m_writer)
        m_writer->setObserver(std::move(observer));
}

int ConversationStore::markInterruptedRuns()
{
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT DISTINCT owner_pid FROM runs WHERE status = 'running'")))
        return 0;
    QList<qint64> gone;
    while (q.next()) {
        const qint64 pid = q.value(0).toLongLong();
        if (pid != ::getpid() && processIsGone(pid))
            gone << pid;
    }
    int marked = 0;
    for (const qint64 pid : gone) {
        QSqlQuery update(db);
        update.prepare(QStringLiteral(
            "UPDATE runs SET status = 'interrupted', finished_at = ?, output_tail = output_tail || "
            "? WHERE status = 'running' AND owner_pid = ?"));
        update.addBindValue(now());
        update.addBindValue(QStringLiteral("[interrupted: Sandcastle stopped while this ran]"));
        update.addBindValue(pid);
        if (update.exec())
            marked += update.numRowsAffected();
    }
    return marked;
}

Result<ConversationInfo> ConversationStore::create(const QString &id,
                                                   const QString &title,
                                                   const QString &workspace,
                                                   bool ownsWorkspace)
{
    settle();
    if (!isOpen())
        return Result<ConversationInfo>::failure(QStringLiteral("the store is not open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("INSERT INTO conversations"
                             " (id, title, workspace, owns_workspace, created_at, updated_at)"
                             " VALUES (?, ?, ?, ?, ?, ?)"));
    const qint64 t = now();
    q.addBindValue(id);
    q.addBindValue(text(title));
    q.addBindValue(text(workspace));
    q.addBindValue(ownsWorkspace ? 1 : 0);
    q.addBindValue(t);
    q.addBindValue(t);
    if (!q.exec())
        return queryFailure<ConversationInfo>(q, QStringLiteral("save the new conversation"));
    return conversation(id);
}

Result<ConversationInfo> ConversationStore::conversation(const QString &id) const
{
    settle();
    if (!isOpen())
        return Result<ConversationInfo>::failure(QStringLiteral("the store is not open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QString::fromLatin1(kInfoColumns) + QStringLiteral("WHERE c.id = ?"));
    q.addBindValue(id);
    if (!q.exec())
        return queryFailure<ConversationInfo>(q, QStringLiteral("read the conversation"));
    if (!q.next())
        return Result<ConversationInfo>::failure(QStringLiteral("no conversation %1").arg(id));
    return Result<ConversationInfo>::ok(infoFrom(q));
}

Result<QList<ConversationInfo>> ConversationStore::list() const
{
    settle();
    if (!isOpen())
        return Result<QList<ConversationInfo>>::failure(QStringLiteral("the store is not open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.setForwardOnly(true);
    if (!q.exec(QString::fromLatin1(kInfoColumns)
                + QStringLiteral("ORDER BY c.updated_at DESC, c.rowid DESC")))
        return queryFailure<QList<ConversationInfo>>(q, QStringLiteral("list the conversations"));
    QList<ConversationInfo> out;
    while (q.next())
        out << infoFrom(q);
    return Result<QList<ConversationInfo>>::ok(out);
}

Result<bool> ConversationStore::rename(const QString &id, const QString &title)
{
    settle();
    if (!isOpen())
        return Result<bool>::failure(QStringLiteral("the store is not open"));
    if (title.trimmed().isEmpty())
        return Result<bool>::failure(QStringLiteral("a title cannot be empty"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("UPDATE conversations SET title = ?, updated_at = ? WHERE id = ?"));
    q.addBindValue(text(title.trimmed()));
    q.addBindValue(now());
    q.addBindValue(id);
    if (!q.exec())
        return queryFailure<bool>(q, QStringLiteral("rename the conversation"));
    if (q.numRowsAffected() != 1)
        return Result<bool>::failure(QStringLiteral("no conversation %1").arg(id));
    return Result<bool>::ok(true);
}

Result<bool> ConversationStore::remove(const QString &id)
{
    settle();
    if (!isOpen())
        return Result<bool>::failure(QStringLiteral("the store is not open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("DELETE FROM conversations WHERE id = ?"));
    q.addBindValue(id);
    if (!q.exec())
        return queryFailure<bool>(q, QStringLiteral("delete the conversation"));
    if (q.numRowsAffected() != 1)
        return Result<bool>::failure(QStringLiteral("no conversation %1").arg(id));
    return Result<bool>::ok(true);
}

Result<qint64> ConversationStore::addMessage(const QString &conversationId,
                                             const nlohmann::json &message)
{
    if (!isOpen())
        return Result<qint64>::failure(QStringLiteral("the store is not open"));
    if (!message.is_object() || !message.contains("role") || !message["role"].is_string())
        return Result<qint64>::failure(QStringLiteral("a message needs a role"));
    if (!settle())
        return Result<qint64>::failure(
            QStringLiteral("could not save the message: earlier messages are still waiting to be "
                           "saved"));
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    if (!db.transaction())
        return Result<qint64>::failure(QStringLiteral("could not save the message: ")
                                       + StoreSql::errorText(db.lastError()));
    Result<qint64> inserted = StoreSql::insertMessage(db, conversationId, message);
    if (!inserted) {
        db.rollback();
        return inserted;
    }
    const qint64 id = inserted.value();
    const Result<bool> touched = StoreSql::touch(db, conversationId);
    if (!touched || !db.commit()) {
        const QString error = touched ? StoreSql::errorText(db.lastError()) : touched.error();
        db.rollback();
        return Result<qint64>::failure(QStringLiteral("could not save the message: ") + error);
    }
    return Result<qint64>::ok(id);
}

Result<nlohmann::json> ConversationStore::messages(const QString &conversationId) const
{
    settle();
    if (!isOpen())
        return Result<nlohmann::json>::failure(QStringLiteral("the store is not open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT role, content, reasoning, tool_calls, tool_call_id"
                             " FROM messages WHERE conversation_id = ? ORDER BY id"));
    q.addBindValue(conversationId);
    if (!q.exec())
        return queryFailure<nlohmann::json>(q, QStringLiteral("read the messages"));
    // Built in place and moved out: a conversation of 16,000 messages was copied whole twice.
    nlohmann::json out = nlohmann::json::array();
    while (q.next()) {
        const QVariant content = q.value(1);
        const QVariant reasoning = q.value(2);
        const QVariant calls = q.value(3);
        const QVariant callId = q.value(4);
        nlohmann::json m(nlohmann::json::value_t::object);
        auto &fields = m.get_ref<nlohmann::json::object_t &>();
        fields.emplace("role", q.value(0).toString().toStdString());
        fields.emplace("content",
                       content.isNull() ? nlohmann::json(nullptr)
                                        : nlohmann::json(content.toString().toStdString()));
        if (!reasoning.isNull() && !reasoning.toString().isEmpty())
            fields.emplace("reasoning", reasoning.toString().toStdString());
        if (!calls.isNull()) {
            nlohmann::json parsed = parseJson(calls.toString());
            if (parsed.is_array())
                fields.emplace("tool_calls", std::move(parsed));
        }
        if (!callId.isNull())
            fields.emplace("tool_call_id", callId.toString().toStdString());
        out.push_back(std::move(m));
    }
    return Result<nlohmann::json>::ok(std::move(out));
}

Result<qint64> ConversationStore::beginRun(const StoredRun &run)
{
    settle();
    if (!isOpen())
        return Result<qint64>::failure(QStringLiteral("the store is not open"));
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    return StoreSql::insertRun(db, run);
}

Result<bool> ConversationStore::finishRun(qint64 runId, const ExecutionResult &result)
{
    settle();
    if (!isOpen())
        return Result<bool>::failure(QStringLiteral("the store is not open"));
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    return StoreSql::finishRun(db, runId, result);
}

Result<QList<StoredRun>> ConversationStore::runs(const QString &conversationId) const
{
    settle();
    if (!isOpen())
        return Result<QList<StoredRun>>::failure(QStringLiteral("the store is not open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT id, tool_call_id, code, language, origin, status, exit_code,"
                             " duration_ms, output_tail, log_file, files, started_at, finished_at"
                             " FROM runs WHERE conversation_id = ? ORDER BY id"));
    q.addBindValue(conversationId);
    if (!q.exec())
        return queryFailure<QList<StoredRun>>(q, QStringLiteral("read the runs"));
    QList<StoredRun> out;
    while (q.next()) {
        StoredRun run;
        run.id = q.value(0).toLongLong();
        run.conversationId = conversationId;
        run.toolCallId = q.value(1).toString();
        run.code = q.value(2).toString();
        run.language = q.value(3).toString();
        run.origin = q.value(4).toString();
        run.status = q.value(5).toString();
        run.exitCode = q.value(6).toInt();
        run.durationMs = q.value(7).toLongLong();
        run.outputTail = q.value(8).toString();
        run.logFile = q.value(9).toString();
        const nlohmann::json files = parseJson(q.value(10).toString());
        if (files.is_array()) {
            for (const auto &f : files)
                if (f.is_string())
                    run.files << QString::fromStdString(f.get<std::string>());
        }
        run.startedMs = q.value(11).toLongLong();
        run.finishedMs = q.value(12).toLongLong();
        out << run;
    }
    return Result<QList<StoredRun>>::ok(out);
}

Result<bool> ConversationStore::setSetting(const QString &conversationId,
                                           const QString &key,
                                           const nlohmann::json &value)
{
    settle();
    if (!isOpen())
        return Result<bool>::failure(QStringLiteral("the store is not open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("INSERT INTO conversation_settings (conversation_id, key, value)"
                             " VALUES (?, ?, ?) ON CONFLICT(conversation_id, key)"
                             " DO UPDATE SET value = excluded.value"));
    q.addBindValue(conversationId);
    q.addBindValue(key);
    q.addBindValue(jsonText(value));
    if (!q.exec())
        return queryFailure<bool>(q, QStringLiteral("save the setting"));
    return Result<bool>::ok(true);
}

Result<nlohmann::json> ConversationStore::settings(const QString &conversationId) const
{
    settle();
    if (!isOpen())
        return Result<nlohmann::json>::failure(QStringLiteral("the store is not open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral(
        "SELECT key, value FROM conversation_settings WHERE conversation_id = ? ORDER BY key"));
    q.addBindValue(conversationId);
    if (!q.exec())
        return queryFailure<nlohmann::json>(q, QStringLiteral("read the settings"));
    nlohmann::json out = nlohmann::json::object();
    while (q.next()) {
        const nlohmann::json value = parseJson(q.value(1).toString());
        if (!value.is_discarded())
            out[q.value(0).toString().toStdString()] = value;
    }
    return Result<nlohmann::json>::ok(out);
}

Result<QList<SearchHit>> ConversationStore::search(const QString &text, int limit) const
{
    settle();
    if (!isOpen())
        return Result<QList<SearchHit>>::failure(QStringLiteral("the store is not open"));
    const QString query = ftsQuery(text);
    if (query.isEmpty())
        return Result<QList<SearchHit>>::ok({});
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    // Ranking costs as much as there are matches, and bm25 reads every match of each word to
    // weigh it: a word in most messages would take a second in a store of a million. So the best
    // match comes first when fewer than kRankedMatches messages match (found first in the index's
    // own order, which stops as soon as it has that many), and the newest first when more do (a
    // word that common ranks them all alike).
    constexpr int kRankedMatches = 2000;
    QSqlQuery many(db);
    many.setForwardOnly(true);
    many.prepare(QStringLiteral("SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?"
                                " ORDER BY rowid DESC LIMIT 1 OFFSET ?"));
    many.addBindValue(query);
    many.addBindValue(kRankedMatches - 1);
    if (!many.exec())
        return queryFailure<QList<SearchHit>>(many, QStringLiteral("search"));
    const bool newestFirst = many.next();
    many.finish();
    QSqlQuery q(db);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT m.conversation_id, c.title, m.id, m.role,"
                             " snippet(messages_fts, 0, '[', ']', '...', 12)"
                             " FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid"
                             " JOIN conversations c ON c.id = m.conversation_id"
                             " WHERE messages_fts MATCH ? ORDER BY ")
              + (newestFirst ? QStringLiteral("messages_fts.rowid DESC") : QStringLiteral("rank"))
              + QStringLiteral(" LIMIT ?"));
    q.addBindValue(query);
    q.addBindValue(qMax(1, limit));
    if (!q.exec())
        return queryFailure<QList<SearchHit>>(q, QStringLiteral("search"));
    QList<SearchHit> out;
    while (q.next()) {
        SearchHit hit;
        hit.conversationId = q.value(0).toString();
        hit.title = q.value(1).toString();
        hit.messageId = q.value(2).toLongLong();
        hit.role = q.value(3).toString();
        hit.snippet = q.value(4).toString();
        out << hit;
    }
    return Result<QList<SearchHit>>::ok(out);
}

} // namespace Sandcastle
