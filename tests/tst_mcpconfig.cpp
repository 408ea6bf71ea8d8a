// mcp.json as other MCP clients write it, and the names MCP tools are offered under.
#include <app/agent/toolregistry.h>
#include <app/mcp/mcpconfig.h>
#include <app/mcp/mcphub.h>
#include <app/mcp/mcptool.h>

#include <QTemporaryDir>
#include <QtTest>

using namespace Sandcastle;

class TestMcpConfig : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aCursorOrLmStudioFileIsReadAsItIs()
    {
        const QByteArray text = QByteArray(
            "{\n"
            "          \"mcpServers\": {\n"
            "            \"github\": {\"command\": \"npx\", \"args\": [\"-y\", "
            "\"@modelcontextprotocol/server-github\"],\n"
            "                       \"env\": {\"GITHUB_TOKEN\": \"t0ken\", \"RETRIES\": 3}},\n"
            "            \"remote\": {\"url\": \"https://example.invalid/mcp\", \"headers\": "
            "{\"Authorization\": \"Bearer x\"}},\n"
            "            \"quiet\": {\"command\": \"srv\", \"disabled\": true, \"approval\": "
            "\"never\", \"timeout\": 5,\n"
            "                      \"alwaysAllow\": [\"read\"]}\n"
            "          },\n"
            "          \"globalShortcut\": \"Ctrl+M\"\n"
            "        }\n");
        const Result<McpConfigFile> file = McpConfigFile::parse(text);
        QVERIFY2(file, qPrintable(file.error()));
        QCOMPARE(file.value().servers.size(), 3);
        QVERIFY(file.value().problems.isEmpty());
        const McpServerConfig *github = file.value().find(QStringLiteral("github"));
        QVERIFY(github);
        QCOMPARE(github->transport, McpServerConfig::Transport::Stdio);
        QCOMPARE(github->args.size(), 2);
        QCOMPARE(github->env.value(QStringLiteral("RETRIES")), QStringLiteral("3"));
        QCOMPARE(github->approval, McpApproval::Once); // the default: ask once
        QCOMPARE(github->timeoutSeconds, 30);
        const McpServerConfig *remote = file.value().find(QStringLiteral("remote"));
        QCOMPARE(remote->transport, McpServerConfig::Transport::Http);
        QCOMPARE(remote->headers.value(QStringLiteral("Authorization")),
                 QStringLiteral("Bearer x"));
        const McpServerConfig *quiet = file.value().find(QStringLiteral("quiet"));
        QVERIFY(!quiet->enabled);
        QCOMPARE(quiet->approval, McpApproval::Never);
        QCOMPARE(quiet->timeoutSeconds, 5);
        // Written back, nothing of the person's file is lost: other keys, other programs' keys.
        const Result<McpConfigFile> again = McpConfigFile::parse(file.value().serialize());
        QVERIFY(again);
        QCOMPARE(again.value().servers.size(), 3);
        QVERIFY(*again.value().find(QStringLiteral("quiet")) == *quiet);
        QVERIFY(again.value().other.contains("globalShortcut"));
        QVERIFY(again.value().find(QStringLiteral("quiet"))->extra.contains("alwaysAllow"));
    }

    void badEntriesAreRefusedWithReasonsAndTheRestKept()
    {
        const QByteArray text = QByteArray(
            "{\"mcpServers\": {\n"
            "            \"ok\": {\"command\": \"srv\"},\n"
            "            \"both\": {\"command\": \"a\", \"url\": \"http://127.0.0.1:1/mcp\"},\n"
            "            \"neither\": {\"args\": []},\n"
            "            \"old\": {\"type\": \"sse\", \"url\": \"http://127.0.0.1:1/sse\"},\n"
            "            \"ftp\": {\"url\": \"ftp://example.invalid\"},\n"
            "            \"bad name!\": {\"command\": \"srv\"},\n"
            "            \"policy\": {\"command\": \"srv\", \"approval\": \"sometimes\"},\n"
            "            \"args\": {\"command\": \"srv\", \"args\": \"--flag\"}\n"
            "        }}\n");
        const Result<McpConfigFile> file = McpConfigFile::parse(text);
        QVERIFY(file);
        QCOMPARE(file.value().servers.size(), 1);
        const QString problems = file.value().problems.join(QLatin1Char('\n'));
        QCOMPARE(file.value().problems.size(), 7);
        QVERIFY(problems.contains(QStringLiteral("server 'both': has both command and url")));
        QVERIFY(problems.contains(QStringLiteral("server 'neither': has neither command nor url")));
        QVERIFY(problems.contains(QStringLiteral("deprecated since 2025-03-26")));
        QVERIFY(problems.contains(QStringLiteral("not an http:// or https:// address")));
        QVERIFY(problems.contains(QStringLiteral("\"approval\" is not")));
        // The refused entries are written back as they were, for the person to mend.
        const Result<McpConfigFile> again = McpConfigFile::parse(file.value().serialize());
        QCOMPARE(again.value().problems.size(), 7);
    }

    void aFileThatIsNotAConfigurationIsAnErrorAndAMissingOneIsEmpty()
    {
        QVERIFY(!McpConfigFile::parse("[1, 2]"));
        QVERIFY(!McpConfigFile::parse("{\"mcpServers\": []}"));
        QVERIFY(!McpConfigFile::parse("{\"mcpServers\": {"));
        QTemporaryDir dir;
        const Result<McpConfigFile> missing
            = McpConfigFile::read(dir.filePath(QStringLiteral("mcp.json")));
        QVERIFY(missing && missing.value().servers.isEmpty());
        McpConfigFile file;
        McpServerConfig server;
        server.name = QStringLiteral("s");
        server.command = QStringLiteral("srv");
        file.servers << server;
        QVERIFY(file.write(dir.filePath(QStringLiteral("mcp.json"))));
        QCOMPARE(QFileInfo(dir.filePath(QStringLiteral("mcp.json"))).permissions()
                     & (QFileDevice::ReadOther | QFileDevice::ReadGroup),
                 QFileDevice::Permissions());
        QCOMPARE(
            McpConfigFile::read(dir.filePath(QStringLiteral("mcp.json"))).value().servers.size(),
            1);
    }

    void mcpToolsAreOfferedUnderNamesNoBuiltInCanHave()
    {
        QCOMPARE(McpTool::exposedName(QStringLiteral("files"), QStringLiteral("read_file")),
                 QStringLiteral("mcp__files__read_file"));
        const QString dotted
            = McpTool::exposedName(QStringLiteral("s"), QStringLiteral("db.query"));
        const QString underscored
            = McpTool::exposedName(QStringLiteral("s"), QStringLiteral("db_query"));
        QVERIFY(dotted != underscored); // made callable, still apart
        const QString longName
            = McpTool::exposedName(QStringLiteral("server"), QString(100, QLatin1Char('x')));
        QVERIFY(longName.size() <= 64);
        ToolRegistry registry = ToolRegistry::withBuiltIns();
        McpServerConfig config;
        config.name = QStringLiteral("files");
        for (const QString &name : registry.names())
            QVERIFY(!McpTool::isMcpName(name));
        McpToolInfo info{
            QStringLiteral("read_file"), {}, QStringLiteral("reads"), nlohmann::json::object()};
        QVERIFY(registry.add(std::make_shared<McpTool>(nullptr, config, info)));
        QVERIFY(registry.find(QStringLiteral("read_file"))); // the built-in, still there
        QVERIFY(registry.find(QStringLiteral("mcp__files__read_file")));
        const ToolSpec spec = registry.find(QStringLiteral("mcp__files__read_file"))->spec();
        QVERIFY(spec.description.contains(QStringLiteral("outside the sandbox")));
        QCOMPARE(spec.parameters["type"].get<std::string>(), std::string("object"));
        registry.removeIf([](const Tool &tool) { return McpTool::isMcpName(tool.name()); });
        QVERIFY(!registry.find(QStringLiteral("mcp__files__read_file")));
    }

    void aServersAnswerIsBoundedTextForTheModel()
    {
        const nlohmann::json huge
            = {{"content",
                {{{"type", "text"}, {"text", std::string(100000, 'a') + "END"}},
                 {{"type", "resource_link"}, {"uri", "file:///x"}, {"name", "x"}},
                 {{"type", "audio"}, {"mimeType", "audio/wav"}, {"data", "AAAA"}}}}};
        const nlohmann::json result = McpTool::resultJson(huge, 1000);
        QCOMPARE(result["status"].get<std::string>(), std::string("ok"));
        QVERIFY(result["truncated"].get<bool>());
        const QString text = QString::fromStdString(result["stdout"].get<std::string>());
        QVERIFY(text.size() < 1200);
        QVERIFY(text.contains(QStringLiteral("not kept"))); // the audio, described
        const nlohmann::json failed = McpTool::resultJson(
            {{"isError", true}, {"content", {{{"type", "text"}, {"text", "no such table"}}}}},
            1000);
        QCOMPARE(failed["status"].get<std::string>(), std::string("error"));
        QCOMPARE(failed["error"].get<std::string>(), std::string("no such table"));
    }
};

QTEST_GUILESS_MAIN(TestMcpConfig)
#include "tst_mcpconfig.moc"
