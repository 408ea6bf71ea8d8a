#include "storesql.h"

#include <QDateTime>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <unistd.h>

namespace Sandcastle::StoreSql {

qint64 now()
{
    return QDateTime::currentMSecsSinceEpoch();
}

QString errorText(const QSqlError &error)
{
    const QString text = error.text().trimmed();
    return text.isEmpty() ? QStringLiteral("unknown database error") : text;
}

// A null QString binds as SQL NULL; the NOT NULL text columns get '' instead.
QString text(const QString &value)
{
    return value.isNull() ? QStringLiteral("") : value;
}

QString jsonText(const nlohmann::json &value)
{
    return QString::fromStdString(
        value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

nlohmann::json parseJson(const QString &text)
{
    return nlohmann::json::parse(text.toStdString(), nullptr, false);
}

namespace {

// What keeps messages_fts in step with messages.
QStringList ftsTriggers()
{
    return {
        QStringLiteral("CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN"
                       " INSERT INTO messages_fts(rowid, content)"
                       " VALUES (new.id, COALESCE(new.content, ''));"
                       " END"),
        QStringLiteral("CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN"
                       " INSERT INTO messages_fts(messages_fts, rowid, content)"
                       " VALUES ('delete', old.id, COALESCE(old.content, ''));"
                       " END"),
        QStringLiteral("CREATE TRIGGER messages_fts_update AFTER UPDATE OF content ON messages"
                       " BEGIN"
                       " INSERT INTO messages_fts(messages_fts, rowid, content)"
                       " VALUES ('delete', old.id, COALESCE(old.content, ''));"
                       " INSERT INTO messages_fts(rowid, content)"
                       " VALUES (new.id, COALESCE(new.content, ''));"
                       " END"),
    };
}

// Schema 0 -> 1: the tables.
QStringList createdTables()
{
    return {
        QStringLiteral("CREATE TABLE conversations ("
                       " id TEXT PRIMARY KEY,"
                       " title TEXT NOT NULL,"
                       " workspace TEXT NOT NULL,"
                       " owns_workspace INTEGER NOT NULL DEFAULT 1,"
                       " created_at INTEGER NOT NULL,"
                       " updated_at INTEGER NOT NULL)"),
        QStringLiteral("CREATE TABLE messages ("
                       " id INTEGER PRIMARY KEY AUTOINCREMENT,"
                       " conversation_id TEXT NOT NULL"
                       "  REFERENCES conversations(id) ON DELETE CASCADE,"
                       " role TEXT NOT NULL,"
                       " content TEXT,"
                       " reasoning TEXT,"
                       " tool_calls TEXT,"
                       " tool_call_id TEXT,"
                       " created_at INTEGER NOT NULL)"),
        QStringLiteral("CREATE INDEX messages_by_conversation ON messages(conversation_id, id)"),
        QStringLiteral("CREATE TABLE runs ("
                       " id INTEGER PRIMARY KEY AUTOINCREMENT,"
                       " conversation_id TEXT NOT NULL"
                       "  REFERENCES conversations(id) ON DELETE CASCADE,"
                       " tool_call_id TEXT,"
                       " code TEXT NOT NULL,"
                       " language TEXT NOT NULL,"
                       " origin TEXT NOT NULL,"
                       " status TEXT NOT NULL,"
                       " exit_code INTEGER NOT NULL DEFAULT 0,"
                       " duration_ms INTEGER NOT NULL DEFAULT 0,"
                       " output_tail TEXT NOT NULL DEFAULT '',"
                       " log_file TEXT NOT NULL DEFAULT '',"
                       " files TEXT NOT NULL DEFAULT '[]',"
                       " owner_pid INTEGER NOT NULL,"
                       " started_at INTEGER NOT NULL,"
                       " finished_at INTEGER NOT NULL DEFAULT 0)"),
        QStringLiteral("CREATE INDEX runs_by_conversation ON runs(conversation_id, id)"),
        QStringLiteral("CREATE TABLE conversation_settings ("
                       " conversation_id TEXT NOT NULL"
                       "  REFERENCES conversations(id) ON DELETE CASCADE,"
                       " key TEXT NOT NULL,"
                       " value TEXT NOT NULL,"
                       " PRIMARY KEY (conversation_id, key))"),
    };
}

// Schema 1 -> 2: full-text search over messages, kept in step by triggers, filled from what is
// there.
QStringList searchIndex()
{
    return QStringList{QStringLiteral("CREATE VIRTUAL TABLE messages_fts USING fts5("
                                      "content, content='messages', content_rowid='id')")}
           + ftsTriggers()
           + QStringList{QStringLiteral("INSERT INTO messages_fts(rowid, content)"
                                        " SELECT id, COALESCE(content, '') FROM messages")};
}

// Schema 2 -> 3: message counts kept by triggers, the running runs indexed, FTS5 prefixes.
QStringList countsAndPrefixes()
{
    // A store of many conversations (issue 22): what start-up and the sidebar read no longer
    // grows with the number of messages, and a search no longer with the number of matches.
    return QStringList{
               // Each conversation's message count, kept by triggers: the list read a
               // COUNT(*) over each one's messages (every message's index entry).
               QStringLiteral("ALTER TABLE conversations"
                              " ADD COLUMN message_count INTEGER NOT NULL DEFAULT 0"),
               QStringLiteral("UPDATE conversations SET message_count = (SELECT COUNT(*)"
                              " FROM messages m WHERE m.conversation_id = conversations.id)"),
               QStringLiteral("CREATE TRIGGER messages_count_insert AFTER INSERT ON messages"
                              " BEGIN UPDATE conversations SET message_count = message_count"
                              " + 1 WHERE id = new.conversation_id; END"),
               QStringLiteral("CREATE TRIGGER messages_count_delete AFTER DELETE ON messages"
                              " BEGIN UPDATE conversations SET message_count = message_count"
                              " - 1 WHERE id = old.conversation_id; END"),
               // The runs still going, found on open without reading every run.
               QStringLiteral("CREATE INDEX runs_running ON runs(owner_pid)"
                              " WHERE status = 'running'"),
               // Prefixes of two and three characters indexed too: a short last word (the
               // sidebar searches as the person types) is one lookup, not a merge of every
               // word that starts with it.
               QStringLiteral("DROP TRIGGER messages_fts_insert"),
               QStringLiteral("DROP TRIGGER messages_fts_delete"),
               QStringLiteral("DROP TRIGGER messages_fts_update"),
               QStringLiteral("DROP TABLE messages_fts"),
               QStringLiteral("CREATE VIRTUAL TABLE messages_fts USING fts5(content,"
                              " content='messages', content_rowid='id', prefix='2 3')"),
           }
           + ftsTriggers()
           + QStringList{
               QStringLiteral("INSERT INTO messages_fts(messages_fts) VALUES('rebuild')")};
}

} // namespace

QStringList migration(int fromVersion)
{
    switch (fromVersion) {
    case 0:
        return createdTables();
    case 1:
        return searchIndex();
    case 2:
        return countsAndPrefixes();
    default:
        return {};
    }
}

int primaryCode(const QSqlError &error)
{
    bool ok = false;
    const int code = error.nativeErrorCode().toInt(&ok);
    return ok ? (code & 0xff) : -1;
}

Result<qint64> insertMessage(QSqlDatabase &db,
                             const QString &conversationId,
                             const nlohmann::json &message,
                             QSqlError *error)
{
    QSqlQuery q(db);
    q.prepare(
        QStringLiteral("INSERT INTO messages"
                       " (conversation_id, role, content, reasoning, tool_calls, tool_call_id,"
                       "  created_at) VALUES (?, ?, ?, ?, ?, ?, ?)"));
    auto field = [&](const char *key) {
        const auto it = message.find(key);
        return it != message.end() && it->is_string()
                   ? QVariant(text(QString::fromStdString(it->get<std::string>())))
                   : QVariant(QMetaType(QMetaType::QString));
    };
    q.addBindValue(conversationId);
    q.addBindValue(QString::fromStdString(message["role"].get<std::string>()));
    q.addBindValue(field("content"));
    q.addBindValue(field("reasoning"));
    const auto calls = message.find("tool_calls");
    q.addBindValue(calls != message.end() && calls->is_array()
                       ? QVariant(jsonText(*calls))
                       : QVariant(QMetaType(QMetaType::QString)));
    q.addBindValue(field("tool_call_id"));
    q.addBindValue(now());
    if (!q.exec()) {
        if (error)
            *error = q.lastError();
        return queryFailure<qint64>(q, QStringLiteral("save the message"));
    }
    return Result<qint64>::ok(q.lastInsertId().toLongLong());
}

Result<qint64> insertRun(QSqlDatabase &db, const StoredRun &run, QSqlError *error)
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral("INSERT INTO runs (conversation_id, tool_call_id, code, language,"
                             " origin, status, owner_pid, started_at)"
                             " VALUES (?, ?, ?, ?, ?, 'running', ?, ?)"));
    q.addBindValue(run.conversationId);
    q.addBindValue(run.toolCallId);
    q.addBindValue(text(run.code));
    q.addBindValue(text(run.language));
    q.addBindValue(text(run.origin));
    q.addBindValue(qint64(::getpid()));
    q.addBindValue(now());
    if (!q.exec()) {
        if (error)
            *error = q.lastError();
        return queryFailure<qint64>(q, QStringLiteral("save the run"));
    }
    return Result<qint64>::ok(q.lastInsertId().toLongLong());
}

Result<bool>
finishRun(QSqlDatabase &db, qint64 runId, const ExecutionResult &result, QSqlError *error)
{
    QString tail = result.stdoutText;
    if (!result.stderrText.isEmpty())
        tail += (tail.isEmpty() || tail.endsWith(QLatin1Char('\n')) ? QString()
                                                                    : QStringLiteral("\n"))
                + result.stderrText;
    if (!result.error.isEmpty())
        tail += (tail.isEmpty() || tail.endsWith(QLatin1Char('\n')) ? QString()
                                                                    : QStringLiteral("\n"))
                + result.error;
    if (tail.size() > StoredRun::OutputTailChars)
        tail = QStringLiteral("[...]\n") + tail.right(StoredRun::OutputTailChars);
    nlohmann::json files = nlohmann::json::array();
    for (const QString &f : result.files)
        files.push_back(f.toStdString());
    QSqlQuery q(db);
    q.prepare(QStringLiteral("UPDATE runs SET status = ?, exit_code = ?, duration_ms = ?,"
                             " output_tail = ?, log_file = ?, files = ?, finished_at = ?"
                             " WHERE id = ?"));
    q.addBindValue(ExecutionResult::statusName(result.status));
    q.addBindValue(result.exitCode);
    q.addBindValue(result.durationMs);
    q.addBindValue(text(tail));
    q.addBindValue(text(result.logFile));
    q.addBindValue(jsonText(files));
    q.addBindValue(now());
    q.addBindValue(runId);
    if (!q.exec()) {
        if (error)
            *error = q.lastError();
        return queryFailure<bool>(q, QStringLiteral("save the run's result"));
    }
    return Result<bool>::ok(true);
}

Result<bool> touch(QSqlDatabase &db, const QString &conversationId)
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral("UPDATE conversations SET updated_at = ? WHERE id = ?"));
    q.addBindValue(now());
    q.addBindValue(conversationId);
    if (!q.exec())
        return queryFailure<bool>(q, QStringLiteral("update the conversation"));
    return Result<bool>::ok(true);
}

} // namespace Sandcastle::StoreSql
