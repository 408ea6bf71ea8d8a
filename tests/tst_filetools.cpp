#include <app/agent/builtintools.h>
#include <app/agent/filetools.h>
#include <app/agent/toolregistry.h>
#include <app/agent/tools.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

using namespace Sandcastle;

// write_file, read_file and list_files on a workspace, and the arguments of all five tools.
class TestFileTools : public QObject
{
    Q_OBJECT

    QTemporaryDir m_ws;

    static std::string status(const nlohmann::json &r) { return r.value("status", std::string()); }

private Q_SLOTS:
    void writesReadsAndListsInsideTheWorkspace()
    {
        const auto written
            = FileTools::writeFile(m_ws.path(),
                                   QStringLiteral("pkg/util.py"),
                                   QStringLiteral("def double(x):\n    return 2 * x\n"));
        QCOMPARE(status(written), std::string("ok"));
        QCOMPARE(written["files"][0].get<std::string>(), std::string("pkg/util.py"));
        QCOMPARE(QFileInfo(m_ws.filePath(QStringLiteral("pkg/util.py"))).ownerId(),
                 ::getuid() == 0 ? 1000u : uint(::getuid()));

        const auto read = FileTools::readFile(m_ws.path(), QStringLiteral("pkg/util.py"), -1);
        QCOMPARE(status(read), std::string("ok"));
        QCOMPARE(read["content"].get<std::string>(),
                 std::string("def double(x):\n    return 2 * x\n"));
        QCOMPARE(read["truncated"].get<bool>(), false);
        QCOMPARE(FileTools::readFile(m_ws.path(), QStringLiteral("pkg/util.py"), 5)["truncated"]
                     .get<bool>(),
                 true);

        const auto listed = FileTools::listFiles(m_ws.path(), QString());
        QCOMPARE(status(listed), std::string("ok"));
        QCOMPARE(listed["entries"].size(), size_t(2));
        QVERIFY(listed["stdout"].get<std::string>().find("pkg/util.py") != std::string::npos);
        QCOMPARE(FileTools::listFiles(m_ws.path(), QStringLiteral("pkg"))["entries"].size(),
                 size_t(1));
    }

    void refusesEscapesWithAnErrorTheModelCanReadNeverFollowing()
    {
        QVERIFY(
            QFile::link(QStringLiteral("/etc/passwd"), m_ws.filePath(QStringLiteral("passwd"))));
        QVERIFY(QFile::link(QStringLiteral("/etc"), m_ws.filePath(QStringLiteral("etc"))));
        for (const auto &result :
             {FileTools::readFile(m_ws.path(), QStringLiteral("passwd"), -1),
              FileTools::readFile(m_ws.path(), QStringLiteral("../../etc/passwd"), -1),
              FileTools::readFile(m_ws.path(), QStringLiteral("/etc/passwd"), -1),
              FileTools::writeFile(m_ws.path(), QStringLiteral("passwd"), QStringLiteral("x")),
              FileTools::writeFile(m_ws.path(), QStringLiteral("etc/evil"), QStringLiteral("x")),
              FileTools::listFiles(m_ws.path(), QStringLiteral("etc")),
              FileTools::listFiles(m_ws.path(), QStringLiteral(".."))}) {
            QCOMPARE(status(result), std::string("error"));
            QVERIFY(!result["error"].get<std::string>().empty());
        }
        QVERIFY(!QFile::exists(QStringLiteral("/etc/evil")));
    }

    void saysABinaryFileIsBinary()
    {
        QFile file(m_ws.filePath(QStringLiteral("blob.bin")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray("\x89PNG\r\n\x1a\n\x00\x01", 10));
        file.close();
        const auto read = FileTools::readFile(m_ws.path(), QStringLiteral("blob.bin"), -1);
        QCOMPARE(status(read), std::string("ok"));
        QVERIFY(read["stdout"].get<std::string>().find("binary") != std::string::npos);
    }

    void parsesTheArgumentsOfEveryTool()
    {
        const ToolRegistry tools = ToolRegistry::withBuiltIns();
        const auto json = [](const char *text) {
            return nlohmann::json::parse(text);
        };
        QCOMPARE(int(tools.find(QStringLiteral("run_shell"))
                         ->sandboxRun(json(R"({"command":"ls","timeout_s":3})"))
                         .value()
                         .timeoutMs),
                 3000);
        QVERIFY(!tools.find(QStringLiteral("run_shell"))->sandboxRun(json(R"({"cmd":"ls"})")));
        QVERIFY(!BuiltinTools::writeFileArguments(json(R"({"path":"a"})")));
        QCOMPARE(BuiltinTools::readFileArguments(json(R"({"path":"a","max_bytes":10})"))
                     .value()
                     .maxBytes,
                 qint64(10));
        QVERIFY(BuiltinTools::listFilesArguments(json("{}")));
        const auto unknown = tools.lookup(QStringLiteral("format_disk"));
        QVERIFY(!unknown);
        QVERIFY(unknown.error().contains(QStringLiteral("run_shell")));
        QVERIFY(!BuiltinTools::editFileArguments(json(R"({"path":"a","old_text":"x"})")));
        QVERIFY(
            BuiltinTools::editFileArguments(json(R"({"path":"a","old_text":"x","new_text":""})")));
        QVERIFY(!BuiltinTools::searchFilesArguments(json(R"({"glob":"*.py"})")));
        QCOMPARE(BuiltinTools::searchFilesArguments(json(R"({"pattern":"x","glob":"*.py"})"))
                     .value()
                     .glob,
                 QStringLiteral("*.py"));
        QCOMPARE(tools.specs().size(), 7);
    }

    void anUploadGetsAFreeNameAndNeverWritesThroughALink()
    {
        QTemporaryDir workspace;
        QTemporaryDir host;
        const QString source = host.filePath(QStringLiteral("data.csv"));
        QFile file(source);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("a,b\n1,2\n");
        file.close();
        Result<QString> name = FileTools::upload(workspace.path(), source);
        QVERIFY2(name, qPrintable(name.error()));
        QCOMPARE(name.value(), QStringLiteral("data.csv"));
        name = FileTools::upload(workspace.path(), source);
        QCOMPARE(name.value(), QStringLiteral("data (2).csv"));
        QFile copy(workspace.filePath(QStringLiteral("data (2).csv")));
        QVERIFY(copy.open(QIODevice::ReadOnly));
        QCOMPARE(copy.readAll(), QByteArray("a,b\n1,2\n"));
        // A link planted under the next name is skipped, not written through.
        const QString victim = host.filePath(QStringLiteral("victim.txt"));
        QFile v(victim);
        QVERIFY(v.open(QIODevice::WriteOnly));
        v.write("untouched");
        v.close();
        QVERIFY(QFile::link(victim, workspace.filePath(QStringLiteral("data (3).csv"))));
        name = FileTools::upload(workspace.path(), source);
        QCOMPARE(name.value(), QStringLiteral("data (4).csv"));
        QVERIFY(v.open(QIODevice::ReadOnly));
        QCOMPARE(v.readAll(), QByteArray("untouched"));
        QVERIFY(!FileTools::upload(workspace.path(), host.path())); // a folder
        QVERIFY(!FileTools::upload(workspace.path(), host.filePath(QStringLiteral("nope"))));
    }
};

QTEST_GUILESS_MAIN(TestFileTools)
#include "tst_filetools.moc"
