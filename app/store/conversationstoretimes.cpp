// ConversationStore::messageTimes(), apart from conversationstore.cpp: the notebook export
// orders the person's runs between the messages by it.
#include "conversationstore.h"

#include "storesql.h"

#include <QSqlDatabase>
#include <QSqlQuery>

namespace Sandcastle {

Result<QList<qint64>> ConversationStore::messageTimes(const QString &conversationId) const
{
    settle();
    if (!isOpen())
        return Result<QList<qint64>>::failure(QStringLiteral("the store is not open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.setForwardOnly(true);
    q.prepare(
        QStringLiteral("SELECT created_at FROM messages WHERE conversation_id = ? ORDER BY id"));
    q.addBindValue(conversationId);
    if (!q.exec())
        return StoreSql::queryFailure<QList<qint64>>(q, QStringLiteral("read the messages"));
    QList<qint64> times;
    while (q.next())
        times << q.value(0).toLongLong();
    return Result<QList<qint64>>::ok(times);
}

} // namespace Sandcastle
