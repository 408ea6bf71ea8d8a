#include <sandbox/pathguard.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <unistd.h>

using namespace Sandcastle;

// The host never follows a link the sandboxed code planted in its workspace.
class TestPathGuard : public QObject
{
    Q_OBJECT

    QTemporaryDir m_root;

    void write(const QString &relative, const QByteArray &data)
    {
        QDir().mkpath(QFileInfo(m_root.filePath(relative)).absolutePath());
        QFile file(m_root.filePath(relative));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(data);
    }

private Q_SLOTS:
    void refusesPathsThatLeaveTheWorkspace_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("absolute") << QStringLiteral("/etc/passwd");
        QTest::newRow("dotdot") << QStringLiteral("../secret");
        QTest::newRow("inner dotdot") << QStringLiteral("a/../../b");
        QTest::newRow("empty") << QString();
        QTest::newRow("dot") << QStringLiteral("./.");
        // Found by fuzz_pathguard: accepted as "\\windows", which the check itself refuses.
        QTest::newRow("backslash after dot") << QStringLiteral("./\\windows");
        QTest::newRow("nul") << QStringLiteral("a") + QChar(0) + QStringLiteral("b");
    }

    void refusesPathsThatLeaveTheWorkspace()
    {
        QFETCH(QString, path);
        QVERIFY(!PathGuard::checkRelative(path));
        QVERIFY(!PathGuard::readFile(m_root.path(), path, 1024));
    }

    void normalisesHarmlessPaths()
    {
        QCOMPARE(PathGuard::checkRelative(QStringLiteral("./data//out.csv")).value(),
                 QStringLiteral("data/out.csv"));
    }

    void readsRegularFilesWithinALimit()
    {
        write(QStringLiteral("sub/data.txt"), "0123456789");
        bool truncated = true;
        QCOMPARE(PathGuard::readFile(m_root.path(), QStringLiteral("sub/data.txt"), 100, &truncated)
                     .value(),
                 QByteArray("0123456789"));
        QVERIFY(!truncated);
        QCOMPARE(PathGuard::readFile(m_root.path(), QStringLiteral("sub/data.txt"), 4, &truncated)
                     .value(),
                 QByteArray("0123"));
        QVERIFY(truncated);
        QVERIFY(!PathGuard::readFile(m_root.path(), QStringLiteral("sub"), 100)); // a folder
        QVERIFY(!PathGuard::readFile(m_root.path(), QStringLiteral("missing.txt"), 100));
    }

    void refusesASymlinkToEtcPasswd()
    {
        QVERIFY(
            QFile::link(QStringLiteral("/etc/passwd"), m_root.filePath(QStringLiteral("passwd"))));
        const auto result = PathGuard::readFile(m_root.path(), QStringLiteral("passwd"), 1 << 20);
        QVERIFY(!result);
        QVERIFY2(result.error().contains(QStringLiteral("symlink")), qPrintable(result.error()));
    }

    void refusesAFolderLinkOnTheWay()
    {
        QVERIFY(QFile::link(QStringLiteral("/etc"), m_root.filePath(QStringLiteral("etc"))));
        const auto result
            = PathGuard::readFile(m_root.path(), QStringLiteral("etc/passwd"), 1 << 20);
        QVERIFY(!result);
        QVERIFY2(result.error().contains(QStringLiteral("symlink")), qPrintable(result.error()));
    }

    void createsFoldersAndFilesForWritingButNeverThroughALink()
    {
        const auto fd = PathGuard::openInside(m_root.path(),
                                              QStringLiteral("new/deeper/log.txt"),
                                              O_WRONLY | O_CREAT | O_TRUNC,
                                              true);
        QVERIFY(fd);
        QCOMPARE(::write(fd.value(), "ok", 2), ssize_t(2));
        ::close(fd.value());
        QCOMPARE(
            PathGuard::readFile(m_root.path(), QStringLiteral("new/deeper/log.txt"), 10).value(),
            QByteArray("ok"));

        QTemporaryDir outside;
        QVERIFY(QFile::link(outside.filePath(QStringLiteral("target")),
                            m_root.filePath(QStringLiteral("trap.txt"))));
        QVERIFY(!PathGuard::openInside(
            m_root.path(), QStringLiteral("trap.txt"), O_WRONLY | O_CREAT | O_TRUNC, true));
        QVERIFY(!QFile::exists(outside.filePath(QStringLiteral("target"))));
    }

    void refusesAHardLinkForReadingAndLeavesItsFileWhole()
    {
        // A host file with a second name in the workspace (same file system: the temp dir).
        QTemporaryDir host(m_root.path() + QStringLiteral("/../host-XXXXXX"));
        const QString secret = host.filePath(QStringLiteral("secret.txt"));
        {
            QFile file(secret);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("host secret");
        }
        QCOMPARE(::link(QFile::encodeName(secret).constData(),
                        QFile::encodeName(m_root.filePath(QStringLiteral("hard.txt"))).constData()),
                 0);
        const auto read = PathGuard::readFile(m_root.path(), QStringLiteral("hard.txt"), 1 << 20);
        QVERIFY(!read);
        QVERIFY2(read.error().contains(QStringLiteral("hard link")), qPrintable(read.error()));
        // Opening it to write (and truncate) is refused before anything is cut.
        QVERIFY(!PathGuard::openInside(
            m_root.path(), QStringLiteral("hard.txt"), O_WRONLY | O_CREAT | O_TRUNC, true));
        QFile file(secret);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("host secret"));
    }

    void truncatesAnOrdinaryFileOpenedForWriting()
    {
        write(QStringLiteral("plain.txt"), "longer text");
        const auto fd = PathGuard::openInside(
            m_root.path(), QStringLiteral("plain.txt"), O_WRONLY | O_CREAT | O_TRUNC);
        QVERIFY(fd);
        QCOMPARE(::write(fd.value(), "new", 3), ssize_t(3));
        ::close(fd.value());
        QCOMPARE(PathGuard::readFile(m_root.path(), QStringLiteral("plain.txt"), 100).value(),
                 QByteArray("new"));
    }
};

QTEST_GUILESS_MAIN(TestPathGuard)
#include "tst_pathguard.moc"
