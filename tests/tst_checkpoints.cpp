#include <app/project/checkpoints.h>

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace Sandcastle;

// Checkpoints in a shadow repository: what a step changed, undo and restore byte for byte,
// the person's .git never touched, big files left out with a note, links never followed.
class TestCheckpoints : public QObject
{
    Q_OBJECT

    QTemporaryDir m_data;
    QTemporaryDir m_outside;
    QString m_root;

    void write(const QString &relative, const QByteArray &bytes)
    {
        const QString path = m_root + QLatin1Char('/') + relative;
        QDir().mkpath(QFileInfo(path).path());
        QFile file(path);
        QVERIFY2(file.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(path));
        file.write(bytes);
    }

    // Every file under `root` (links as their target text, modes included) -> a hash.
    static QMap<QString, QByteArray> tree(const QString &root, bool withGit = false)
    {
        QMap<QString, QByteArray> out;
        QDirIterator it(root,
                        QDir::Files | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            const QString relative = QDir(root).relativeFilePath(path);
            if (!withGit && (relative.startsWith(QLatin1String(".git/"))))
                continue;
            struct stat st
            {
            };
            ::lstat(QFile::encodeName(path).constData(), &st);
            QByteArray content;
            if (S_ISLNK(st.st_mode)) {
                content = "link:" + QFile::symLinkTarget(path).toUtf8();
            } else {
                QFile file(path);
                file.open(QIODevice::ReadOnly);
                content = file.readAll();
            }
            out.insert(relative,
                       QCryptographicHash::hash(content, QCryptographicHash::Sha256).toHex() + ' '
                           + QByteArray::number(st.st_mode & 0777, 8));
        }
        return out;
    }

    QString dataDir() const { return m_data.path() + QStringLiteral("/data"); }

    static QStringList paths(const QList<CheckpointChange> &changes)
    {
        QStringList out;
        for (const CheckpointChange &change : changes)
            out << QString(QLatin1Char(change.status)) + QLatin1Char(' ') + change.path;
        return out;
    }

    static bool git(const QString &dir, const QStringList &args)
    {
        QProcess p;
        p.setWorkingDirectory(dir);
        p.start(QStringLiteral("git"), args);
        return p.waitForFinished(30000) && p.exitCode() == 0;
    }

private Q_SLOTS:
    void init()
    {
        static int n = 0;
        m_root = m_data.path() + QStringLiteral("/project-%1").arg(++n);
        QDir().mkpath(m_root);
        write(QStringLiteral("a.py"), "print('a')\n");
        write(QStringLiteral("pkg/b.py"), "x = 1\ny = 2\n");
        write(QStringLiteral("pkg/gone.py"), "bye\n");
        write(QStringLiteral("data.bin"), QByteArray("\x00\x01\x02\xff", 4));
        write(QStringLiteral(".gitignore"), "*.log\n");
        write(QStringLiteral("run.log"), "ignored\n");
        write(QStringLiteral(".sandcastle/run-1.log"), "private\n");
    }

    void stepListsExactlyTheChanges()
    {
        Checkpoints checkpoints(dataDir(), m_root, QStringLiteral("c1"));
        QVERIFY(checkpoints.begin(QStringLiteral("turn"), QStringLiteral("fix it"), 0));
        write(QStringLiteral("pkg/b.py"), "x = 1\ny = 3\nz = 4\n");
        write(QStringLiteral("new/c.py"), "new\n");
        QVERIFY(QFile::remove(m_root + QStringLiteral("/pkg/gone.py")));
        write(QStringLiteral("data.bin"), QByteArray("\x00\x09", 2));
        write(QStringLiteral("other.log"), "still ignored\n");
        QFile::setPermissions(m_root + QStringLiteral("/a.py"),
                              QFile::permissions(m_root + QStringLiteral("/a.py"))
                                  | QFile::ExeOwner);
        const Result<Checkpoint> step = checkpoints.end();
        QVERIFY2(step, qPrintable(step.error()));
        QCOMPARE(step.value().kind, QStringLiteral("turn"));
        QCOMPARE(step.value().label, QStringLiteral("fix it"));
        QCOMPARE(step.value().number, 1);
        const Result<QList<CheckpointChange>> changes = checkpoints.changes(step.value());
        QVERIFY2(changes, qPrintable(changes.error()));
        QCOMPARE(paths(changes.value()),
                 (QStringList{QStringLiteral("M a.py"),
                              QStringLiteral("M data.bin"),
                              QStringLiteral("A new/c.py"),
                              QStringLiteral("M pkg/b.py"),
                              QStringLiteral("D pkg/gone.py")}));
        const CheckpointChange &b = changes.value()[3];
        QCOMPARE(b.added, 2);
        QCOMPARE(b.removed, 1);
        QVERIFY(changes.value()[1].binary);
        const Result<QByteArray> diff
            = checkpoints.diff(step.value().before, step.value().id, QStringLiteral("pkg/b.py"));
        QVERIFY(diff);
        QVERIFY2(diff.value().contains("-y = 2\n+y = 3\n+z = 4\n"), diff.value().constData());
        QVERIFY(!diff.value().contains("gone.py"));
    }

