#include <app/agent/builtintools.h>
#include <app/agent/fileledger.h>
#include <app/agent/filesearch.h>
#include <app/agent/filetools.h>
#include <app/agent/tool.h>

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace Sandcastle;

// The tools for real codebases: edit_file, search_files, read_file's line ranges, and the
// ledger that refuses an edit of a file changed since the model read it.
class TestProjectTools : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_ws;

    static std::string status(const nlohmann::json &r) { return r.value("status", std::string()); }
    static QString said(const nlohmann::json &r)
    {
        return QString::fromStdString(r.value("error", std::string()) + "\n"
                                      + r.value("stdout", std::string()));
    }
    QString path(const QString &relative) const { return m_ws->filePath(relative); }
    void put(const QString &relative, const QByteArray &bytes) const
    {
        QDir().mkpath(QFileInfo(path(relative)).path());
        QFile f(path(relative));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(bytes);
    }
    QByteArray hash(const QString &relative) const
    {
        QFile f(path(relative));
        if (!f.open(QIODevice::ReadOnly))
            return {};
        return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
    }
    // A tool of the registry's five-and-more, called as the agent calls it.
    static nlohmann::json
    call(const QString &name, const nlohmann::json &arguments, const ToolContext &context)
    {
        nlohmann::json out;
        for (const auto &tool : BuiltinTools::all()) {
            if (tool->name() == name)
                tool->invoke(arguments, context, [&](const nlohmann::json &r) { out = r; });
        }
        return out;
    }

