#include <sandbox/workspacewatcher.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace Sandcastle;

// The watcher against real folders: the run's files come from inotify events, and they are
// what WorkspaceSnapshot::changedFiles() would have said.
class TestWorkspaceWatcher : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;

    QString path(const QString &relative) const { return m_dir->filePath(relative); }

    static void write(const QString &path, const QByteArray &data)
    {
        QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QCOMPARE(file.write(data), data.size());
    }

    std::unique_ptr<WorkspaceWatcher> started()
    {
        auto watcher = std::make_unique<WorkspaceWatcher>(m_dir->path());
        if (!watcher->start())
            qWarning("%s", qPrintable(watcher->failure()));
        return watcher;
    }

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
    }
    void cleanup() { m_dir.reset(); }

    void reportsCreatedAndModifiedFilesButNotUntouchedOrDeletedOnes()
    {
        write(path(QStringLiteral("same.txt")), "same");
        write(path(QStringLiteral("edit.txt")), "before");
        write(path(QStringLiteral("gone.txt")), "delete me");
        auto watcher = started();
        QVERIFY(watcher->isWatching());
        QVERIFY(watcher->begin());
        write(path(QStringLiteral("edit.txt")), "after");
        write(path(QStringLiteral("new.csv")), "a,b\n");
        write(path(QStringLiteral("brief.txt")), "made and removed in the run");
        QVERIFY(QFile::remove(path(QStringLiteral("brief.txt"))));
        QVERIFY(QFile::remove(path(QStringLiteral("gone.txt"))));
        QCOMPARE(watcher->finish(),
                 (QStringList{QStringLiteral("edit.txt"), QStringLiteral("new.csv")}));
        // The next run starts from nothing.
        QVERIFY(watcher->begin());
        QCOMPARE(watcher->finish(), QStringList());
    }

    void changesBetweenRunsAreNotTheNextRunsFiles()
    {
        auto watcher = started();
        write(path(QStringLiteral("before.txt")), "written by the person");
        QVERIFY(QDir().mkpath(path(QStringLiteral("later"))));
        QVERIFY(watcher->begin());
        write(path(QStringLiteral("later/inside.txt")), "the new folder is watched");
        QCOMPARE(watcher->finish(), QStringList{QStringLiteral("later/inside.txt")});
    }

    void aTouchWithoutAWriteCounts()
    {
        write(path(QStringLiteral("old.txt")), "x");
        auto watcher = started();
        QVERIFY(watcher->begin());
        const timespec times[2] = {{0, UTIME_NOW}, {1000, 0}};
        QCOMPARE(
            ::utimensat(
                AT_FDCWD, QFile::encodeName(path(QStringLiteral("old.txt"))).constData(), times, 0),
            0);
        QCOMPARE(watcher->finish(), QStringList{QStringLiteral("old.txt")});
    }

    void filesRenamedIntoTheWorkspaceAreReported()
    {
        QTemporaryDir outside;
        write(outside.filePath(QStringLiteral("report.pdf")), "%PDF");
        write(outside.filePath(QStringLiteral("tree/a/b.txt")), "b");
        write(path(QStringLiteral("draft.txt")), "draft");
        write(path(QStringLiteral("old/kept.txt")), "kept");
        auto watcher = started();
        QVERIFY(watcher->begin());
        QVERIFY(QFile::rename(outside.filePath(QStringLiteral("report.pdf")),
                              path(QStringLiteral("report.pdf"))));
        QVERIFY(
            QFile::rename(outside.filePath(QStringLiteral("tree")), path(QStringLiteral("tree"))));
        QVERIFY(
            QFile::rename(path(QStringLiteral("draft.txt")), path(QStringLiteral("final.txt"))));
        QVERIFY(QDir().rename(path(QStringLiteral("old")), path(QStringLiteral("new"))));
        // A folder moved within the workspace is watched under its new name.
        write(path(QStringLiteral("new/later.txt")), "later");
        QCOMPARE(watcher->finish(),
                 (QStringList{QStringLiteral("final.txt"),
                              QStringLiteral("new/kept.txt"),
                              QStringLiteral("new/later.txt"),
                              QStringLiteral("report.pdf"),
                              QStringLiteral("tree/a/b.txt")}));
        QVERIFY(watcher->begin());
        write(path(QStringLiteral("new/again.txt")), "again");
        write(path(QStringLiteral("tree/a/c.txt")), "c");
        QCOMPARE(watcher->finish(),
                 (QStringList{QStringLiteral("new/again.txt"), QStringLiteral("tree/a/c.txt")}));
    }

    void filesInFoldersMadeDuringTheRunAreFoundAtOnce()
    {
        auto watcher = started();
        QVERIFY(watcher->begin());
        // Written before the watcher reads the folder's creation, so before its watch exists.
        for (int i = 0; i < 5; ++i)
            write(path(QStringLiteral("deep/er/%1/file.txt").arg(i)), "x");
        QCOMPARE(watcher->finish().size(), 5);
        QVERIFY(watcher->begin());
        write(path(QStringLiteral("deep/er/4/second.txt")), "y");
        QCOMPARE(watcher->finish(), QStringList{QStringLiteral("deep/er/4/second.txt")});
    }

    void symlinksAreNotFollowedNorReportedAndTheNamesMayBeAnyBytes()
    {
        QTemporaryDir outside;
        write(outside.filePath(QStringLiteral("secret")), "do not list");
        auto watcher = started();
        QVERIFY(watcher->begin());
        QVERIFY(QFile::link(outside.path(), path(QStringLiteral("escape"))));
        QVERIFY(
            QFile::link(outside.filePath(QStringLiteral("secret")), path(QStringLiteral("link"))));
        write(outside.filePath(QStringLiteral("through.txt")), "outside, written through the link");
        const QByteArray latin1 = QFile::encodeName(m_dir->path()) + "/caf\xe9.txt";
        const int fd = ::open(latin1.constData(), O_WRONLY | O_CREAT, 0644);
        QVERIFY(fd >= 0);
        ::close(fd);
        const QStringList files = watcher->finish();
        QCOMPARE(files.size(), 1);
        QVERIFY2(files.first().startsWith(QStringLiteral("caf")), qPrintable(files.first()));
        QCOMPARE(files.first(), QString::fromUtf8("caf\xe9.txt"));
        QCOMPARE(::unlink(latin1.constData()), 0); // QTemporaryDir cannot name it
    }

    void aFileReplacedByASymlinkIsNotAFile()
    {
        write(path(QStringLiteral("data.txt")), "data");
        auto watcher = started();
        QVERIFY(watcher->begin());
        write(path(QStringLiteral("data.txt")), "changed");
        QVERIFY(QFile::remove(path(QStringLiteral("data.txt"))));
        QVERIFY(QFile::link(QStringLiteral("/etc/passwd"), path(QStringLiteral("data.txt"))));
        QCOMPARE(watcher->finish(), QStringList());
    }

    void thePrivateFolderIsNotWatched()
    {
        write(path(QStringLiteral(".sandcastle/run-1.log")), "old");
        auto watcher = started();
        QVERIFY(watcher->begin());
        write(path(QStringLiteral(".sandcastle/run-2.log")), "log");
        write(path(QStringLiteral(".sandcastle/run-1.log")), "rewritten");
        write(path(QStringLiteral("sub/.sandcastle/kept.txt")), "only the root's is private");
        QCOMPARE(watcher->finish(), QStringList{QStringLiteral("sub/.sandcastle/kept.txt")});
        QCOMPARE(watcher->totalBytes(), qint64(26));
    }

    void anOverflowWalksTheFolderAndStillFindsTheRunsFiles()
    {
        write(path(QStringLiteral("old.txt")), "untouched");
        write(path(QStringLiteral("a/edit.txt")), "before");
        auto watcher = started();
        QTest::qWait(20); // past the coarse clock's tick: old.txt's ctime is before the run
        QVERIFY(watcher->begin());
        write(path(QStringLiteral("a/edit.txt")), "after");
        write(path(QStringLiteral("b/new.txt")), "new");
        watcher->simulateOverflowForTest();
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("overflowed")));
        QCOMPARE(watcher->totalBytes(), qint64(9 + 5 + 3));
        write(path(QStringLiteral("b/c/late.txt")), "late"); // after the walk: watched again
        QCOMPARE(watcher->finish(),
                 (QStringList{QStringLiteral("a/edit.txt"),
                              QStringLiteral("b/c/late.txt"),
                              QStringLiteral("b/new.txt")}));
        QVERIFY(watcher->isWatching());
    }

    void aRealQueueOverflowIsCaught()
    {
        QFile limitFile(QStringLiteral("/proc/sys/fs/inotify/max_queued_events"));
        QVERIFY(limitFile.open(QIODevice::ReadOnly));
        const int limit = limitFile.readAll().trimmed().toInt();
        if (limit > 50000)
            QSKIP("the inotify queue here is too long to overflow quickly");
        QVERIFY(QDir().mkpath(path(QStringLiteral("many"))));
        auto watcher = started();
        QVERIFY(watcher->begin());
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("overflowed")));
        const QByteArray many = QFile::encodeName(path(QStringLiteral("many/")));
        for (int i = 0; i < limit / 2 + 100; ++i) { // create + close: two events each
            const QByteArray name = many + QByteArray::number(i);
            const int fd = ::open(name.constData(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
            QVERIFY(fd >= 0);
            ::close(fd);
        }
        QCOMPARE(watcher->finish().size(), limit / 2 + 100);
    }

    void theRunningTotalFollowsTheFiles()
    {
        write(path(QStringLiteral("a.bin")), QByteArray(1000, 'a'));
        auto watcher = started();
        QCOMPARE(watcher->totalBytes(), qint64(1000));
        write(path(QStringLiteral("d/b.bin")), QByteArray(500, 'b'));
        QCOMPARE(watcher->totalBytes(), qint64(1500));
        write(path(QStringLiteral("a.bin")), QByteArray(10, 'a'));
        QCOMPARE(watcher->totalBytes(), qint64(510));
        QTemporaryDir outside;
        QVERIFY(QDir().rename(path(QStringLiteral("d")), outside.filePath(QStringLiteral("d"))));
        QCOMPARE(watcher->totalBytes(), qint64(10));
        QVERIFY(QFile::remove(path(QStringLiteral("a.bin"))));
        QCOMPARE(watcher->totalBytes(), qint64(0));
    }

    void aFolderThatCannotBeOpenedIsNotWatched()
    {
        WorkspaceWatcher watcher(QStringLiteral("/nonexistent/sandcastle"));
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("not watching")));
        QVERIFY(!watcher.start());
        QVERIFY(!watcher.isWatching());
        QVERIFY(!watcher.failure().isEmpty());
        QVERIFY(!watcher.begin());
        QCOMPARE(watcher.totalBytes(), qint64(-1));
    }
};

QTEST_GUILESS_MAIN(TestWorkspaceWatcher)
#include "tst_workspacewatcher.moc"
