#include <app/store/conversationremoval.h>
#include <app/store/conversationstore.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QtTest>

using namespace Sandcastle;

// The workspaces of conversations never saved: removed when nothing was put in them, never a
// file deleted, never a folder outside the data folder, never one another process is using.
class TestWorkspaceSweep : public QObject
{
    Q_OBJECT

    QTemporaryDir m_data;

    QString workspace(const QString &id) const
    {
        return m_data.filePath(QStringLiteral("workspaces/") + id);
    }
    QString made(const QString &id) const
    {
        const QString path = workspace(id);
        QDir().mkpath(path);
        return path;
    }
    static void write(const QString &path, const QByteArray &content)
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(content);
    }

private Q_SLOTS:
    void anEmptyWorkspaceGoesWithItsEmptyFolders()
    {
        const QString path = made(QStringLiteral("empty"));
        QVERIFY(QDir().mkpath(path + QStringLiteral("/.sandcastle/deep/er")));
        QVERIFY(QDir().mkpath(path + QStringLiteral("/outputs")));
        QVERIFY(ConversationRemoval::removeEmptyWorkspace(m_data.path(), path));
        QVERIFY(!QFileInfo::exists(path));
        // One never made is gone already.
        QVERIFY(ConversationRemoval::removeEmptyWorkspace(m_data.path(),
                                                          workspace(QStringLiteral("never"))));
    }

    void anythingButAnEmptyFolderKeepsIt()
    {
        const QString hidden = made(QStringLiteral("hidden"));
        QVERIFY(QDir().mkpath(hidden + QStringLiteral("/sub")));
        write(hidden + QStringLiteral("/sub/.note"), "kept");
        QVERIFY(!ConversationRemoval::removeEmptyWorkspace(m_data.path(), hidden));
        QVERIFY(QFileInfo::exists(hidden + QStringLiteral("/sub/.note")));

        const QString linked = made(QStringLiteral("linked"));
        QVERIFY(QFile::link(QStringLiteral("/nonexistent"), linked + QStringLiteral("/dangling")));
        QVERIFY(!ConversationRemoval::removeEmptyWorkspace(m_data.path(), linked));
        QVERIFY(QFileInfo(linked + QStringLiteral("/dangling")).isSymLink());

        // A link in place of the workspace, and a folder outside the data folder: left alone.
        QTemporaryDir outside;
        QVERIFY(QFile::link(outside.path(), workspace(QStringLiteral("link"))));
        QVERIFY(!ConversationRemoval::removeEmptyWorkspace(m_data.path(),
                                                           workspace(QStringLiteral("link"))));
        QVERIFY(QFileInfo::exists(outside.path()));
        QVERIFY(!ConversationRemoval::removeEmptyWorkspace(m_data.path(), outside.path()));
        QVERIFY(QFileInfo::exists(outside.path()));
    }

    void theSweepPassesByStoredLockedAndKeptWorkspaces()
    {
        QTemporaryDir data;
        const auto at = [&data](const QString &id) {
            const QString path = data.filePath(QStringLiteral("workspaces/") + id);
            QDir().mkpath(path);
            return path;
        };
        ConversationStore store;
        QVERIFY(store.open(data.filePath(QStringLiteral("store.sqlite3"))));
        QVERIFY(store.create(
            QStringLiteral("stored"), QStringLiteral("S"), at(QStringLiteral("stored")), true));
        const QString locked = at(QStringLiteral("locked"));
        const auto lock = ConversationRemoval::lockWorkspace(data.path(), QStringLiteral("locked"));
        QVERIFY(lock->isLocked());
        const QString kept = at(QStringLiteral("kept"));
        const QString full = at(QStringLiteral("full"));
        write(full + QStringLiteral("/data.csv"), "a,b\n");
        at(QStringLiteral("left1"));
        at(QStringLiteral("left2"));
        // A lock left by a process that is gone holds nothing.
        QVERIFY(QDir().mkpath(data.filePath(QStringLiteral("locks"))));
        QProcess gone;
        gone.start(QStringLiteral("true"), {});
        QVERIFY(gone.waitForStarted());
        const qint64 pid = gone.processId();
        QVERIFY(gone.waitForFinished());
        write(data.filePath(QStringLiteral("locks/workspace-left2.lock")),
              QByteArray::number(pid) + "\ntrue\n" + QSysInfo::machineHostName().toUtf8() + '\n'
                  + QSysInfo::machineUniqueId() + '\n' + QSysInfo::bootUniqueId() + '\n');

        QCOMPARE(ConversationRemoval::sweepEmptyWorkspaces(store, data.path(), kept), 2);
        QCOMPARE(QDir(data.filePath(QStringLiteral("workspaces")))
                     .entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name),
                 (QStringList{QStringLiteral("full"),
                              QStringLiteral("kept"),
                              QStringLiteral("locked"),
                              QStringLiteral("stored")}));
        QVERIFY(QFileInfo::exists(locked));
    }
};

QTEST_GUILESS_MAIN(TestWorkspaceSweep)
#include "tst_workspacesweep.moc"
