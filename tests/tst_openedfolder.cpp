#include <sandbox/sandboxsession.h>
#include <support/dockercheck.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace Sandcastle;

// A folder the person opened, against the real engine: the code runs as the folder's owner,
// nothing in it is chowned, and a folder owned by root is mounted read-only (never uid 0).
class TestOpenedFolder : public QObject
{
    Q_OBJECT

    static ExecutionResult runIn(const QString &folder, const QString &code, SandboxConfig *used)
    {
        SandboxConfig config = SandboxConfig::fromEnvironment();
        config.workspace = folder;
        config.conversationId = QStringLiteral("tst-openedfolder");
        config.useOpenedFolder();
        *used = config;
        SandboxSession session(config);
        QSignalSpy finished(&session, &SandboxSession::finished);
        session.runPython(code);
        return Testing::resultOf(finished);
    }

    static struct stat lstatOf(const QString &path)
    {
        struct stat st
        {
        };
        ::lstat(QFile::encodeName(path).constData(), &st);
        return st;
    }

    static void write(const QString &path, const QByteArray &data, mode_t mode)
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QCOMPARE(file.write(data), data.size());
        file.close();
        QCOMPARE(::chmod(QFile::encodeName(path).constData(), mode), 0);
    }

private Q_SLOTS:
    void initTestCase() { SANDCASTLE_REQUIRE_DOCKER(); }

    void theCodeWritesAsTheFoldersOwnerAndChownsNothing()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // Root hands the folder to a person (1000); anyone else opens their own folder.
        const uid_t owner = ::getuid() == 0 ? 1000 : ::getuid();
        const gid_t group = ::getuid() == 0 ? 1000 : ::getgid();
        const QString notes = dir.filePath(QStringLiteral("notes.txt"));
        write(notes, "kept\n", 0640);
        for (const QString &path : {dir.path(), notes})
            QCOMPARE(::chown(QFile::encodeName(path).constData(), owner, group), 0);

        SandboxConfig config;
        const ExecutionResult result
            = runIn(dir.path(),
                    QStringLiteral("import os\nprint('uid', os.getuid(), os.getgid())\n"
                                   "open('made.txt', 'w').write('new')\n"
                                   "open('notes.txt', 'a').write('more\\n')\n"),
                    &config);
        QVERIFY2(result.status == ExecutionResult::Status::Ok,
                 qPrintable(result.error + result.stderrText));
        QCOMPARE(config.user, QStringLiteral("%1:%2").arg(owner).arg(group));
        QVERIFY(!config.workspaceReadOnly);
        QVERIFY(result.workspaceNote.isEmpty());
        QCOMPARE(result.stdoutText, QStringLiteral("uid %1 %2\n").arg(owner).arg(group));
        QCOMPARE(result.files,
                 (QStringList{QStringLiteral("made.txt"), QStringLiteral("notes.txt")}));
        const struct stat made = lstatOf(dir.filePath(QStringLiteral("made.txt")));
        QCOMPARE(made.st_uid, owner);
        QCOMPARE(made.st_gid, group);
        const struct stat kept = lstatOf(notes);
        QCOMPARE(kept.st_uid, owner);
        QCOMPARE(kept.st_gid, group);
        QCOMPARE(kept.st_mode & 07777, mode_t(0640));
        QCOMPARE(lstatOf(dir.path()).st_uid, owner);
        QFile appended(notes);
        QVERIFY(appended.open(QIODevice::ReadOnly));
        QCOMPARE(appended.readAll(), QByteArray("kept\nmore\n"));
    }

    void aFolderOwnedByRootIsReadOnlyAndTheCodeIsNotRoot()
    {
        if (::getuid() != 0)
            QSKIP("only root can make a folder owned by root here");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // As a system folder is: readable by all (a QTemporaryDir is 0700).
        QCOMPARE(::chmod(QFile::encodeName(dir.path()).constData(), 0755), 0);
        const QString data = dir.filePath(QStringLiteral("data.txt"));
        write(data, "read me\n", 0644);

        SandboxConfig config;
        const ExecutionResult result = runIn(
            dir.path(),
            QStringLiteral("import os\nprint('uid', os.getuid())\nprint(open('data.txt').read())\n"
                           "try:\n    open('new.txt', 'w').write('x')\n    print('wrote')\n"
                           "except OSError as e:\n    print('refused:', e.strerror)\n"),
            &config);
        QVERIFY2(result.status == ExecutionResult::Status::Ok,
                 qPrintable(result.error + result.stderrText));
        QVERIFY(config.workspaceReadOnly);
        QCOMPARE(result.stdoutText,
                 QStringLiteral("uid 1000\nread me\n\nrefused: Read-only file system\n"));
        QVERIFY2(result.workspaceNote.contains(QStringLiteral("owned by root")),
                 qPrintable(result.workspaceNote));
        QVERIFY(result.files.isEmpty());
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("new.txt"))));
        // Nothing was handed to the sandbox's user.
        QCOMPARE(lstatOf(data).st_uid, uid_t(0));
        QCOMPARE(lstatOf(dir.path()).st_uid, uid_t(0));
    }
};

QTEST_GUILESS_MAIN(TestOpenedFolder)
#include "tst_openedfolder.moc"
