#include <app/agent/agentrun.h>
#include <app/llm/chatclient.h>
#include <sandbox/sandboxsession.h>
#include <support/dockercheck.h>
#include <support/fakeopenaiserver.h>

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace Sandcastle;
using Sandcastle::Testing::FakeOpenAiServer;

// The whole path without a window: prompt -> fake model -> tool call -> real container ->
// tool result back to the model -> answer.
class TestEndToEnd : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { SANDCASTLE_REQUIRE_DOCKER(); }

    void theSeedExampleIsAnsweredFromRealOutput()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        const QByteArray code = "numbers = [1, 2, 3, 4, 5]; print(sum(numbers) / len(numbers))";
        server.enqueueToolCall(QStringLiteral("call_seed"), QStringLiteral("run_python"),
                               "{\"code\": \"" + code + "\"}", 6);
        server.enqueueText(QStringLiteral("The average of the numbers is 3.0."));

        QTemporaryDir workspace;
        ClientConfig clientConfig;
        clientConfig.baseUrl = QUrl(server.baseUrl());
        clientConfig.model = QStringLiteral("fake-model");
        ChatClient client(clientConfig);
        SandboxConfig sandboxConfig = SandboxConfig::fromEnvironment();
        sandboxConfig.workspace = workspace.path();
        SandboxSession session(sandboxConfig);
        AgentRun agent(&client, &session, AgentOptions());

        QSignalSpy finished(&agent, &AgentRun::finished);
        QSignalSpy outputs(&agent, &AgentRun::toolOutput);
        QSignalSpy results(&agent, &AgentRun::toolResult);
        QSignalSpy codeUpdates(&agent, &AgentRun::toolCodeChanged);
        QString answer;
        connect(&agent, &AgentRun::textDelta, this, [&answer](const QString &t) { answer += t; });

        agent.start(QStringLiteral("Calculate the average of the numbers in this list: [1, 2, 3, 4, 5]"));
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("answered"));
        QCOMPARE(finished.first().at(1).toInt(), 2);

        // The code streamed into view piece by piece, ending in the full program.
        QVERIFY(codeUpdates.size() > 3);
        QCOMPARE(codeUpdates.last().at(1).toString(), QString::fromUtf8(code));
        // The container printed 3.0, live and in the result.
        QString streamed;
        for (const auto &args : outputs)
            streamed += args.at(2).toString();
        QCOMPARE(streamed, QStringLiteral("3.0\n"));
        QCOMPARE(results.size(), 1);
        QCOMPARE(results.first().at(1).value<ExecutionResult>().stdoutText, QStringLiteral("3.0\n"));

        // The second request carried the tool result back to the model.
        QCOMPARE(server.requests().size(), 2);
        const auto second = nlohmann::json::parse(server.requests().at(1).body.toStdString());
        const auto &messages = second["messages"];
        const auto &toolMessage = messages.back();
        QCOMPARE(toolMessage["role"].get<std::string>(), std::string("tool"));
        QCOMPARE(toolMessage["tool_call_id"].get<std::string>(), std::string("call_seed"));
        const auto toolContent = nlohmann::json::parse(toolMessage["content"].get<std::string>());
        QCOMPARE(toolContent["status"].get<std::string>(), std::string("ok"));
        QCOMPARE(toolContent["stdout"].get<std::string>(), std::string("3.0\n"));
        const auto &assistant = messages[messages.size() - 2];
        QCOMPARE(assistant["tool_calls"][0]["function"]["name"].get<std::string>(), std::string("run_python"));

        QCOMPARE(answer, QStringLiteral("The average of the numbers is 3.0."));
        QCOMPARE(server.pendingResponses(), 0);
    }

    void errorsInTheCodeGoBackToTheModelWhichCanRecover()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueToolCall(QStringLiteral("c1"), QStringLiteral("run_python"), "{\"code\": \"print(undefined_name)\"}");
        server.enqueueToolCall(QStringLiteral("c2"), QStringLiteral("run_python"), "{\"code\": \"print(6 * 7)\"}");
        server.enqueueText(QStringLiteral("42"));
        ClientConfig clientConfig;
        clientConfig.baseUrl = QUrl(server.baseUrl());
        ChatClient client(clientConfig);
        QTemporaryDir workspace;
        SandboxConfig sandboxConfig = SandboxConfig::fromEnvironment();
        sandboxConfig.workspace = workspace.path();
        SandboxSession session(sandboxConfig);
        AgentRun agent(&client, &session, AgentOptions());
        QSignalSpy finished(&agent, &AgentRun::finished);
        agent.start(QStringLiteral("what is 6 times 7?"));
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("answered"));
        QCOMPARE(server.requests().size(), 3);
        const auto second = nlohmann::json::parse(server.requests().at(1).body.toStdString());
        const auto firstResult = nlohmann::json::parse(second["messages"].back()["content"].get<std::string>());
        QCOMPARE(firstResult["status"].get<std::string>(), std::string("error"));
        QVERIFY(firstResult["error"].get<std::string>().find("NameError") != std::string::npos);
    }

    void theTurnLimitEndsALoopingModel()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        for (int i = 0; i < 3; ++i)
            server.enqueueToolCall(QStringLiteral("loop%1").arg(i), QStringLiteral("run_python"), "{\"code\": \"print(1)\"}");
        ClientConfig clientConfig;
        clientConfig.baseUrl = QUrl(server.baseUrl());
        ChatClient client(clientConfig);
        QTemporaryDir workspace;
        SandboxConfig sandboxConfig = SandboxConfig::fromEnvironment();
        sandboxConfig.workspace = workspace.path();
        SandboxSession session(sandboxConfig);
        AgentOptions options;
        options.maxTurns = 2;
        AgentRun agent(&client, &session, options);
        QSignalSpy finished(&agent, &AgentRun::finished);
        agent.start(QStringLiteral("loop"));
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("max_turns"));
        QCOMPARE(server.requests().size(), 2);
    }

    void anUnknownToolOrBadArgumentsAreAnsweredWithAnError()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueToolCall(QStringLiteral("u1"), QStringLiteral("format_disk"), "{}");
        server.enqueueToolCall(QStringLiteral("u2"), QStringLiteral("run_python"), "{\"code\": 12");
        server.enqueueText(QStringLiteral("sorry"));
        ClientConfig clientConfig;
        clientConfig.baseUrl = QUrl(server.baseUrl());
        ChatClient client(clientConfig);
        SandboxSession session(SandboxConfig::fromEnvironment());
        AgentRun agent(&client, &session, AgentOptions());
        QSignalSpy finished(&agent, &AgentRun::finished);
        agent.start(QStringLiteral("do something odd"));
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("answered"));
        const auto second = nlohmann::json::parse(server.requests().at(1).body.toStdString());
        QVERIFY(second["messages"].back()["content"].get<std::string>().find("unknown tool") != std::string::npos);
        const auto third = nlohmann::json::parse(server.requests().at(2).body.toStdString());
        QVERIFY(third["messages"].back()["content"].get<std::string>().find("not a JSON object") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestEndToEnd)
#include "tst_endtoend.moc"