    void undoAndRestoreAreByteForByte()
    {
        Checkpoints checkpoints(dataDir(), m_root, QStringLiteral("c2"));
        const auto original = tree(m_root);
        QVERIFY(checkpoints.begin(QStringLiteral("turn"), QStringLiteral("one"), 0));
        write(QStringLiteral("pkg/b.py"), "turn one\n");
        write(QStringLiteral("deep/er/file.txt"), "made\n");
        QVERIFY(checkpoints.end());
        const auto afterOne = tree(m_root);
        QVERIFY(checkpoints.begin(QStringLiteral("turn"), QStringLiteral("two"), 1));
        write(QStringLiteral("a.py"), "turn two\n");
        write(QStringLiteral("data.bin"), QByteArray(1000, '\0'));
        QVERIFY(QFile::remove(m_root + QStringLiteral("/pkg/gone.py")));
        write(QStringLiteral("three.py"), "3\n");
        const Result<Checkpoint> two = checkpoints.end();
        QVERIFY(two);
        const auto afterTwo = tree(m_root);

        const Result<Checkpoints::UndoPlan> plan = checkpoints.planUndo(two.value());
        QVERIFY(plan);
        QCOMPARE(plan.value().files.size(), 4);
        QVERIFY(plan.value().editedSince.isEmpty());
        QVERIFY(plan.value().changedLater.isEmpty());

        const Result<Checkpoint> undone = checkpoints.undo(two.value());
        QVERIFY2(undone, qPrintable(undone.error()));
        QCOMPARE(undone.value().kind, QStringLiteral("undo"));
        QCOMPARE(undone.value().undoes, two.value().id);
        QCOMPARE(tree(m_root), afterOne);

        // The undo is a step too: undoing it gives turn two back.
        QVERIFY(checkpoints.undo(undone.value()));
        QCOMPARE(tree(m_root), afterTwo);

        // Back to before the first turn: the original tree, the made folders gone.
        const Result<QList<Checkpoint>> all = checkpoints.list();
        QVERIFY(all);
        QCOMPARE(all.value().size(), 4);
        const Result<Checkpoint> restored
            = checkpoints.restore(all.value().first().before, QStringLiteral("Restore"));
        QVERIFY2(restored, qPrintable(restored.error()));
        QCOMPARE(tree(m_root), original);
        QVERIFY(!QFileInfo::exists(m_root + QStringLiteral("/deep")));
        QVERIFY(QFileInfo::exists(m_root + QStringLiteral("/run.log"))); // ignored: untouched
    }

    void personsGitIsNeverTouched()
    {
        QVERIFY(git(m_root, {QStringLiteral("init"), QStringLiteral("-q")}));
        QVERIFY(git(m_root, {QStringLiteral("add"), QStringLiteral("-A")}));
        QVERIFY(git(m_root,
                    {QStringLiteral("-c"),
                     QStringLiteral("user.name=t"),
                     QStringLiteral("-c"),
                     QStringLiteral("user.email=t@t"),
                     QStringLiteral("commit"),
                     QStringLiteral("-qm"),
                     QStringLiteral("start")}));
        write(QStringLiteral("a.py"), "dirty in the person's tree\n");
        const auto gitBefore = tree(m_root + QStringLiteral("/.git"), true);
        QVERIFY(!gitBefore.isEmpty());
        Checkpoints checkpoints(dataDir(), m_root, QStringLiteral("c3"));
        QVERIFY(checkpoints.begin(QStringLiteral("turn"), QStringLiteral("t"), 0));
        write(QStringLiteral("pkg/b.py"), "changed\n");
        const Result<Checkpoint> step = checkpoints.end();
        QVERIFY(step);
        QCOMPARE(paths(checkpoints.changes(step.value()).value()),
                 QStringList{QStringLiteral("M pkg/b.py")});
        QVERIFY(checkpoints.undo(step.value()));
        QVERIFY(checkpoints.restore(step.value().before, QStringLiteral("r")));
        QCOMPARE(tree(m_root + QStringLiteral("/.git"), true), gitBefore);
        QVERIFY(!checkpoints.repository().startsWith(m_root));
    }

    void bigFilesAreLeftOutWithANote()
    {
        Checkpoints checkpoints(dataDir(), m_root, QStringLiteral("c4"));
        QVERIFY(checkpoints.begin(QStringLiteral("turn"), QStringLiteral("t"), 0));
        // Two gigabytes, sparse: only its size is ever looked at.
        {
            QFile big(m_root + QStringLiteral("/big.bin"));
            QVERIFY(big.open(QIODevice::WriteOnly));
            QVERIFY(big.resize(qint64(2) * 1024 * 1024 * 1024));
        }
        write(QStringLiteral("small.txt"), "s\n");
        QElapsedTimer clock;
        clock.start();
        const Result<Checkpoint> step = checkpoints.end();
        QVERIFY2(step, qPrintable(step.error()));
        QVERIFY(clock.elapsed() < 20000);
        QCOMPARE(step.value().skipped.size(), 1);
        QCOMPARE(step.value().skipped.first().path, QStringLiteral("big.bin"));
        QCOMPARE(step.value().skipped.first().size, qint64(2) * 1024 * 1024 * 1024);
        QCOMPARE(paths(checkpoints.changes(step.value()).value()),
                 QStringList{QStringLiteral("A small.txt")});
        QVERIFY(checkpoints.undo(step.value()));
        QVERIFY(QFileInfo(m_root + QStringLiteral("/big.bin")).size() > 0); // never removed
        QVERIFY(!QFileInfo::exists(m_root + QStringLiteral("/small.txt")));
    }

