#include <app/agent/agent.h>
#include <app/llm/httpmodelclient.h>
#include <sandbox/sandboxsession.h>
#include <support/agentharness.h>
#include <support/dockercheck.h>
#include <support/fakeopenaiserver.h>

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace Sandcastle;
using Sandcastle::Testing::FakeOpenAiServer;

using Harness = Sandcastle::Testing::AgentHarness;

namespace {

// The cache_control marks in a request (or a part of one).
int cacheMarks(const nlohmann::json &json)
{
    int marks = 0;
    if (json.is_object()) {
        for (auto it = json.begin(); it != json.end(); ++it)
            marks += it.key() == "cache_control" ? 1 : cacheMarks(it.value());
    } else if (json.is_array()) {
        for (const nlohmann::json &item : json)
            marks += cacheMarks(item);
    }
    return marks;
}

} // namespace

// The whole path without a window: prompt -> fake model -> tool call -> real container ->
// tool result back to the model -> answer.
class TestEndToEnd : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { SANDCASTLE_REQUIRE_DOCKER(); }

    void theSeedExampleIsAnsweredFromRealOutput()
    {
        Harness h;
        const QByteArray code = "numbers = [1, 2, 3, 4, 5]; print(sum(numbers) / len(numbers))";
        h.server.enqueueToolCall(QStringLiteral("call_seed"),
                                 QStringLiteral("run_python"),
                                 "{\"code\": \"" + code + "\"}",
                                 6,
                                 20); // slower than a frame: each piece is shown
        h.server.enqueueText(QStringLiteral("The average of the numbers is 3.0."));

        QSignalSpy finished(h.agent.get(), &Agent::finished);
        QSignalSpy outputs(h.agent.get(), &Agent::toolOutput);
        QSignalSpy results(h.agent.get(), &Agent::toolResult);
        QSignalSpy codeUpdates(h.agent.get(), &Agent::toolCodeChanged);
        QString answer;
        connect(
            h.agent.get(), &Agent::textDelta, this, [&answer](const QString &t) { answer += t; });

        QCOMPARE(h.run(QStringLiteral(
                     "Calculate the average of the numbers in this list: [1, 2, 3, 4, 5]")),
                 QStringLiteral("answered"));
        QCOMPARE(finished.first().at(1).toInt(), 2);

        // The code streamed into view piece by piece (at most once a frame), ending in the full
        // program.
        QVERIFY(codeUpdates.size() > 3);
        QCOMPARE(codeUpdates.last().at(1).toString(), QString::fromUtf8(code));
        // The container printed 3.0, live and in the result.
        QString streamed;
        for (const auto &args : outputs)
            streamed += args.at(2).toString();
        QCOMPARE(streamed, QStringLiteral("3.0\n"));
        QCOMPARE(results.size(), 1);
        QCOMPARE(results.first().at(1).value<ExecutionResult>().stdoutText,
                 QStringLiteral("3.0\n"));

        // The second request carried the tool result back to the model.
        QCOMPARE(h.server.requests().size(), 2);
        const auto messages = h.request(1)["messages"];
        QCOMPARE(messages.back()["role"].get<std::string>(), std::string("tool"));
        QCOMPARE(messages.back()["tool_call_id"].get<std::string>(), std::string("call_seed"));
        const auto toolContent = h.lastToolResult(1);
        QCOMPARE(toolContent["status"].get<std::string>(), std::string("ok"));
        QCOMPARE(toolContent["stdout"].get<std::string>(), std::string("3.0\n"));
        const auto &assistant = messages[messages.size() - 2];
        QCOMPARE(assistant["tool_calls"][0]["function"]["name"].get<std::string>(),
                 std::string("run_python"));

        QCOMPARE(answer, QStringLiteral("The average of the numbers is 3.0."));
        QCOMPARE(h.server.pendingResponses(), 0);
    }

    void errorsInTheCodeGoBackToTheModelWhichCanRecover()
    {
        Harness h;
        h.server.enqueueToolCall(QStringLiteral("c1"),
                                 QStringLiteral("run_python"),
                                 "{\"code\": \"print(undefined_name)\"}");
        h.server.enqueueToolCall(
            QStringLiteral("c2"), QStringLiteral("run_python"), "{\"code\": \"print(6 * 7)\"}");
        h.server.enqueueText(QStringLiteral("42"));
        QCOMPARE(h.run(QStringLiteral("what is 6 times 7?")), QStringLiteral("answered"));
        QCOMPARE(h.server.requests().size(), 3);
        const auto firstResult = h.lastToolResult(1);
        QCOMPARE(firstResult["status"].get<std::string>(), std::string("error"));
        QVERIFY(firstResult["error"].get<std::string>().find("NameError") != std::string::npos);
        QCOMPARE(h.lastToolResult(2)["stdout"].get<std::string>(), std::string("42\n"));
    }

    void variablesCarryFromOneToolCallToTheNext()
    {
        Harness h;
        h.server.enqueueToolCall(QStringLiteral("s1"),
                                 QStringLiteral("run_python"),
                                 "{\"code\": \"import statistics\\ndata = [3, 1, 4, 1, 5]\"}");
        h.server.enqueueToolCall(QStringLiteral("s2"),
                                 QStringLiteral("run_python"),
                                 "{\"code\": \"print(statistics.median(data))\"}");
        h.server.enqueueText(QStringLiteral("The median is 3."));
        QCOMPARE(h.run(QStringLiteral("median of 3 1 4 1 5?")), QStringLiteral("answered"));
        QCOMPARE(h.lastToolResult(2)["stdout"].get<std::string>(), std::string("3\n"));
    }

    // Two calls in one answer (parallel tool calls): both run, in the order the model wrote
    // them, and both results go back in the next request, each under its own call id.
    void parallelCallsInOneAnswerAreAllRunAndAnswered()
    {
        Harness h;
        Sandcastle::Testing::FakeTurn calls;
        calls.reasoning = QStringLiteral("Set it, then read it.");
        calls.calls = {
            {QStringLiteral("p1"), QStringLiteral("run_python"), "{\"code\": \"total = 6 * 7\"}"},
            {QStringLiteral("p2"), QStringLiteral("run_python"), "{\"code\": \"print(total)\"}"}};
        h.server.enqueueTurn(calls);
        h.server.enqueueText(QStringLiteral("It is 42."));
        QSignalSpy results(h.agent.get(), &Agent::toolResult);
        QCOMPARE(h.run(QStringLiteral("six times seven?")), QStringLiteral("answered"));
        QCOMPARE(results.size(), 2);
        QCOMPARE(h.server.requests().size(), 2);
        const nlohmann::json sent = h.request(1)["messages"];
        const nlohmann::json &asked = sent[sent.size() - 3];
        QCOMPARE(asked["tool_calls"].size(), size_t(2));
        QCOMPARE(asked["tool_calls"][1]["id"].get<std::string>(), std::string("p2"));
        QCOMPARE(sent[sent.size() - 2]["tool_call_id"].get<std::string>(), std::string("p1"));
        QCOMPARE(sent.back()["tool_call_id"].get<std::string>(), std::string("p2"));
        const nlohmann::json second
            = nlohmann::json::parse(sent.back()["content"].get<std::string>(), nullptr, false);
        QCOMPARE(second["stdout"].get<std::string>(), std::string("42\n"));
        QCOMPARE(h.agent->messages().at(2).reasoning, QStringLiteral("Set it, then read it."));
    }

    void theTurnLimitEndsALoopingModel()
    {
        AgentOptions options;
        options.maxTurns = 2;
        Harness h(options);
        for (int i = 0; i < 3; ++i)
            h.server.enqueueToolCall(QStringLiteral("loop%1").arg(i),
                                     QStringLiteral("run_python"),
                                     "{\"code\": \"print(1)\"}");
        QCOMPARE(h.run(QStringLiteral("loop")), QStringLiteral("max_turns"));
        QCOMPARE(h.server.requests().size(), 2);
    }

    void anUnknownToolOrBadArgumentsAreAnsweredWithAnError()
    {
        Harness h;
        h.server.enqueueToolCall(QStringLiteral("u1"), QStringLiteral("format_disk"), "{}");
        h.server.enqueueToolCall(
            QStringLiteral("u2"), QStringLiteral("run_python"), "{\"code\": 12");
        h.server.enqueueToolCall(QStringLiteral("u3"),
                                 QStringLiteral("write_file"),
                                 "{\"path\": \"../../etc/passwd\", \"content\": \"x\"}");
        h.server.enqueueToolCall(QStringLiteral("u4"), QStringLiteral("read_file"), "{}");
        h.server.enqueueText(QStringLiteral("sorry"));
        QCOMPARE(h.run(QStringLiteral("do something odd")), QStringLiteral("answered"));
        QCOMPARE(h.server.requests().size(), 5);
        QCOMPARE(h.lastToolResult(3)["status"].get<std::string>(), std::string("error"));
        QVERIFY(h.lastToolResult(3)["error"].get<std::string>().find("..") != std::string::npos);
        QVERIFY(h.lastToolResult(4)["error"].get<std::string>().find("path") != std::string::npos);
        QVERIFY(h.lastToolResult(1)["error"].get<std::string>().find("unknown tool")
                != std::string::npos);
        QVERIFY(h.lastToolResult(2)["error"].get<std::string>().find("not a JSON object")
                != std::string::npos);
    }

    void aServerWithoutToolsFallsBackToCodeBlocks()
    {
        Harness h;
        h.server.enqueueError(
            400, "{\"error\":\"registry.ollama.ai/library/gemma:2b does not support tools\"}");
        h.server.enqueueText(QStringLiteral(
            "I will compute it.\n```python\nprint(sum([1, 2, 3, 4, 5]) / 5)\n```\n"));
        h.server.enqueueText(QStringLiteral("The average is 3.0."));
        QSignalSpy retrying(h.agent.get(), &Agent::retrying);
        QSignalSpy results(h.agent.get(), &Agent::toolResult);
        QCOMPARE(h.run(QStringLiteral("average of 1..5?")), QStringLiteral("answered"));
        QVERIFY(h.agent->usesCodeBlocks());
        QCOMPARE(retrying.size(), 1);
        QCOMPARE(results.size(), 1);
        QCOMPARE(h.server.requests().size(), 3);
        QVERIFY(h.request(0).contains("tools"));
        QVERIFY(!h.request(1).contains("tools"));
        QVERIFY(h.request(1)["messages"][0]["content"].get<std::string>().find("```python")
                != std::string::npos);
        const auto third = h.request(2);
        const auto &last = third["messages"].back();
        QCOMPARE(last["role"].get<std::string>(), std::string("user"));
        QVERIFY(last["content"].get<std::string>().find("3.0") != std::string::npos);
    }

    void aToolCallPrintedAsTextIsRunAnyway()
    {
        Harness h;
        h.server.enqueueText(QStringLiteral(
            "{\"name\": \"run_python\", \"arguments\": {\"code\": \"print(7 * 6)\"}}"));
        h.server.enqueueText(QStringLiteral("42"));
        QCOMPARE(h.run(QStringLiteral("7 times 6?")), QStringLiteral("answered"));
        QCOMPARE(h.server.requests().size(), 2);
        const auto messages = h.request(1)["messages"];
        QCOMPARE(
            messages[messages.size() - 2]["tool_calls"][0]["function"]["name"].get<std::string>(),
            std::string("run_python"));
        QCOMPARE(h.lastToolResult(1)["stdout"].get<std::string>(), std::string("42\n"));
    }

    void filesWrittenByOneCallAreImportedByTheNext()
    {
        Harness h;
        h.server.enqueueToolCall(
            QStringLiteral("w1"),
            QStringLiteral("write_file"),
            "{\"path\": \"pkg/util.py\", \"content\": \"def double(x):\\n    return 2 * x\\n\"}");
        h.server.enqueueToolCall(QStringLiteral("w2"),
                                 QStringLiteral("write_file"),
                                 "{\"path\": \"pkg/__init__.py\", \"content\": \"\"}");
        h.server.enqueueToolCall(QStringLiteral("r1"),
                                 QStringLiteral("run_python"),
                                 "{\"code\": \"from pkg.util import double\\nprint(double(21))\"}");
        h.server.enqueueToolCall(
            QStringLiteral("s1"), QStringLiteral("run_shell"), "{\"command\": \"ls pkg\"}");
        h.server.enqueueToolCall(
            QStringLiteral("l1"), QStringLiteral("read_file"), "{\"path\": \"pkg/util.py\"}");
        h.server.enqueueText(QStringLiteral("42"));
        QCOMPARE(h.run(QStringLiteral("make a package and use it")), QStringLiteral("answered"));
        QCOMPARE(h.lastToolResult(1)["files"][0].get<std::string>(), std::string("pkg/util.py"));
        QCOMPARE(h.lastToolResult(3)["stdout"].get<std::string>(), std::string("42\n"));
        QVERIFY(h.lastToolResult(4)["stdout"].get<std::string>().find("util.py")
                != std::string::npos);
        QVERIFY(h.lastToolResult(5)["content"].get<std::string>().find("return 2 * x")
                != std::string::npos);
    }

    void threeIdenticalErrorsInARowStopTheRun()
    {
        Harness h;
        for (int i = 0; i < 5; ++i)
            h.server.enqueueToolCall(QStringLiteral("e%1").arg(i),
                                     QStringLiteral("run_python"),
                                     "{\"code\": \"print(missing_name)\"}");
        QSignalSpy errors(h.agent.get(), &Agent::errorOccurred);
        QCOMPARE(h.run(QStringLiteral("loop on an error")), QStringLiteral("error"));
        QCOMPARE(h.server.requests().size(), 3);
        QCOMPARE(errors.size(), 1);
        QCOMPARE(errors.first().at(0).toString(), QStringLiteral("repeated_error"));
        QVERIFY(h.agent->messages().back().role == Message::Role::Tool);
    }

    void thePersonsEditAndRerunReachTheModelAsADiff()
    {
        Harness h;
        h.server.enqueueToolCall(
            QStringLiteral("a1"),
            QStringLiteral("run_python"),
            "{\"code\": \"numbers = [1, 2, 3]\\nprint(sum(numbers) / len(numbers))\\n\"}");
        h.server.enqueueText(QStringLiteral("The average is 2.0."));
        h.server.enqueueText(QStringLiteral("With 4 added it is 2.5."));
        QCOMPARE(h.run(QStringLiteral("average of 1, 2, 3?")), QStringLiteral("answered"));

        // the person edits the agent's code in the editor and runs it
        const QString edited
            = QStringLiteral("numbers = [1, 2, 3, 4]\nprint(sum(numbers) / len(numbers))\n");
        QSignalSpy ran(h.session.get(), &SandboxSession::finished);
        h.session->runPython(edited);
        QVERIFY(ran.wait(60000));
        h.agent->notePersonRun(edited, ran.first().at(0).value<ExecutionResult>());

        QCOMPARE(h.run(QStringLiteral("what did my change do?")), QStringLiteral("answered"));
        const std::string asked = h.request(2)["messages"].back()["content"].get<std::string>();
        QVERIFY2(asked.find("```diff") != std::string::npos, asked.c_str());
        QVERIFY(asked.find("-numbers = [1, 2, 3]\n+numbers = [1, 2, 3, 4]") != std::string::npos);
        QVERIFY(asked.find("2.5") != std::string::npos);                    // the new result
        QVERIFY(asked.find("what did my change do?") != std::string::npos); // and the question

        // running it again unchanged says so
        h.server.enqueueText(QStringLiteral("ok"));
        h.agent->notePersonRun(
            QStringLiteral("numbers = [1, 2, 3]\nprint(sum(numbers) / len(numbers))\n"),
            ran.first().at(0).value<ExecutionResult>());
        QCOMPARE(h.run(QStringLiteral("and now?")), QStringLiteral("answered"));
        QVERIFY(h.request(3)["messages"].back()["content"].get<std::string>().find("unchanged")
                != std::string::npos);
    }

    void stoppingOnlyTheCodeTellsTheModelWhichGoesOn()
    {
        Harness h;
        h.server.enqueueToolCall(
            QStringLiteral("long"),
            QStringLiteral("run_python"),
            "{\"code\": \"import time\\nprint('working', flush=True)\\ntime.sleep(60)\"}");
        h.server.enqueueText(QStringLiteral("Understood, stopped."));
        QSignalSpy output(h.agent.get(), &Agent::toolOutput);
        QSignalSpy finished(h.agent.get(), &Agent::finished);
        h.agent->start(QStringLiteral("do a long thing"));
        QVERIFY(output.wait(60000));
        h.agent->stopCode();
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("answered"));
        QCOMPARE(h.server.requests().size(), 2);
        QVERIFY(h.lastToolResult(1)["error"].get<std::string>().find("stopped by the person")
                != std::string::npos);
    }

    void stoppingAfterTheStepLetsTheRunFinishThenEnds()
    {
        Harness h;
        h.server.enqueueToolCall(QStringLiteral("step"),
                                 QStringLiteral("run_python"),
                                 "{\"code\": \"import time\\nprint('step', "
                                 "flush=True)\\ntime.sleep(1)\\nprint('done')\"}");
        h.server.enqueueText(QStringLiteral("never asked"));
        QSignalSpy output(h.agent.get(), &Agent::toolOutput);
        QSignalSpy results(h.agent.get(), &Agent::toolResult);
        QSignalSpy finished(h.agent.get(), &Agent::finished);
        h.agent->start(QStringLiteral("one step"));
        QVERIFY(output.wait(60000));
        h.agent->stopAfterStep();
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("stopped"));
        QCOMPARE(results.size(), 1);
        QCOMPARE(results.first().at(1).value<ExecutionResult>().stdoutText,
                 QStringLiteral("step\ndone\n"));
        QCOMPARE(h.server.requests().size(), 1);
        QVERIFY(h.agent->messages().back().role == Message::Role::Tool);
    }

    void askFirstRunsThePersonsEditAndTellsTheModel()
    {
        AgentOptions options;
        options.askFirst = true;
        Harness h(options);
        h.server.enqueueToolCall(
            QStringLiteral("ask"), QStringLiteral("run_python"), "{\"code\": \"print(1 + 1)\"}");
        h.server.enqueueToolCall(QStringLiteral("ask2"),
                                 QStringLiteral("run_shell"),
                                 "{\"command\": \"rm -rf outputs\"}");
        h.server.enqueueText(QStringLiteral("fine"));
        QSignalSpy asked(h.agent.get(), &Agent::approvalRequested);
        QSignalSpy finished(h.agent.get(), &Agent::finished);
        h.agent->start(QStringLiteral("add"));
        QVERIFY(asked.wait(30000));
        QCOMPARE(asked.first().at(2).toString(), QStringLiteral("print(1 + 1)"));
        QVERIFY(h.agent->isAwaitingApproval());
        QTest::qWait(200);
        QCOMPARE(h.server.requests().size(),
                 1); // nothing runs, nothing is asked, until the person decides
        h.agent->approve(QStringLiteral("print(2 + 2)"));
        QVERIFY(asked.wait(60000));
        h.agent->reject(QStringLiteral("not in my workspace"));
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("answered"));
        const auto ran = h.lastToolResult(1);
        QCOMPARE(ran["stdout"].get<std::string>(), std::string("4\n"));
        QVERIFY(ran["note"].get<std::string>().find("-print(1 + 1)\n+print(2 + 2)")
                != std::string::npos);
        const auto declined = h.lastToolResult(2);
        QCOMPARE(declined["status"].get<std::string>(), std::string("error"));
        QVERIFY(declined["error"].get<std::string>().find("declined") != std::string::npos);
        QVERIFY(declined["error"].get<std::string>().find("not in my workspace")
                != std::string::npos);
    }

    void theTokenBudgetEndsARunThatSpendsTooMuch()
    {
        AgentOptions options;
        options.tokenBudget = 60; // the fake server reports 49 tokens per turn
        Harness h(options);
        for (int i = 0; i < 3; ++i)
            h.server.enqueueToolCall(QStringLiteral("t%1").arg(i),
                                     QStringLiteral("run_python"),
                                     "{\"code\": \"print(%1)\"}");
        QSignalSpy usage(h.agent.get(), &Agent::usage);
        QSignalSpy errors(h.agent.get(), &Agent::errorOccurred);
        QCOMPARE(h.run(QStringLiteral("spend")), QStringLiteral("error"));
        QCOMPARE(h.server.requests().size(), 2);
        QCOMPARE(usage.last().at(2).toLongLong(), 98);
        QCOMPARE(errors.first().at(0).toString(), QStringLiteral("token_budget"));
        QVERIFY(errors.first().at(1).toString().contains(QStringLiteral("budget of 60")));
    }

    // Ten turns in which the server reads the growing prefix of the conversation from its
    // cache: the cached tokens are counted and priced at the cached price (and, for Anthropic,
    // the cache writes at theirs), and every Messages request carries at most four marks.
    void aLongConversationCountsAndPricesItsCachedInput()
    {
        AgentOptions options;
        options.profile = {3.00, 15.00, 200000, 0.30, 3.75};
        options.maxTurns = 20;
        Harness h(options);
        const bool messages = Testing::testWireFormat() == WireFormat::Messages;
        const int turns = 10;
        double expectedCost = 0;
        qint64 cachedTotal = 0;
        qint64 promptTotal = 0;
        for (int i = 0; i < turns; ++i) {
            Testing::FakeTurn turn;
            if (i + 1 < turns)
                turn.calls.append({QStringLiteral("note_%1").arg(i),
                                   QStringLiteral("write_file"),
                                   QStringLiteral("{\"path\": \"notes/%1.txt\", \"content\": "
                                                  "\"step %1\"}")
                                       .arg(i)
                                       .toUtf8()});
            else
                turn.text = QStringLiteral("All nine notes are written.");
            turn.usage.input = 2000 + 400 * i;
            turn.usage.output = 50;
            turn.usage.cached = i == 0 ? 0 : 2000 + 400 * (i - 1);
            turn.usage.cacheWrite = messages ? (i == 0 ? 2000 : 400) : 0;
            h.server.enqueueTurn(turn);
            const int fresh = turn.usage.input - turn.usage.cached - turn.usage.cacheWrite;
            expectedCost += (fresh * 3.00 + turn.usage.cached * 0.30 + turn.usage.cacheWrite * 3.75
                             + turn.usage.output * 15.00)
                            / 1e6;
            cachedTotal += turn.usage.cached;
            promptTotal += turn.usage.input;
        }
        QSignalSpy usage(h.agent.get(), &Agent::usage);
        QCOMPARE(h.run(QStringLiteral("write nine notes")), QStringLiteral("answered"));
        QCOMPARE(usage.size(), turns);
        QCOMPARE(h.agent->runCachedTokens(), cachedTotal);
        QCOMPARE(h.agent->lastUsage().cachedPromptTokens, 2000 + 400 * (turns - 2));
        QCOMPARE(h.agent->lastUsage().promptTokens, 2000 + 400 * (turns - 1));
        if (messages)
            QCOMPARE(h.agent->lastUsage().cacheWriteTokens, 400);
        const double cost = usage.last().at(3).toDouble();
        QVERIFY2(qAbs(cost - expectedCost) < 1e-9,
                 qPrintable(QStringLiteral("%1 != %2").arg(cost).arg(expectedCost)));
        // The cache more than halved the input's price.
        QVERIFY(cost < options.profile.cost(promptTotal, 50 * turns) * 0.5);
        if (!messages)
            return;
        QCOMPARE(h.server.requests().size(), turns);
        for (int i = 0; i < turns; ++i) {
            const nlohmann::json request = h.rawRequest(i);
            const int marks = cacheMarks(request);
            QVERIFY2(marks >= 3 && marks <= 4, qPrintable(QString::number(marks)));
            QCOMPARE(cacheMarks(request["system"]), 1);
            QCOMPARE(cacheMarks(request["tools"]), 1);
            QVERIFY(request["tools"].back().contains("cache_control"));
            // The newest message is marked, so the next request reads all of this one.
            QCOMPARE(cacheMarks(request["messages"].back()), 1);
        }
    }

    void stoppingMidRunAnswersEveryToolCallAndEndsStopped()
    {
        Harness h;
        h.server.enqueueToolCall(QStringLiteral("slow"),
                                 QStringLiteral("run_python"),
                                 "{\"code\": \"import time; time.sleep(60)\"}");
        QSignalSpy finished(h.agent.get(), &Agent::finished);
        QSignalSpy calls(h.agent.get(), &Agent::toolCall);
        h.agent->start(QStringLiteral("sleep"));
        QVERIFY(calls.wait(60000));
        QTest::qWait(300);
        h.agent->stop();
        QCOMPARE(finished.size(), 1);
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("stopped"));
        const Message &last = h.agent->messages().back();
        QVERIFY(last.role == Message::Role::Tool);
        QCOMPARE(last.toolCallId, QStringLiteral("slow"));
        QVERIFY(!h.agent->isRunning());
    }
};

QTEST_GUILESS_MAIN(TestEndToEnd)
#include "tst_endtoend.moc"
