#include <support/clirunner.h>
#include <support/dockercheck.h>
#include <support/fakeopenaiserver.h>

#include <nlohmann/json.hpp>

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace Sandcastle;
using Sandcastle::Testing::CliRun;
using Sandcastle::Testing::FakeOpenAiServer;

// A person's project, end to end: `sandcastle chat --workspace` on a git repository with three
// Python modules and a failing unittest suite, two turns of a scripted model against the real
// sandbox (list, search, read a line range, edit two files, create one, delete one, run the
// tests until they pass), then `sandcastle checkpoints` reviews, undoes and restores, byte for
// byte, and the person's .git is the same to the last byte.
class TestProjectEndToEnd : public QObject
{
    Q_OBJECT

    QTemporaryDir m_data;
    QTemporaryDir m_parent;
    QString m_repo;
    QString m_id;

    QProcessEnvironment env() const
    {
        QProcessEnvironment e = Sandcastle::Testing::cliEnvironment(m_data.path());
        e.insert(QStringLiteral("SANDCASTLE_API_KEY"), QStringLiteral("sk-test"));
        return e;
    }

    CliRun sandcastle(const QStringList &args)
    {
        return Sandcastle::Testing::runSandcastle(args, env(), {}, 240000);
    }

    // One turn of `chat --json` against the fake model: on the folder (first turn) or on the
    // conversation it made.
    CliRun chat(const FakeOpenAiServer &server, const QString &prompt)
    {
        QStringList args{QStringLiteral("chat"), QStringLiteral("--prompt"), prompt};
        if (m_id.isEmpty())
            args << QStringLiteral("--workspace") << m_repo;
        else
            args << QStringLiteral("--conversation") << m_id;
        return sandcastle(args
                          + QStringList{QStringLiteral("--base-url"),
                                        server.baseUrl(),
                                        QStringLiteral("--model"),
                                        QStringLiteral("fake-model"),
                                        QStringLiteral("--json")});
    }

    void write(const QString &relative, const QByteArray &bytes)
    {
        const QString path = m_repo + QLatin1Char('/') + relative;
        QDir().mkpath(QFileInfo(path).path());
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(bytes);
    }

    static bool run(const QString &dir, const QString &program, const QStringList &args)
    {
        QProcess p;
        p.setWorkingDirectory(dir);
        p.start(program, args);
        return p.waitForFinished(60000) && p.exitStatus() == QProcess::NormalExit
               && p.exitCode() == 0;
    }

    // path -> sha256 and mode of every file under `root`; `.git` only when asked, ignored
    // build output (__pycache__) never.
    static QMap<QString, QByteArray> hashes(const QString &root, bool onlyGit)
    {
        QMap<QString, QByteArray> out;
        const QString base = onlyGit ? root + QStringLiteral("/.git") : root;
        QDirIterator it(base,
                        QDir::Files | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            const QString relative = QDir(root).relativeFilePath(path);
            if (!onlyGit
                && (relative.startsWith(QLatin1String(".git/"))
                    || relative.contains(QLatin1String("__pycache__"))
                    || relative.startsWith(QLatin1String(".sandcastle/"))))
                continue;
            QFile file(path);
            file.open(QIODevice::ReadOnly);
            struct stat st
            {
            };
            ::lstat(QFile::encodeName(path).constData(), &st);
            out.insert(relative,
                       QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256).toHex()
                           + ' ' + QByteArray::number(st.st_mode & 0777, 8));
        }
        return out;
    }

    static QByteArray args(const nlohmann::json &object)
    {
        return QByteArray::fromStdString(object.dump());
    }

    static QSet<QString> files(const nlohmann::json &checkpoint)
    {
        QSet<QString> out;
        for (const auto &file : checkpoint["files"])
            out.insert(QString::fromStdString(file["status"].get<std::string>() + " "
                                              + file["path"].get<std::string>()));
        return out;
    }

    QList<nlohmann::json> checkpoints()
    {
        const CliRun listed = sandcastle({QStringLiteral("checkpoints"),
                                          QStringLiteral("list"),
                                          m_id,
                                          QStringLiteral("--json")});
        if (listed.exitCode != 0)
            qWarning("%s", listed.err.constData());
        return Sandcastle::Testing::jsonLines(listed.out);
    }

