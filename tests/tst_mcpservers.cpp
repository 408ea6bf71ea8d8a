// The MCP client against the reference servers from the npm registry (not fakes of our own):
// server-everything over stdio and over Streamable HTTP on loopback, server-filesystem confined
// to a test folder; and servers that crash mid-call, never answer, or print junk.
#include <app/agent/tools.h>
#include <app/mcp/mcpclient.h>
#include <app/mcp/mcphttptransport.h>
#include <app/mcp/mcphub.h>
#include <app/mcp/mcpstdiotransport.h>
#include <app/mcp/mcptool.h>
#include <support/mcpservers.h>

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace Sandcastle;
using namespace Sandcastle::Testing;

namespace {

// A call's answer, waited for.
struct Answer
{
    bool done = false;
    Result<nlohmann::json> result = Result<nlohmann::json>::failure(QStringLiteral("none"));
};

McpClient::CallDone into(Answer &answer)
{
    return [&answer](const Result<nlohmann::json> &result) {
        answer.done = true;
        answer.result = result;
    };
}

QStringList toolNames(const McpClient &client)
{
    QStringList names;
    for (const McpToolInfo &tool : client.tools())
        names << tool.name;
    return names;
}

bool waitReady(McpClient &client, int timeoutMs = kLongWaitMs) // node starting
{
    if (client.state() == McpClient::State::Idle)
        client.start();
    return QTest::qWaitFor([&client] { return client.state() != McpClient::State::Connecting; },
                           timeoutMs)
           && client.state() == McpClient::State::Ready;
}

qint64 serverPid(const McpClient &client)
{
    const auto *stdio = qobject_cast<McpStdioTransport *>(client.transport());
    return stdio ? stdio->processId() : 0;
}

QString textOf(const nlohmann::json &callResult)
{
    return QString::fromStdString(
        McpTool::resultJson(callResult, Tools::kDefaultOutputLimit).value("stdout", std::string()));
}

} // namespace

