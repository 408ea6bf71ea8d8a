#pragma once

// The statements the store and its message writer share (app/store internals).
#include <base/result.h>

#include <nlohmann/json.hpp>

#include <QString>

class QSqlDatabase;
class QSqlError;

namespace Sandcastle::StoreSql {

QString errorText(const QSqlError &error);
// SQLite's primary result code of a failed statement (SQLITE_CONSTRAINT is 19), or -1.
int primaryCode(const QSqlError &error);
// INSERT of one Chat Completions message (the caller holds the transaction); its row id.
// Failures keep the driver's error in `error` when given.
Result<qint64> insertMessage(QSqlDatabase &db,
                             const QString &conversationId,
                             const nlohmann::json &message,
                             QSqlError *error = nullptr);
// The conversation's updated_at becomes now.
Result<bool> touch(QSqlDatabase &db, const QString &conversationId);

} // namespace Sandcastle::StoreSql
