#include <app/agent/builtintools.h>
#include <app/agent/toolregistry.h>

#include <QTemporaryDir>
#include <QtTest>

using namespace Sandcastle;

namespace {

// A host tool as an MCP server's would be: answers with whatever it was given.
class EchoTool : public Tool
{
public:
    explicit EchoTool(const QString &name)
        : m_spec{name, QStringLiteral("Echoes its text."), nlohmann::json::object()}
    {}
    const ToolSpec &spec() const override { return m_spec; }
    Place place() const override { return Place::Host; }
    bool needsApproval() const override { return true; }
    void
    invoke(const nlohmann::json &arguments, const ToolContext &, const Done &done) const override
    {
        done({{"status", "ok"}, {"stdout", arguments.value("text", std::string())}});
    }

private:
    ToolSpec m_spec;
};

nlohmann::json answerOf(const Tool &tool, const nlohmann::json &arguments, const QString &workspace)
{
    nlohmann::json answer;
    tool.invoke(
        arguments, {workspace}, [&answer](const nlohmann::json &result) { answer = result; });
    return answer;
}

} // namespace

class TestToolRegistry : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theBuiltInsAreOfferedInTheirOrderWithTheirPlaces()
    {
        const ToolRegistry tools = ToolRegistry::withBuiltIns();
        QCOMPARE(tools.names(),
                 QStringList({QStringLiteral("run_python"),
                              QStringLiteral("run_shell"),
                              QStringLiteral("write_file"),
                              QStringLiteral("read_file"),
                              QStringLiteral("list_files"),
                              QStringLiteral("edit_file"),
                              QStringLiteral("search_files")}));
        for (const QString &name : {QStringLiteral("run_python"), QStringLiteral("run_shell")}) {
            QVERIFY(tools.find(name)->place() == Tool::Place::Sandbox);
            QVERIFY(tools.find(name)->needsApproval());
        }
        for (const QString &name : {QStringLiteral("write_file"),
                                    QStringLiteral("read_file"),
                                    QStringLiteral("list_files"),
                                    QStringLiteral("edit_file"),
                                    QStringLiteral("search_files")}) {
            QVERIFY(tools.find(name)->place() == Tool::Place::Host);
            QVERIFY(!tools.find(name)->needsApproval());
        }
        const QList<ToolSpec> specs = tools.specs();
        QCOMPARE(specs.size(), 7);
        for (const ToolSpec &spec : specs) {
            QVERIFY(!spec.description.isEmpty());
            QCOMPARE(spec.parameters["type"].get<std::string>(), std::string("object"));
        }
        QCOMPARE(specs[2].parameters["required"], nlohmann::json({"path", "content"}));
    }

    void aSandboxToolSaysWhatToRunAndHow()
    {
        const ToolRegistry tools = ToolRegistry::withBuiltIns();
        const Result<SandboxRun> shell = tools.find(QStringLiteral("run_shell"))
                                             ->sandboxRun({{"command", "ls"}, {"timeout_s", 2}});
        QVERIFY(shell);
        QVERIFY(shell.value().language == SandboxRun::Language::Shell);
        QCOMPARE(shell.value().code, QStringLiteral("ls"));
        QCOMPARE(shell.value().timeoutMs, 2000);
        QCOMPARE(languageName(shell.value().language), QStringLiteral("shell"));
        // A host tool does not run in the sandbox; a sandbox tool does not answer on the host.
        QVERIFY(!tools.find(QStringLiteral("read_file"))->sandboxRun({{"path", "a"}}));
        QCOMPARE(toolResultStatusOf(answerOf(
                     *tools.find(QStringLiteral("run_python")), {{"code", "1"}}, QString())),
                 ToolResultStatus::Error);
    }

    void aHostToolAnswersWithTheResultJsonConfinedToTheWorkspace()
    {
        QTemporaryDir workspace;
        const ToolRegistry tools = ToolRegistry::withBuiltIns();
        const nlohmann::json written = answerOf(*tools.find(QStringLiteral("write_file")),
                                                {{"path", "notes.txt"}, {"content", "hello"}},
                                                workspace.path());
        QCOMPARE(toolResultStatusOf(written), ToolResultStatus::Ok);
        QCOMPARE(written["files"][0].get<std::string>(), std::string("notes.txt"));
        const nlohmann::json outside = answerOf(*tools.find(QStringLiteral("read_file")),
                                                {{"path", "../../etc/passwd"}},
                                                workspace.path());
        QCOMPARE(toolResultStatusOf(outside), ToolResultStatus::Error);
        const nlohmann::json noContent = answerOf(
            *tools.find(QStringLiteral("write_file")), {{"path", "x.txt"}}, workspace.path());
        QCOMPARE(toolResultStatusOf(noContent), ToolResultStatus::Error);
        QVERIFY(noContent["error"].get<std::string>().find("\"content\"") != std::string::npos);
        QVERIFY(!QFile::exists(workspace.filePath(QStringLiteral("x.txt"))));
    }

    void moreToolsJoinUnderNamesNotTaken()
    {
        ToolRegistry tools = ToolRegistry::withBuiltIns();
        QVERIFY(tools.add(std::make_shared<EchoTool>(QStringLiteral("mcp_echo"))));
        QCOMPARE(tools.size(), 8);
        QCOMPARE(tools.specs().last().name, QStringLiteral("mcp_echo"));
        QVERIFY(tools.lookup(QStringLiteral("mcp_echo")));

        const Result<bool> clash
            = tools.add(std::make_shared<EchoTool>(QStringLiteral("run_python")));
        QVERIFY(!clash);
        QVERIFY(clash.error().contains(QStringLiteral("run_python")));
        QVERIFY(!tools.add(std::make_shared<EchoTool>(QStringLiteral("mcp_echo"))));
        QVERIFY(!tools.add(std::make_shared<EchoTool>(QStringLiteral("has space"))));
        QVERIFY(!tools.add(std::make_shared<EchoTool>(QString())));
        QVERIFY(!tools.add(nullptr));
        QCOMPARE(tools.size(), 8);
        // The built-ins of another registry are untouched.
        QCOMPARE(ToolRegistry::withBuiltIns().size(), 7);
    }

    void anUnknownNameGetsTheErrorNamingTheTools()
    {
        ToolRegistry tools = ToolRegistry::withBuiltIns();
        QVERIFY(tools.add(std::make_shared<EchoTool>(QStringLiteral("mcp_echo"))));
        const Result<const Tool *> unknown = tools.lookup(QStringLiteral("format_disk"));
        QVERIFY(!unknown);
        QCOMPARE(
            unknown.error(),
            QStringLiteral("unknown tool 'format_disk'; the tools are: run_python, run_shell, "
                           "write_file, read_file, list_files, edit_file, search_files, mcp_echo"));
        QVERIFY(!tools.find(QStringLiteral("format_disk")));
    }

    void argumentsThatAreNotAnObjectAreRefused()
    {
        QVERIFY(
            parseToolArguments(QStringLiteral("run_python"), QStringLiteral("{\"code\": \"1\"}")));
        for (const QString &text : {QStringLiteral("[1]"),
                                    QStringLiteral("\"code\""),
                                    QStringLiteral("{\"code\": "),
                                    QString()}) {
            const Result<nlohmann::json> parsed
                = parseToolArguments(QStringLiteral("run_python"), text);
            QVERIFY(!parsed);
            QVERIFY(parsed.error().contains(QStringLiteral("run_python")));
        }
    }

    void theResultStatusIsOkOnlyForOk()
    {
        QCOMPARE(toolResultStatusOf({{"status", "ok"}}), ToolResultStatus::Ok);
        QCOMPARE(toolResultStatusOf({{"status", "timeout"}}), ToolResultStatus::Error);
        QCOMPARE(toolResultStatusOf(nlohmann::json::object()), ToolResultStatus::Error);
        QCOMPARE(toolResultStatusOf(nlohmann::json::array()), ToolResultStatus::Error);
        QCOMPARE(toolResultStatusName(ToolResultStatus::Ok), QStringLiteral("ok"));
        QCOMPARE(toolResultStatusName(ToolResultStatus::Error), QStringLiteral("error"));
    }
};

QTEST_GUILESS_MAIN(TestToolRegistry)
#include "tst_toolregistry.moc"
