#pragma once

#include <sandbox/containerengine.h>

#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <QStringList>
#include <QVariant>

// What the security and conversation suites check on disk after a fault or a crash.
namespace Sandcastle::Testing::DataChecks {

inline // Runs one statement on the database file directly; its first value.
    QVariant
    rawValue(const QString &path, const QString &sql, QString *error = nullptr)
{
    QVariant value;
    {
        QSqlDatabase db
            = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw"));
        db.setDatabaseName(path);
        if (db.open()) {
            QSqlQuery q(db);
            if (!q.exec(sql)) {
                if (error)
                    *error = q.lastError().text();
            } else if (q.next()) {
                value = q.value(0);
            }
            q.finish();
            db.close();
        } else if (error) {
            *error = db.lastError().text();
        }
    }
    QSqlDatabase::removeDatabase(QStringLiteral("raw"));
    return value;
}

// SQLite's own verdict on a store file: "ok" when it is intact.
inline QString integrityCheck(const QString &path)
{
    return rawValue(path, QStringLiteral("PRAGMA integrity_check")).toString();
}

// The containers (running or not) of one conversation.
inline QStringList conversationContainers(const QString &id)
{
    const ContainerEngine engine;
    return QString::fromUtf8(engine
                                 .run({QStringLiteral("ps"),
                                       QStringLiteral("--all"),
                                       QStringLiteral("--quiet"),
                                       QStringLiteral("--filter"),
                                       QStringLiteral("label=sandcastle.conversation=") + id})
                                 .stdoutData)
        .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

// Every file under `dir` that holds `needle`.
inline QStringList filesContaining(const QString &dir, const QByteArray &needle)
{
    QStringList hits;
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (QFileInfo(path).isSymLink())
            continue;
        QFile file(path);
        if (file.open(QIODevice::ReadOnly) && file.readAll().contains(needle))
            hits << path;
    }
    return hits;
}

} // namespace Sandcastle::Testing::DataChecks
