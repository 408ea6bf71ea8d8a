// A scripted model calls a real MCP server's tool (server-everything over stdio) through the
// agent: each approval policy asks as it says, whatever the ask-first setting; a denial goes
// back to the model as a tool result; a server gone mid-conversation is an error result and the
// conversation goes on.
#include <app/agent/agent.h>
#include <app/mcp/mcphub.h>
#include <app/mcp/mcpstdiotransport.h>
#include <app/mcp/mcptool.h>
#include <sandbox/sandboxsession.h>
#include <support/fakemodelclient.h>
#include <support/mcpservers.h>

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace Sandcastle;
using namespace Sandcastle::Testing;

namespace {

const QString Echo = QStringLiteral("mcp__everything__echo");

Completion callEcho(const QString &id, const QString &message)
{
    Completion call;
    call.toolCalls
        = {{id,
            Echo,
            QString::fromStdString(nlohmann::json{{"message", message.toStdString()}}.dump())}};
    return call;
}

Completion answer(const QString &text)
{
    Completion done;
    done.text = text;
    return done;
}

// An agent whose registry holds a real server's tools, with this approval policy.
struct Harness
{
    QTemporaryDir data;
    QTemporaryDir workspace;
    FakeModelClient client;
    std::unique_ptr<McpHub> hub;
    std::unique_ptr<SandboxSession> session;
    std::unique_ptr<Agent> agent;

    explicit Harness(McpApproval approval, bool askFirst = false)
    {
        McpConfigFile file;
        McpServerConfig server = everythingOverStdio();
        server.approval = approval;
        file.servers << server;
        file.write(data.filePath(QStringLiteral("mcp.json")));
        hub = std::make_unique<McpHub>(data.filePath(QStringLiteral("mcp.json")));
        SandboxConfig config;
        config.workspace = workspace.path();
        session = std::make_unique<SandboxSession>(config); // never started: host tools only
        AgentOptions options;
        options.askFirst = askFirst;
        agent = std::make_unique<Agent>(&client, session.get(), options);
    }

    bool prepare()
    {
        bool done = false;
        hub->prepare([&done] { done = true; });
        if (!QTest::qWaitFor([&done] { return done; }, kLongWaitMs)) // node starting
            return false;
        for (const auto &tool : hub->tools())
            agent->tools().add(tool);
        return agent->tools().find(Echo) != nullptr;
    }

    // The tool results the model was sent, in order.
    QStringList toolResults() const
    {
        QStringList out;
        if (client.sentMessages.isEmpty())
            return out;
        for (const Message &m : client.sentMessages.last()) {
            if (m.role == Message::Role::Tool)
                out << m.text;
        }
        return out;
    }
};

} // namespace