private Q_SLOTS:
    void initTestCase()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        m_repo = m_parent.path() + QStringLiteral("/calc-project");
        write(QStringLiteral("calc/__init__.py"), "");
        write(QStringLiteral("calc/ops.py"),
              "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n");
        write(QStringLiteral("calc/util.py"),
              "from calc.ops import add\n\n\ndef total(xs):\n    t = 1\n    for x in xs:\n"
              "        t = add(t, x)\n    return t\n");
        write(QStringLiteral("calc/legacy.py"), "OLD = True\n");
        write(QStringLiteral("tests/__init__.py"), "");
        write(
            QStringLiteral("tests/test_calc.py"),
            "import unittest\nfrom calc.ops import add, mul\nfrom calc.util import total\n\n\n"
            "class T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, "
            "3), 5)\n\n    def test_mul(self):\n        self.assertEqual(mul(2, 3), 6)\n\n    "
            "def test_total(self):\n        self.assertEqual(total([1, 2, 3]), 6)\n");
        write(QStringLiteral("data/blob.bin"), QByteArray("\x89PNG\r\n\x1a\n\x00\x00\xff", 11));
        write(QStringLiteral(".gitignore"), "__pycache__/\n*.pyc\n");
        QVERIFY(run(m_repo, QStringLiteral("git"), {QStringLiteral("init"), QStringLiteral("-q")}));
        QVERIFY(run(m_repo, QStringLiteral("git"), {QStringLiteral("add"), QStringLiteral("-A")}));
        QVERIFY(run(m_repo,
                    QStringLiteral("git"),
                    {QStringLiteral("-c"),
                     QStringLiteral("user.name=p"),
                     QStringLiteral("-c"),
                     QStringLiteral("user.email=p@p"),
                     QStringLiteral("commit"),
                     QStringLiteral("-qm"),
                     QStringLiteral("start")}));
        // The person's folder is theirs: as root here, the sandbox's user (1000) owns it.
        if (::geteuid() == 0)
            QVERIFY(run(m_repo,
                        QStringLiteral("chown"),
                        {QStringLiteral("-R"), QStringLiteral("1000:1000"), m_repo}));
    }

    void twoTurnsThenReviewUndoAndRestore()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        const QMap<QString, QByteArray> gitBefore = hashes(m_repo, true);
        const QMap<QString, QByteArray> original = hashes(m_repo, false);
        const QString unittest
            = QStringLiteral("cd /workspace && python3 -m unittest -q 2>&1 | tail -4");

        FakeOpenAiServer server;
        QVERIFY(server.listen());
        // Turn 1: look around, fix add(), run the tests (total() still fails).
        server.enqueueToolCall(QStringLiteral("c1"), QStringLiteral("list_files"), "{}");
        server.enqueueToolCall(QStringLiteral("c2"),
                               QStringLiteral("search_files"),
                               args({{"pattern", "def (add|total)"}}));
        server.enqueueToolCall(QStringLiteral("c3"),
                               QStringLiteral("read_file"),
                               args({{"path", "calc/ops.py"}, {"start_line", 1}, {"end_line", 2}}));
        server.enqueueToolCall(QStringLiteral("c4"),
                               QStringLiteral("run_shell"),
                               args({{"command", unittest.toStdString()}}));
        server.enqueueToolCall(QStringLiteral("c5"),
                               QStringLiteral("edit_file"),
                               args({{"path", "calc/ops.py"},
                                     {"old_text", "return a - b"},
                                     {"new_text", "return a + b"}}));
        server.enqueueToolCall(QStringLiteral("c6"),
                               QStringLiteral("run_shell"),
                               args({{"command", unittest.toStdString()}}));
        server.enqueueText(QStringLiteral("add() is fixed; total() still starts at 1."));
        CliRun turn = chat(server, QStringLiteral("Make the tests pass"));
        QVERIFY2(turn.exitCode == 0, turn.err.constData());
        for (const nlohmann::json &event : Sandcastle::Testing::jsonLines(turn.out)) {
            if (event.value("type", std::string()) == "conversation")
                m_id = QString::fromStdString(event.value("id", std::string()));
        }
        QVERIFY2(!m_id.isEmpty(), turn.out.constData());
        QVERIFY2(turn.out.contains("FAILED"), turn.out.constData()); // the tests ran and failed
        const QMap<QString, QByteArray> afterOne = hashes(m_repo, false);

        // Turn 2: fix total(), add a module, delete one, change the binary file, tests pass.
        server.enqueueToolCall(
            QStringLiteral("d1"), QStringLiteral("read_file"), args({{"path", "calc/util.py"}}));
        server.enqueueToolCall(
            QStringLiteral("d2"),
            QStringLiteral("edit_file"),
            args({{"path", "calc/util.py"}, {"old_text", "t = 1"}, {"new_text", "t = 0"}}));
        server.enqueueToolCall(
            QStringLiteral("d3"),
            QStringLiteral("write_file"),
            args({{"path", "calc/stats.py"},
                  {"content", "def mean(xs):\n    return sum(xs) / len(xs)\n"}}));
        server.enqueueToolCall(QStringLiteral("d4"),
                               QStringLiteral("run_shell"),
                               args({{"command",
                                      "rm /workspace/calc/legacy.py && printf 'new\\000bytes' > "
                                      "/workspace/data/blob.bin"}}));
        server.enqueueToolCall(QStringLiteral("d5"),
                               QStringLiteral("run_shell"),
                               args({{"command", unittest.toStdString()}}));
        server.enqueueText(QStringLiteral("All three tests pass."));
        turn = chat(server, QStringLiteral("Now the rest"));
        QVERIFY2(turn.exitCode == 0, turn.err.constData());
        QVERIFY2(turn.out.contains("OK"), turn.out.constData());
        const QMap<QString, QByteArray> afterTwo = hashes(m_repo, false);
        QVERIFY(!afterTwo.contains(QStringLiteral("calc/legacy.py")));

        // The review: exactly the files each turn changed, with the right diffs.
        QList<nlohmann::json> steps = checkpoints();
        QCOMPARE(steps.size(), 2);
        QCOMPARE(steps[0]["kind"].get<std::string>(), std::string("turn"));
        QCOMPARE(files(steps[0]), QSet<QString>{QStringLiteral("M calc/ops.py")});
        QCOMPARE(files(steps[1]),
                 (QSet<QString>{QStringLiteral("M calc/util.py"),
                                QStringLiteral("A calc/stats.py"),
                                QStringLiteral("D calc/legacy.py"),
                                QStringLiteral("M data/blob.bin")}));
        CliRun diff = sandcastle(
            {QStringLiteral("checkpoints"), QStringLiteral("diff"), m_id, QStringLiteral("1")});
        QVERIFY2(diff.exitCode == 0, diff.err.constData());
        QVERIFY2(diff.out.contains("-    return a - b\n+    return a + b\n"), diff.out.constData());
        diff = sandcastle({QStringLiteral("checkpoints"),
                           QStringLiteral("diff"),
                           m_id,
                           QStringLiteral("2"),
                           QStringLiteral("calc/util.py")});
        QVERIFY2(diff.out.contains("-    t = 1\n+    t = 0\n"), diff.out.constData());
        QVERIFY(!diff.out.contains("stats.py"));

        // Undo turn 2: every file as after turn 1, byte for byte.
        CliRun undo = sandcastle(
            {QStringLiteral("checkpoints"), QStringLiteral("undo"), m_id, QStringLiteral("2")});
        QVERIFY2(undo.exitCode == 0, undo.err.constData());
        QCOMPARE(hashes(m_repo, false), afterOne);
        // Restore to before turn 1: the original tree.
        CliRun restore = sandcastle({QStringLiteral("checkpoints"),
                                     QStringLiteral("restore"),
                                     m_id,
                                     QStringLiteral("1"),
                                     QStringLiteral("--before")});
        QVERIFY2(restore.exitCode == 0, restore.err.constData());
        QCOMPARE(hashes(m_repo, false), original);
        steps = checkpoints();
        QCOMPARE(steps.size(), 4);
        QCOMPARE(steps[2]["kind"].get<std::string>(), std::string("undo"));
        QCOMPARE(steps[3]["kind"].get<std::string>(), std::string("restore"));
        // The person's repository: not one byte changed.
        QCOMPARE(hashes(m_repo, true), gitBefore);

        // The next message tells the model what was put back.
        server.enqueueText(QStringLiteral("noted"));
        turn = chat(server, QStringLiteral("what now?"));
        QVERIFY2(turn.exitCode == 0, turn.err.constData());
        const QByteArray lastRequest = server.requests().last().body;
        QVERIFY2(lastRequest.contains("undid checkpoint 2"), lastRequest.constData());
        QVERIFY(lastRequest.contains("NOT rewound"));
    }

    void undoAsksFirstWhenThePersonEditedSince()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        QVERIFY(!m_id.isEmpty());
        // The person edits a file that the last step (the restore) changed.
        write(QStringLiteral("calc/ops.py"), "# mine\n");
        const QByteArray mine = hashes(m_repo, false).value(QStringLiteral("calc/ops.py"));
        CliRun undo = sandcastle(
            {QStringLiteral("checkpoints"), QStringLiteral("undo"), m_id, QStringLiteral("4")});
        QCOMPARE(undo.exitCode, 1);
        QVERIFY2(undo.err.contains("--yes") && undo.err.contains("calc/ops.py"),
                 undo.err.constData());
        QCOMPARE(hashes(m_repo, false).value(QStringLiteral("calc/ops.py")), mine); // untouched
        // Bad input: a checkpoint that does not exist, an unknown action.
        undo = sandcastle(
            {QStringLiteral("checkpoints"), QStringLiteral("undo"), m_id, QStringLiteral("99")});
        QCOMPARE(undo.exitCode, 1);
        QVERIFY2(undo.err.contains("no checkpoint 99"), undo.err.constData());
        undo = sandcastle({QStringLiteral("checkpoints"), QStringLiteral("undoo"), m_id});
        QCOMPARE(undo.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestProjectEndToEnd)
#include "tst_projectendtoend.moc"
