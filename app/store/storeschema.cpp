#include "storeschema.h"

#include "conversationstore.h"
#include "storesql.h"

#include <QDir>
#include <QFileInfo>
#include <QFuture>
#include <QHash>
#include <QMutex>
#include <QScopeGuard>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>
#include <QtConcurrent>

namespace Sandcastle::StoreSchema {

namespace {

Result<int> schemaVersion(QSqlDatabase &db, const QString &path)
{
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("PRAGMA user_version")) || !q.next())
        return Result<int>::failure(QStringLiteral("%1 is not a usable Sandcastle database: %2")
                                        .arg(path, StoreSql::errorText(q.lastError())));
    return Result<int>::ok(q.value(0).toInt());
}

Result<bool> migrate(QSqlDatabase &db, const QString &path, int version)
{
    if (version >= ConversationStore::kSchemaVersion)
        return Result<bool>::ok(true);
    QSqlQuery q(db);
    // The migrations' commits need not each wait for the disk (a new database's first start
    // made ten fdatasync calls): WAL keeps every commit atomic at NORMAL, one lost to a power
    // cut is run again at the next open (the version is raised in the same transaction), and
    // the first commit at FULL afterwards puts them all on disk.
    q.exec(QStringLiteral("PRAGMA synchronous=NORMAL"));
    const auto restore = qScopeGuard([&q] { q.exec(QStringLiteral("PRAGMA synchronous=FULL")); });
    for (; version < ConversationStore::kSchemaVersion; ++version) {
        if (!db.transaction())
            return Result<bool>::failure(QStringLiteral("could not start a migration: ")
                                         + StoreSql::errorText(db.lastError()));
        for (const QString &sql : StoreSql::migration(version)) {
            if (!q.exec(sql)) {
                const QString error = StoreSql::errorText(q.lastError());
                db.rollback();
                return Result<bool>::failure(
                    QStringLiteral("could not migrate %1 from schema %2: %3")
                        .arg(path)
                        .arg(version)
                        .arg(error));
            }
        }
        if (!q.exec(QStringLiteral("PRAGMA user_version = %1").arg(version + 1)) || !db.commit()) {
            const QString error = StoreSql::errorText(q.lastError());
            db.rollback();
            return Result<bool>::failure(
                QStringLiteral("could not migrate %1: %2").arg(path, error));
        }
    }
    return Result<bool>::ok(true);
}

struct Preparations
{
    QMutex mutex;
    QHash<QString, QFuture<void>> running;
};

Preparations &preparations()
{
    static Preparations instance;
    return instance;
}

} // namespace

Result<bool> bringUpToDate(const QString &connection, const QString &path)
{
    QSqlDatabase db = QSqlDatabase::database(connection, false);
    // The version first: a newer database is not touched at all (not even switched to WAL).
    const Result<int> version = schemaVersion(db, path);
    if (!version)
        return Result<bool>::failure(version.error());
    if (version.value() > ConversationStore::kSchemaVersion)
        return Result<bool>::failure(
            QStringLiteral("%1 was written by a newer Sandcastle (schema %2; this one knows up to "
                           "%3); it was left untouched")
                .arg(path)
                .arg(version.value())
                .arg(ConversationStore::kSchemaVersion));
    // WAL: readers never block the writer, and a commit is one append. FULL: each commit is on
    // disk (fsync) before it returns, so what was said to be saved survives a power cut too.
    QSqlQuery q(db);
    for (const char *pragma :
         {"PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL", "PRAGMA foreign_keys=ON"}) {
        if (!q.exec(QString::fromLatin1(pragma)))
            return Result<bool>::failure(
                QStringLiteral("%1 is not a usable Sandcastle database: %2")
                    .arg(path, StoreSql::errorText(q.lastError())));
    }
    return migrate(db, path, version.value());
}

void prepareInBackground(const QString &path)
{
    Preparations &all = preparations();
    const QMutexLocker lock(&all.mutex);
    if (all.running.contains(path))
        return;
    all.running.insert(
        path, QtConcurrent::run([path] {
            QDir().mkpath(QFileInfo(path).absolutePath());
            const QString connection = QStringLiteral("store-prepare-")
                                       + QUuid::createUuid().toString(QUuid::WithoutBraces);
            {
                QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connection);
                db.setDatabaseName(path);
                db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
                if (db.open())
                    bringUpToDate(connection, path);
                db.close();
            }
            QSqlDatabase::removeDatabase(connection);
        }));
}

bool waitForPreparation(const QString &path)
{
    Preparations &all = preparations();
    QFuture<void> running;
    {
        const QMutexLocker lock(&all.mutex);
        if (!all.running.contains(path))
            return false;
        running = all.running.take(path);
    }
    running.waitForFinished();
    return true;
}

} // namespace Sandcastle::StoreSchema
