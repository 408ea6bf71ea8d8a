#include <sandbox/workspacesnapshot.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace Sandcastle;

class TestWorkspaceSnapshot : public QObject
{
    Q_OBJECT

    static void write(const QString &path, const QByteArray &data)
    {
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(data);
    }

private Q_SLOTS:
    void reportsCreatedAndChangedFilesButNotUntouchedOnes()
    {
        QTemporaryDir dir;
        write(dir.filePath(QStringLiteral("same.txt")), "same");
        write(dir.filePath(QStringLiteral("edit.txt")), "before");
        const WorkspaceSnapshot before = WorkspaceSnapshot::take(dir.path());
        write(dir.filePath(QStringLiteral("edit.txt")), "after, longer");
        write(dir.filePath(QStringLiteral("sub/new.csv")), "a,b\n");
        const QStringList changed
            = WorkspaceSnapshot::changedFiles(before, WorkspaceSnapshot::take(dir.path()));
        QCOMPARE(changed, (QStringList{QStringLiteral("edit.txt"), QStringLiteral("sub/new.csv")}));
    }

    void skipsThePrivateFolderAndDoesNotFollowSymlinks()
    {
        QTemporaryDir dir;
        QTemporaryDir outside;
        write(outside.filePath(QStringLiteral("secret")), "do not list");
        const WorkspaceSnapshot before = WorkspaceSnapshot::take(dir.path());
        write(dir.filePath(QStringLiteral(".sandcastle/run.log")), "log");
        QVERIFY(QFile::link(outside.path(), dir.filePath(QStringLiteral("escape"))));
        QVERIFY(QFile::link(outside.filePath(QStringLiteral("secret")),
                            dir.filePath(QStringLiteral("link"))));
        const QStringList changed
            = WorkspaceSnapshot::changedFiles(before, WorkspaceSnapshot::take(dir.path()));
        QVERIFY2(changed.isEmpty(), qPrintable(changed.join(QLatin1Char(','))));
    }

    void anEmptyRootIsAnEmptySnapshot()
    {
        QCOMPARE(WorkspaceSnapshot::take(QString()).size(), 0);
        QCOMPARE(WorkspaceSnapshot::take(QStringLiteral("/nonexistent/sandcastle")).size(), 0);
    }
};

QTEST_GUILESS_MAIN(TestWorkspaceSnapshot)
#include "tst_workspacesnapshot.moc"