    void plantedLinkIsNotFollowed()
    {
        Checkpoints checkpoints(dataDir(), m_root, QStringLiteral("c5"));
        QVERIFY(checkpoints.begin(QStringLiteral("turn"), QStringLiteral("t"), 0));
        // The code replaced a folder with a link out of the workspace.
        QVERIFY(QDir(m_root + QStringLiteral("/pkg")).removeRecursively());
        QVERIFY(QFile::link(m_outside.path(), m_root + QStringLiteral("/pkg")));
        const Result<Checkpoint> step = checkpoints.end();
        QVERIFY2(step, qPrintable(step.error()));
        const Result<Checkpoint> undone = checkpoints.undo(step.value());
        QVERIFY2(undone, qPrintable(undone.error()));
        QVERIFY(QDir(m_outside.path()).isEmpty()); // nothing written through the link
        QVERIFY(!QFileInfo(m_root + QStringLiteral("/pkg")).isSymLink());
        QCOMPARE(QFileInfo(m_root + QStringLiteral("/pkg/b.py")).size(), qint64(12));
    }

    void plansNameWhatAnUndoWouldOverwrite()
    {
        Checkpoints checkpoints(dataDir(), m_root, QStringLiteral("c6"));
        QVERIFY(checkpoints.begin(QStringLiteral("turn"), QStringLiteral("one"), 0));
        write(QStringLiteral("a.py"), "one\n");
        write(QStringLiteral("pkg/b.py"), "one\n");
        const Result<Checkpoint> one = checkpoints.end();
        QVERIFY(checkpoints.begin(QStringLiteral("turn"), QStringLiteral("two"), 1));
        write(QStringLiteral("a.py"), "two\n");
        QVERIFY(checkpoints.end());
        write(QStringLiteral("pkg/b.py"), "the person's own edit\n");
        const Result<Checkpoints::UndoPlan> plan = checkpoints.planUndo(one.value());
        QVERIFY(plan);
        QCOMPARE(plan.value().changedLater, QStringList{QStringLiteral("a.py")});
        QCOMPARE(plan.value().editedSince, QStringList{QStringLiteral("pkg/b.py")});
    }

    void newFilesGetTheFoldersOwner()
    {
        if (::geteuid() != 0)
            QSKIP("only root can give files another owner");
        QVERIFY(::chown(QFile::encodeName(m_root).constData(), 1000, 1000) == 0);
        Checkpoints checkpoints(dataDir(), m_root, QStringLiteral("c7"));
        QVERIFY(checkpoints.begin(QStringLiteral("turn"), QStringLiteral("t"), 0));
        QVERIFY(QFile::remove(m_root + QStringLiteral("/a.py")));
        QVERIFY(QDir(m_root + QStringLiteral("/pkg")).removeRecursively());
        const Result<Checkpoint> step = checkpoints.end();
        const Result<Checkpoint> undone = checkpoints.undo(step.value());
        QVERIFY2(undone, qPrintable(undone.error()));
        for (const char *path : {"/a.py", "/pkg", "/pkg/b.py"}) {
            struct stat st
            {
            };
            QVERIFY(::lstat(QFile::encodeName(m_root + QLatin1String(path)).constData(), &st) == 0);
            QCOMPARE(st.st_uid, uid_t(1000));
        }
    }

    void goneOrReadOnlyFolderSaysWhy()
    {
        Checkpoints checkpoints(dataDir(), m_root, QStringLiteral("c8"));
        QVERIFY(checkpoints.begin(QStringLiteral("turn"), QStringLiteral("t"), 0));
        write(QStringLiteral("a.py"), "changed\n");
        const Result<Checkpoint> step = checkpoints.end();
        QVERIFY(step);
        QVERIFY(QDir(m_root).removeRecursively());
        const Result<Checkpoint> undone = checkpoints.undo(step.value());
        QVERIFY(!undone);
        QVERIFY2(undone.error().contains(QLatin1String("gone")), qPrintable(undone.error()));
        // The recorded steps are still there.
        QCOMPARE(checkpoints.list().value().size(), 1);
    }

    void unknownStepIsAClearError()
    {
        Checkpoints checkpoints(dataDir(), m_root, QStringLiteral("c9"));
        const Result<Checkpoint> none = checkpoints.find(QStringLiteral("3"));
        QVERIFY(!none);
        QVERIFY2(none.error().contains(QLatin1String("no checkpoint 3")), qPrintable(none.error()));
        QVERIFY(!checkpoints.end());
    }
};

QTEST_GUILESS_MAIN(TestCheckpoints)
#include "tst_checkpoints.moc"