class TestMcpServers : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init() { SANDCASTLE_REQUIRE_MCP_SERVERS(); }

    void aStdioServerIsStartedAndListsItsTools()
    {
        McpClient client(everythingOverStdio());
        QSignalSpy changed(&client, &McpClient::toolsChanged);
        QVERIFY2(waitReady(client), qPrintable(client.error()));
        QVERIFY(McpClient::supportedVersions().contains(client.protocolVersion()));
        QVERIFY(!client.serverName().isEmpty());
        QVERIFY(toolNames(client).contains(QStringLiteral("echo")));
        QVERIFY(toolNames(client).contains(QStringLiteral("get-sum")));
        // Told of roots, the server registers a tool after the handshake and says so with
        // notifications/tools/list_changed: the list is read again.
        QVERIFY(changed.wait(kWaitMs) || !changed.isEmpty());
        QVERIFY(QTest::qWaitFor(
            [&client] { return toolNames(client).contains(QStringLiteral("get-roots-list")); },
            kWaitMs));
        client.close();
    }

    void aCallOverStdioReturnsTheServersText()
    {
        McpClient client(everythingOverStdio());
        QVERIFY2(waitReady(client), qPrintable(client.error()));
        Answer answer;
        client.callTool(
            QStringLiteral("echo"), {{"message", "hello from sandcastle"}}, kWaitMs, into(answer));
        QVERIFY(QTest::qWaitFor([&answer] { return answer.done; }, kWaitMs));
        QVERIFY2(answer.result, qPrintable(answer.result.error()));
        QVERIFY(textOf(answer.result.value()).contains(QStringLiteral("hello from sandcastle")));
        // Arguments the tool refuses come back as an error, not a crash.
        Answer wrong;
        client.callTool(QStringLiteral("get-sum"), {{"a", "not a number"}}, kWaitMs, into(wrong));
        QVERIFY(QTest::qWaitFor([&wrong] { return wrong.done; }, kWaitMs));
        const bool refused
            = !wrong.result || McpTool::resultJson(wrong.result.value(), 1000)["status"] == "error";
        QVERIFY(refused);
        QCOMPARE(client.state(), McpClient::State::Ready);
    }

    void anImageResultIsSavedInsideTheWorkspaceOnly()
    {
        QTemporaryDir workspace;
        QTemporaryDir outside;
        McpHub hub(workspace.filePath(QStringLiteral("none.json")));
        McpClient client(everythingOverStdio());
        QVERIFY2(waitReady(client), qPrintable(client.error()));
        Answer answer;
        client.callTool(
            QStringLiteral("get-tiny-image"), nlohmann::json::object(), kWaitMs, into(answer));
        QVERIFY(QTest::qWaitFor([&answer] { return answer.done; }, kWaitMs));
        QVERIFY2(answer.result, qPrintable(answer.result.error()));
        QStringList written;
        QStringList mimes;
        const auto save = [&](const QString &mime, const QByteArray &bytes) -> QString {
            mimes << mime;
            written << QString::fromLatin1(bytes.left(8).toHex());
            return QStringLiteral(".sandcastle/mcp/x.png");
        };
        const nlohmann::json result = McpTool::resultJson(answer.result.value(), 16000, save);
        QCOMPARE(written.size(), 1);
        QCOMPARE(mimes, QStringList{QStringLiteral("image/png")});
        QCOMPARE(written.first(), QStringLiteral("89504e470d0a1a0a")); // a PNG signature
        QCOMPARE(result["files"][0].get<std::string>(), std::string(".sandcastle/mcp/x.png"));
        QVERIFY(QString::fromStdString(result["stdout"].get<std::string>())
                    .contains(QStringLiteral("saved as .sandcastle/mcp/x.png")));
    }

    void aStreamableHttpServerIsReachedOnLoopbackWithASession()
    {
        EverythingOverHttp server(freeLoopbackPort());
        QVERIFY(server.waitListening());
        McpServerConfig config;
        config.name = QStringLiteral("remote");
        config.transport = McpServerConfig::Transport::Http;
        config.url = server.url();
        McpClient client(config);
        QSignalSpy changed(&client, &McpClient::toolsChanged);
        QVERIFY2(waitReady(client), qPrintable(client.error()));
        const auto *http = qobject_cast<McpHttpTransport *>(client.transport());
        QVERIFY(http && !http->sessionId().isEmpty());
        QVERIFY(toolNames(client).contains(QStringLiteral("get-sum")));
        Answer answer;
        client.callTool(QStringLiteral("get-sum"), {{"a", 2}, {"b", 40}}, kWaitMs, into(answer));
        QVERIFY(QTest::qWaitFor([&answer] { return answer.done; }, kWaitMs));
        QVERIFY2(answer.result, qPrintable(answer.result.error()));
        QVERIFY(textOf(answer.result.value()).contains(QStringLiteral("42")));
        // The list_changed notification reaches us over HTTP too.
        QVERIFY(QTest::qWaitFor(
            [&client] { return toolNames(client).contains(QStringLiteral("get-roots-list")); },
            kWaitMs));
        client.close();
    }

    void theFilesystemServerStaysInItsFolder()
    {
        QTemporaryDir folder;
        QFile file(folder.filePath(QStringLiteral("notes.txt")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("inside the test folder\n");
        file.close();
        McpServerConfig config;
        config.name = QStringLiteral("files");
        config.command = QStringLiteral("node");
        config.args = {mcpServerScript(QStringLiteral("server-filesystem")), folder.path()};
        McpClient client(config);
        QVERIFY2(waitReady(client), qPrintable(client.error()));
        QVERIFY(toolNames(client).contains(QStringLiteral("list_directory")));
        Answer listed;
        client.callTool(QStringLiteral("list_directory"),
                        {{"path", folder.path().toStdString()}},
                        kWaitMs,
                        into(listed));
        QVERIFY(QTest::qWaitFor([&listed] { return listed.done; }, kWaitMs));
        QVERIFY2(listed.result, qPrintable(listed.result.error()));
        QVERIFY(textOf(listed.result.value()).contains(QStringLiteral("notes.txt")));
        // Outside its folder the server refuses, and the refusal is an error result.
        Answer outside;
        client.callTool(
            QStringLiteral("read_text_file"), {{"path", "/etc/hostname"}}, kWaitMs, into(outside));
        QVERIFY(QTest::qWaitFor([&outside] { return outside.done; }, kWaitMs));
        const nlohmann::json result = outside.result
                                          ? McpTool::resultJson(outside.result.value(), 4000)
                                          : Tools::errorJson(outside.result.error());
        QCOMPARE(result["status"].get<std::string>(), std::string("error"));
    }

    void aServerThatCrashesMidCallEndsTheCallWithAClearErrorAndStartsAgain()
    {
        QTemporaryDir data;
        QFile config(data.filePath(QStringLiteral("mcp.json")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        McpConfigFile file;
        file.servers << everythingOverStdio();
        config.write(file.serialize());
        config.close();
        McpHub hub(config.fileName());
        bool prepared = false;
        hub.prepare([&prepared] { prepared = true; });
        QVERIFY(QTest::qWaitFor([&prepared] { return prepared; }, kLongWaitMs));
        McpClient *client = hub.client(QStringLiteral("everything"));
        QVERIFY(client && client->state() == McpClient::State::Ready);
        Answer answer;
        client->callTool(QStringLiteral("trigger-long-running-operation"),
                         {{"duration", 20}, {"steps", 4}},
                         30000,
                         into(answer));
        QTest::qWait(500);
        QVERIFY(serverPid(*client) > 0);
        ::kill(static_cast<pid_t>(serverPid(*client)), SIGKILL);
        QVERIFY(QTest::qWaitFor([&answer] { return answer.done; }, kWaitMs));
        QVERIFY(!answer.result);
        QVERIFY2(answer.result.error().contains(QStringLiteral("ended abnormally")),
                 qPrintable(answer.result.error()));
        QVERIFY(hub.failures().contains(QStringLiteral("everything")));
        // The next conversation turn starts it again.
        prepared = false;
        hub.prepare([&prepared] { prepared = true; });
        QVERIFY(QTest::qWaitFor([&prepared] { return prepared; }, kLongWaitMs));
        QVERIFY(hub.client(QStringLiteral("everything"))->state() == McpClient::State::Ready);
        QVERIFY(!hub.tools().isEmpty());
    }

    void aServerThatNeverAnswersRunsOutOfTime()
    {
        McpClient client(everythingOverStdio());
        QVERIFY2(waitReady(client), qPrintable(client.error()));
        const qint64 pid = serverPid(client);
        ::kill(static_cast<pid_t>(pid), SIGSTOP); // alive, silent
        Answer answer;
        client.callTool(QStringLiteral("echo"), {{"message", "anyone?"}}, 1500, into(answer));
        QVERIFY(QTest::qWaitFor([&answer] { return answer.done; }, kWaitMs));
        ::kill(static_cast<pid_t>(pid), SIGCONT);
        QVERIFY(!answer.result);
        QVERIFY2(
            answer.result.error().contains(QStringLiteral("no answer to tools/call within 1.5 s")),
            qPrintable(answer.result.error()));
        // The connection itself is still there for the next call.
        Answer next;
        client.callTool(QStringLiteral("echo"), {{"message", "again"}}, kWaitMs, into(next));
        QVERIFY(QTest::qWaitFor([&next] { return next.done; }, kWaitMs));
        QVERIFY2(next.result, qPrintable(next.result.error()));
    }

    void aServerThatPrintsJunkIsRefusedWithWhatItPrinted()
    {
        McpServerConfig config = everythingOverStdio(QStringLiteral("noisy"));
        config.command = QStringLiteral("sh");
        config.args
            = {QStringLiteral("-c"),
               QStringLiteral("echo 'Server starting... v1.0 (debug)'; exec node \"$0\" stdio"),
               mcpServerScript(QStringLiteral("server-everything"))};
        McpClient client(config);
        QSignalSpy failed(&client, &McpClient::failed);
        QVERIFY(!waitReady(client));
        QCOMPARE(client.state(), McpClient::State::Failed);
        QVERIFY2(client.error().contains(QStringLiteral("not a JSON-RPC message")),
                 qPrintable(client.error()));
        QVERIFY(client.error().contains(QStringLiteral("Server starting")));
        QCOMPARE(failed.size(), 1);
    }

    void aServerThatCannotStartSaysWhy()
    {
        McpServerConfig config = everythingOverStdio(QStringLiteral("missing"));
        config.command = QStringLiteral("/nonexistent/mcp-server");
        McpClient client(config);
        QVERIFY(!waitReady(client, kWaitMs));
        QVERIFY2(client.error().contains(QStringLiteral("cannot start /nonexistent/mcp-server")),
                 qPrintable(client.error()));
        McpServerConfig unreachable;
        unreachable.name = QStringLiteral("gone");
        unreachable.transport = McpServerConfig::Transport::Http;
        unreachable.url = QStringLiteral("http://127.0.0.1:%1/mcp").arg(freeLoopbackPort());
        McpClient http(unreachable);
        QVERIFY(!waitReady(http, kWaitMs));
        QVERIFY2(http.error().contains(QStringLiteral("cannot reach")), qPrintable(http.error()));
    }
};

QTEST_GUILESS_MAIN(TestMcpServers)
#include "tst_mcpservers.moc"