class TestMcpAgent : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init() { SANDCASTLE_REQUIRE_MCP_SERVERS(); }

    void aServerThatNeverAsksIsCalledAtOnceEvenInAskFirstMode()
    {
        Harness h(McpApproval::Never, true);
        QVERIFY(h.prepare());
        h.client.script = {callEcho(QStringLiteral("c1"), QStringLiteral("hello")),
                           answer(QStringLiteral("done"))};
        QSignalSpy asked(h.agent.get(), &Agent::approvalRequested);
        QSignalSpy output(h.agent.get(), &Agent::toolOutput);
        QSignalSpy finished(h.agent.get(), &Agent::finished);
        h.agent->start(QStringLiteral("echo hello"));
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("answered"));
        QCOMPARE(asked.size(), 0);
        QCOMPARE(h.toolResults().size(), 1);
        QVERIFY2(h.toolResults().first().contains(QStringLiteral("Echo: hello")),
                 qPrintable(h.toolResults().first()));
        // The person sees the server's text as output.
        QVERIFY(!output.isEmpty());
        QVERIFY(output.first().at(2).toString().contains(QStringLiteral("hello")));
        // The model was offered the tool beside the built-ins.
        QStringList offered;
        for (const ToolSpec &spec : h.client.sentTools.first())
            offered << spec.name;
        QVERIFY(offered.contains(QStringLiteral("run_python")));
        QVERIFY(offered.contains(Echo));
    }

    void aServerThatAlwaysAsksAsksForEveryCall()
    {
        Harness h(McpApproval::Always);
        QVERIFY(h.prepare());
        h.client.script = {callEcho(QStringLiteral("c1"), QStringLiteral("one")),
                           callEcho(QStringLiteral("c2"), QStringLiteral("two")),
                           answer(QStringLiteral("done"))};
        QSignalSpy asked(h.agent.get(), &Agent::approvalRequested);
        QSignalSpy finished(h.agent.get(), &Agent::finished);
        h.agent->start(QStringLiteral("echo twice"));
        QVERIFY(asked.wait(kWaitMs));
        QCOMPARE(asked.last().at(1).toString(), Echo);
        QVERIFY(asked.last().at(2).toString().contains(QStringLiteral("one")));
        h.agent->approve(QString());
        QVERIFY(asked.wait(kWaitMs));
        QCOMPARE(asked.size(), 2);
        h.agent->approve(QString());
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(h.toolResults().size(), 2);
        QVERIFY(h.toolResults().at(1).contains(QStringLiteral("Echo: two")));
    }

    void aServerThatAsksOnceAsksForTheFirstCallOfEachConversation()
    {
        Harness h(McpApproval::Once);
        QVERIFY(h.prepare());
        h.client.script = {callEcho(QStringLiteral("c1"), QStringLiteral("one")),
                           callEcho(QStringLiteral("c2"), QStringLiteral("two")),
                           answer(QStringLiteral("done"))};
        QSignalSpy asked(h.agent.get(), &Agent::approvalRequested);
        QSignalSpy finished(h.agent.get(), &Agent::finished);
        h.agent->start(QStringLiteral("echo twice"));
        QVERIFY(asked.wait(kWaitMs));
        h.agent->approve(QString());
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(asked.size(), 1); // the second call went without asking
        QCOMPARE(h.toolResults().size(), 2);
        // Another conversation asks again.
        h.agent->loadHistory(nlohmann::json::array());
        h.client.script = {callEcho(QStringLiteral("c3"), QStringLiteral("three")),
                           answer(QStringLiteral("ok"))};
        h.agent->start(QStringLiteral("echo again"));
        QVERIFY(asked.wait(kWaitMs));
        QCOMPARE(asked.size(), 2);
        h.agent->approve(QString());
        QVERIFY(finished.wait(kWaitMs));
    }

    void aDenialGoesBackToTheModelAsAToolResult()
    {
        Harness h(McpApproval::Once);
        QVERIFY(h.prepare());
        h.client.script = {callEcho(QStringLiteral("c1"), QStringLiteral("secret")),
                           answer(QStringLiteral("understood"))};
        QSignalSpy asked(h.agent.get(), &Agent::approvalRequested);
        QSignalSpy finished(h.agent.get(), &Agent::finished);
        h.agent->start(QStringLiteral("echo"));
        QVERIFY(asked.wait(kWaitMs));
        h.agent->reject(QStringLiteral("not now"));
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("answered"));
        QCOMPARE(h.toolResults().size(), 1);
        QVERIFY2(h.toolResults().first().contains(
                     QStringLiteral("declined this call of mcp__everything__echo: not now")),
                 qPrintable(h.toolResults().first()));
    }

    void aServerGoneMidConversationIsAnErrorResultAndTheConversationGoesOn()
    {
        Harness h(McpApproval::Never);
        QVERIFY(h.prepare());
        const auto *stdio = qobject_cast<McpStdioTransport *>(
            h.hub->client(QStringLiteral("everything"))->transport());
        QVERIFY(stdio);
        ::kill(static_cast<pid_t>(stdio->processId()), SIGKILL);
        QVERIFY(QTest::qWaitFor(
            [&h] { return h.hub->failures().contains(QStringLiteral("everything")); }, kWaitMs));
        h.client.script = {callEcho(QStringLiteral("c1"), QStringLiteral("anyone")),
                           answer(QStringLiteral("it is down"))};
        QSignalSpy finished(h.agent.get(), &Agent::finished);
        h.agent->start(QStringLiteral("echo"));
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("answered"));
        QVERIFY2(h.toolResults().first().contains(QStringLiteral("is not connected")),
                 qPrintable(h.toolResults().first()));
        QVERIFY(h.toolResults().first().contains(QStringLiteral("ended abnormally")));
    }
};

QTEST_GUILESS_MAIN(TestMcpAgent)
#include "tst_mcpagent.moc"
