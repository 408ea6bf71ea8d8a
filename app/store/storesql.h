#pragma once

// The statements the store and its message writer share (app/store internals).
#include "storedrun.h"

#include <base/result.h>
#include <sandbox/executionresult.h>

#include <nlohmann/json.hpp>

#include <QString>

#include <QSqlError>
#include <QSqlQuery>
#include <QStringList>

class QSqlDatabase;

namespace Sandcastle::StoreSql {

qint64 now();
QString errorText(const QSqlError &error);
template<typename T>
Result<T> queryFailure(const QSqlQuery &query, const QString &what)
{
    return Result<T>::failure(
        QStringLiteral("could not %1: %2").arg(what, errorText(query.lastError())));
}
// A null QString binds as SQL NULL; the NOT NULL text columns get '' instead.
QString text(const QString &value);
QString jsonText(const nlohmann::json &value);
nlohmann::json parseJson(const QString &text);
// The statements of migration N, which takes the schema from version N to N + 1 (empty past
// the newest version).
QStringList migration(int fromVersion);
// SQLite's primary result code of a failed statement (SQLITE_CONSTRAINT is 19), or -1.
int primaryCode(const QSqlError &error);
// INSERT of one Chat Completions message (the caller holds the transaction); its row id.
// Failures keep the driver's error in `error` when given.
Result<qint64> insertMessage(QSqlDatabase &db,
                             const QString &conversationId,
                             const nlohmann::json &message,
                             QSqlError *error = nullptr);
// INSERT of a run as it starts (status "running"); its row id.
Result<qint64> insertRun(QSqlDatabase &db, const StoredRun &run, QSqlError *error = nullptr);
// A run's result (its output's tail kept, at most StoredRun::OutputTailChars characters).
Result<bool> finishRun(QSqlDatabase &db,
                       qint64 runId,
                       const ExecutionResult &result,
                       QSqlError *error = nullptr);
// The conversation's updated_at becomes now.
Result<bool> touch(QSqlDatabase &db, const QString &conversationId);

} // namespace Sandcastle::StoreSql