private Q_SLOTS:
    void init() { m_ws = std::make_unique<QTemporaryDir>(); }

    void editFileReplacesTheOneOccurrenceKeepingModeAndOwner()
    {
        put(QStringLiteral("src/calc.py"),
            "def add(a, b):\n    return a - b\n\nprint(add(1, 2))\n");
        QVERIFY(::chmod(QFile::encodeName(path(QStringLiteral("src/calc.py"))).constData(), 0640)
                == 0);
        struct stat before
        {
        };
        QVERIFY(::stat(QFile::encodeName(path(QStringLiteral("src/calc.py"))).constData(), &before)
                == 0);
        const auto result = FileTools::editFile(m_ws->path(),
                                                QStringLiteral("src/calc.py"),
                                                QStringLiteral("return a - b"),
                                                QStringLiteral("return a + b"));
        QVERIFY2(status(result) == "ok", qPrintable(said(result)));
        QFile f(path(QStringLiteral("src/calc.py")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("def add(a, b):\n    return a + b\n\nprint(add(1, 2))\n"));
        struct stat after
        {
        };
        QVERIFY(::stat(QFile::encodeName(path(QStringLiteral("src/calc.py"))).constData(), &after)
                == 0);
        QCOMPARE(after.st_mode, before.st_mode);
        QCOMPARE(after.st_uid, before.st_uid);
        QCOMPARE(after.st_gid, before.st_gid);
        QCOMPARE(QString::fromStdString(result["stdout"].get<std::string>()),
                 QStringLiteral("edited src/calc.py at line 2\n"
                                "@@ -1,4 +1,4 @@\n"
                                " def add(a, b):\n"
                                "-    return a - b\n"
                                "+    return a + b\n"
                                " \n"
                                " print(add(1, 2))\n"));
        QCOMPARE(result["files"][0].get<std::string>(), std::string("src/calc.py"));
        QVERIFY(!QFileInfo::exists(path(QStringLiteral("src/.calc.py.sandcastle-edit"))));
    }

    void editFileChangesNothingAndSaysWhy_data()
    {
        QTest::addColumn<QString>("oldText");
        QTest::addColumn<QString>("because");
        QTest::newRow("twice") << QStringLiteral("x = 1") << QStringLiteral("occurs 2 times");
        QTest::newRow("not at all") << QStringLiteral("y = 2") << QStringLiteral("not found");
        QTest::newRow("empty") << QString() << QStringLiteral("empty");
        QTest::newRow("not quite (spaces)")
            << QStringLiteral("x  = 1") << QStringLiteral("not found");
    }

    void editFileChangesNothingAndSaysWhy()
    {
        QFETCH(QString, oldText);
        QFETCH(QString, because);
        put(QStringLiteral("a.py"), "x = 1\nprint(x)\nx = 1\n");
        const QByteArray before = hash(QStringLiteral("a.py"));
        const auto result = FileTools::editFile(
            m_ws->path(), QStringLiteral("a.py"), oldText, QStringLiteral("z = 3"));
        QCOMPARE(status(result), std::string("error"));
        QVERIFY2(said(result).contains(because), qPrintable(said(result)));
        QCOMPARE(hash(QStringLiteral("a.py")), before);
    }

    void editFileRefusesLinksBinariesAndEscapes()
    {
        put(QStringLiteral("outside/secret.txt"), "token = 1\n");
        QTemporaryDir elsewhere;
        QFile::copy(path(QStringLiteral("outside/secret.txt")),
                    elsewhere.filePath(QStringLiteral("s.txt")));
        QVERIFY(QFile::link(elsewhere.filePath(QStringLiteral("s.txt")),
                            path(QStringLiteral("link.txt"))));
        QVERIFY(QFile::link(elsewhere.path(), path(QStringLiteral("linkdir"))));
        put(QStringLiteral("blob.bin"), QByteArray("ab\0cd token = 1", 15));
        const QByteArray outsideBefore = [&] {
            QFile f(elsewhere.filePath(QStringLiteral("s.txt")));
            f.open(QIODevice::ReadOnly);
            return f.readAll();
        }();
        for (const QString &target : {QStringLiteral("link.txt"),
                                      QStringLiteral("linkdir/s.txt"),
                                      QStringLiteral("../s.txt"),
                                      QStringLiteral("/etc/hostname"),
                                      QStringLiteral("blob.bin"),
                                      QStringLiteral("missing.py")}) {
            const auto result = FileTools::editFile(
                m_ws->path(), target, QStringLiteral("token = 1"), QStringLiteral("token = 2"));
            QVERIFY2(status(result) == "error", qPrintable(target));
        }
        QFile f(elsewhere.filePath(QStringLiteral("s.txt")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), outsideBefore);
        QVERIFY(QFileInfo(path(QStringLiteral("link.txt"))).isSymLink());
    }

    // Read, then changed by someone else: the edit is refused until the model reads it again.
    void anEditOfAFileChangedSinceItWasReadIsRefused()
    {
        FileLedger ledger;
        const ToolContext context{m_ws->path(), &ledger, QString()};
        put(QStringLiteral("m.py"), "value = 1\n");
        QCOMPARE(status(call(QStringLiteral("read_file"), {{"path", "m.py"}}, context)),
                 std::string("ok"));
        QThread::msleep(20);
        put(QStringLiteral("m.py"), "value = 1\nmore = 2\n"); // the code the model ran, say
        const auto refused
            = call(QStringLiteral("edit_file"),
                   {{"path", "m.py"}, {"old_text", "value = 1"}, {"new_text", "value = 5"}},
                   context);
        QCOMPARE(status(refused), std::string("error"));
        QVERIFY2(said(refused).contains(QStringLiteral("changed on disk")),
                 qPrintable(said(refused)));
        QCOMPARE(call(QStringLiteral("read_file"),
                      {{"path", "m.py"}, {"start_line", 1}},
                      context)["lines"]
                     .get<int>(),
                 2);
        const auto edited
            = call(QStringLiteral("edit_file"),
                   {{"path", "m.py"}, {"old_text", "value = 1"}, {"new_text", "value = 5"}},
                   context);
        QVERIFY2(status(edited) == "ok", qPrintable(said(edited)));
        // Its own edit does not count against the next one.
        const auto again
            = call(QStringLiteral("edit_file"),
                   {{"path", "m.py"}, {"old_text", "more = 2"}, {"new_text", "more = 3"}},
                   context);
        QVERIFY2(status(again) == "ok", qPrintable(said(again)));
        QFile::remove(path(QStringLiteral("m.py")));
        const auto gone = call(QStringLiteral("edit_file"),
                               {{"path", "m.py"}, {"old_text", "x"}, {"new_text", "y"}},
                               context);
        QVERIFY2(said(gone).contains(QStringLiteral("deleted")), qPrintable(said(gone)));
    }

    void aReadOnlyWorkspaceIsNotWrittenByTheHostEither()
    {
        put(QStringLiteral("a.txt"), "keep\n");
        const QByteArray before = hash(QStringLiteral("a.txt"));
        FileLedger ledger;
        ToolContext context{
            m_ws->path(), &ledger, QStringLiteral("owned by root, mounted read-only")};
        nlohmann::json r = call(QStringLiteral("read_file"), {{"path", "a.txt"}}, context);
        QCOMPARE(status(r), std::string("ok")); // reading goes on
        r = call(QStringLiteral("write_file"), {{"path", "b.txt"}, {"content", "x"}}, context);
        QCOMPARE(status(r), std::string("error"));
        QVERIFY2(said(r).contains(QLatin1String("read-only (owned by root")), qPrintable(said(r)));
        QVERIFY(!QFileInfo::exists(m_ws->filePath(QStringLiteral("b.txt"))));
        r = call(QStringLiteral("edit_file"),
                 {{"path", "a.txt"}, {"old_text", "keep"}, {"new_text", "gone"}},
                 context);
        QCOMPARE(status(r), std::string("error"));
        QCOMPARE(hash(QStringLiteral("a.txt")), before);
    }

    void readFileGivesANumberedRangeOfLines()
    {
        QByteArray text;
        for (int i = 1; i <= 120; ++i)
            text += "line " + QByteArray::number(i) + "\n";
        put(QStringLiteral("long.txt"), text);
        const auto range
            = FileTools::readLines(m_ws->path(), QStringLiteral("long.txt"), 99, 101, -1);
        QCOMPARE(status(range), std::string("ok"));
        QCOMPARE(range["content"].get<std::string>(),
                 std::string(" 99\tline 99\n100\tline 100\n101\tline 101\n"));
        QCOMPARE(range["lines"].get<int>(), 120);
        const auto tail
            = FileTools::readLines(m_ws->path(), QStringLiteral("long.txt"), 119, 0, -1);
        QCOMPARE(tail["content"].get<std::string>(), std::string("119\tline 119\n120\tline 120\n"));
        const auto clamped
            = FileTools::readLines(m_ws->path(), QStringLiteral("long.txt"), 118, 500, -1);
        QCOMPARE(clamped["content"].get<std::string>(),
                 std::string("118\tline 118\n119\tline 119\n120\tline 120\n"));
        const auto past
            = FileTools::readLines(m_ws->path(), QStringLiteral("long.txt"), 121, 0, -1);
        QCOMPARE(status(past), std::string("error"));
        QVERIFY(said(past).contains(QStringLiteral("120 line(s)")));
        const auto bounded
            = FileTools::readLines(m_ws->path(), QStringLiteral("long.txt"), 1, 0, 40);
        QCOMPARE(bounded["truncated"].get<bool>(), true);
        QVERIFY(said(bounded).contains(QStringLiteral("ask for the next range")));
        // Bad ranges are refused before anything is read.
        QVERIFY(!BuiltinTools::readFileArguments({{"path", "a"}, {"start_line", 0}}));
        QVERIFY(!BuiltinTools::readFileArguments({{"path", "a"}, {"start_line", "3"}}));
        QVERIFY(
            !BuiltinTools::readFileArguments({{"path", "a"}, {"start_line", 5}, {"end_line", 2}}));
        QVERIFY(
            BuiltinTools::readFileArguments({{"path", "a"}, {"start_line", 5}, {"end_line", 5}}));
    }

    void searchFilesHonoursGitignoreAndIsBounded()
    {
        put(QStringLiteral(".gitignore"), "build/\n*.log\n");
        put(QStringLiteral("src/.gitignore"), "generated.py\n");
        put(QStringLiteral("src/app.py"), "import os\nTODO = 'fix'\n# TODO: more\n");
        put(QStringLiteral("src/generated.py"), "TODO ignored\n");
        put(QStringLiteral("src/deep/util.py"), "def f():\n    pass  # TODO\n");
        put(QStringLiteral("build/out.py"), "TODO in build\n");
        put(QStringLiteral("run.log"), "TODO in a log\n");
        put(QStringLiteral(".git/config"), "TODO in git\n");
        put(QStringLiteral("notes.md"), "TODO write docs\n");
        put(QStringLiteral("data.bin"), QByteArray("TODO\0binary", 11));
        QTemporaryDir elsewhere;
        QFile outside(elsewhere.filePath(QStringLiteral("o.py")));
        QVERIFY(outside.open(QIODevice::WriteOnly));
        outside.write("TODO outside\n");
        outside.close();
        QVERIFY(QFile::link(outside.fileName(), path(QStringLiteral("src/link.py"))));

        const auto all = FileSearch::searchFiles(m_ws->path(), QStringLiteral("TODO"), QString());
        QCOMPARE(status(all), std::string("ok"));
        const QString out = said(all);
        QVERIFY2(out.contains(QStringLiteral("src/app.py:2: TODO = 'fix'")), qPrintable(out));
        QVERIFY(out.contains(QStringLiteral("src/app.py:3: # TODO: more")));
        QVERIFY(out.contains(QStringLiteral("src/deep/util.py:2: pass  # TODO")));
        QVERIFY(out.contains(QStringLiteral("notes.md:1: TODO write docs")));
        for (const char *never : {"generated", "build", "log", "in git", "outside", "data.bin"})
            QVERIFY2(!out.contains(QLatin1String(never)), never);
        QVERIFY(out.contains(QStringLiteral("1 binary file(s)")));
        QCOMPARE(all["matches"].get<int>(), 4);

        const auto python
            = FileSearch::searchFiles(m_ws->path(), QStringLiteral("TODO"), QStringLiteral("*.py"));
        QCOMPARE(python["matches"].get<int>(), 3);
        const auto deep = FileSearch::searchFiles(
            m_ws->path(), QStringLiteral("TODO"), QStringLiteral("src/deep/**"));
        QCOMPARE(deep["matches"].get<int>(), 1);

        QByteArray many;
        for (int i = 0; i < 500; ++i)
            many += "needle " + QByteArray::number(i) + "\n";
        put(QStringLiteral("many.txt"), many);
        const auto bounded
            = FileSearch::searchFiles(m_ws->path(), QStringLiteral("needle \\d+"), QString(), 100);
        QCOMPARE(bounded["matches"].get<int>(), 500);
        QCOMPARE(bounded["truncated"].get<bool>(), true);
        QVERIFY2(said(bounded).contains(QStringLiteral("400 more matching line(s)")),
                 qPrintable(said(bounded).right(200)));

        const auto bad
            = FileSearch::searchFiles(m_ws->path(), QStringLiteral("(unclosed"), QString());
        QCOMPARE(status(bad), std::string("error"));
        QVERIFY(said(bad).contains(QStringLiteral("not a valid regular expression")));
        QCOMPARE(status(FileSearch::searchFiles(m_ws->path(), QString(), QString())),
                 std::string("error"));
    }

    void listFilesGivesABoundedTreeWithIgnoredFoldersCollapsed()
    {
        put(QStringLiteral(".gitignore"), "node_modules/\n*.tmp\n");
        put(QStringLiteral("src/.gitignore"), "cache/\n");
        put(QStringLiteral(".git/HEAD"), "ref: refs/heads/main\n");
        for (int i = 0; i < 30; ++i)
            put(QStringLiteral("node_modules/p%1/index.js").arg(i), "x");
        put(QStringLiteral("src/main.py"), "print(1)\n");
        put(QStringLiteral("src/cache/c.bin"), "c");
        put(QStringLiteral("src/scratch.tmp"), "t");
        const auto listed = FileTools::listFiles(m_ws->path(), QString());
        QCOMPARE(status(listed), std::string("ok"));
        QCOMPARE(QString::fromStdString(listed["stdout"].get<std::string>()),
                 QStringLiteral(".gitignore\t20\n"
                                "node_modules/\t(ignored by .gitignore: not listed)\n"
                                "src/\n"
                                "src/.gitignore\t7\n"
                                "src/cache/\t(ignored by .gitignore: not listed)\n"
                                "src/main.py\t9\n"));
        QCOMPARE(listed["truncated"].get<bool>(), false);
        // One folder: the rules of the folders above it still hold.
        const auto inSrc = FileTools::listFiles(m_ws->path(), QStringLiteral("src"));
        QVERIFY(!said(inSrc).contains(QStringLiteral("scratch.tmp")));
        QVERIFY(said(inSrc).contains(QStringLiteral("src/main.py\t9")));
        // Bounded, the rest counted.
        for (int i = 0; i < 40; ++i)
            put(QStringLiteral("data/f%1.csv").arg(i, 2, 10, QLatin1Char('0')), "1,2\n");
        const auto bounded = FileTools::listFiles(m_ws->path(), QString(), 10);
        QCOMPARE(bounded["entries"].size(), size_t(10));
        QCOMPARE(bounded["truncated"].get<bool>(), true);
        QVERIFY2(said(bounded).contains(QStringLiteral("37 more entries not listed")),
                 qPrintable(said(bounded)));
    }

    void theWalkNamesIgnoredFoldersOnceAndNeverEntersThem()
    {
        put(QStringLiteral(".gitignore"), "node_modules/\n");
        for (int i = 0; i < 50; ++i)
            put(QStringLiteral("node_modules/pkg%1/index.js").arg(i), "x");
        put(QStringLiteral("src/main.js"), "x");
        QStringList seen;
        FileSearch::walk(m_ws->path(), [&](const FileSearch::Entry &e) {
            seen << e.path + (e.ignored ? QStringLiteral(" (ignored)") : QString());
            return true;
        });
        QCOMPARE(seen,
                 (QStringList{QStringLiteral(".gitignore"),
                              QStringLiteral("node_modules (ignored)"),
                              QStringLiteral("src"),
                              QStringLiteral("src/main.js")}));
    }
};

QTEST_GUILESS_MAIN(TestProjectTools)
#include "tst_projecttools.moc"
