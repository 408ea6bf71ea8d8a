#include <app/agent/agent.h>
#include <app/agent/contextbudget.h>
#include <app/agent/modelprofiles.h>
#include <app/agent/storedhistory.h>
#include <app/llm/httpmodelclient.h>
#include <app/store/conversationrecorder.h>
#include <app/store/conversationstore.h>
#include <app/store/storedmessage.h>
#include <sandbox/sandboxsession.h>
#include <support/agentharness.h>
#include <support/fakemodelclient.h>
#include <support/fakeopenaiserver.h>
#include <support/testtimeouts.h>

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <memory>

using namespace Sandcastle;
using Sandcastle::Testing::FakeOpenAiServer;
using Sandcastle::Testing::kLongWaitMs;
using Sandcastle::Testing::kWaitMs;

namespace {

// The agent with a fake model and a sandbox that is never started: the host-side file tools
// need no container, so everything here runs without Docker.
struct Harness : Sandcastle::Testing::AgentHarness
{
    explicit Harness(const AgentOptions &options = AgentOptions())
        : AgentHarness(options, SandboxConfig())
    {}
    QString run(const QString &prompt) { return AgentHarness::run(prompt, kWaitMs); }
};

nlohmann::json toolCallMessage(const std::string &id, const std::string &code)
{
    return {{"role", "assistant"},
            {"content", nullptr},
            {"tool_calls",
             nlohmann::json::array({{{"id", id},
                                     {"type", "function"},
                                     {"function",
                                      {{"name", "run_python"},
                                       {"arguments", nlohmann::json{{"code", code}}.dump()}}}}})}};
}

nlohmann::json toolResultMessage(const std::string &id, const std::string &stdoutText)
{
    return {{"role", "tool"},
            {"tool_call_id", id},
            {"content",
             nlohmann::json{{"status", "ok"}, {"exit_code", 0}, {"stdout", stdoutText}}.dump()}};
}

// A host tool that answers later, as an MCP server's does: after `delayMs`, from the event loop.
class LaterTool : public Tool
{
public:
    explicit LaterTool(int delayMs, bool approval = false)
        : m_delayMs(delayMs)
        , m_approval(approval)
    {}
    const ToolSpec &spec() const override { return m_spec; }
    Place place() const override { return Place::Host; }
    bool needsApproval() const override { return m_approval; }
    mutable int invoked = 0;
    int answered() const { return *m_answered; } // how many answers it gave (late ones too)
    void
    invoke(const nlohmann::json &arguments, const ToolContext &, const Done &done) const override
    {
        ++invoked;
        const std::string text = arguments.value("text", std::string());
        QTimer::singleShot(m_delayMs, [done, text, answered = m_answered] {
            done({{"status", "ok"}, {"stdout", "echo: " + text}, {"files", {"echo.txt"}}});
            ++*answered;
        });
    }

private:
    ToolSpec m_spec{QStringLiteral("mcp_echo"),
                    QStringLiteral("Echoes its text."),
                    {{"type", "object"}, {"properties", {{"text", {{"type", "string"}}}}}}};
    int m_delayMs;
    bool m_approval;
    std::shared_ptr<int> m_answered = std::make_shared<int>(0);
};

// Stored messages (which have the Chat Completions shape) as the agent holds them.
QList<Message> neutral(const nlohmann::json &stored)
{
    QList<Message> out;
    for (const auto &message : stored)
        out << fromStoreJson(message).value();
    return out;
}

} // namespace

class TestAgentHistory : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void modelPricesAreFoundByNameSnapshotAndRouterPrefix()
    {
        const ModelProfiles table = ModelProfiles::builtIn();
        QVERIFY(table.lookup(QStringLiteral("gpt-4o-mini")).hasPrice());
        QCOMPARE(table.lookup(QStringLiteral("gpt-4o-mini-2024-07-18")).inputPerMTok, 0.15);
        QCOMPARE(table.lookup(QStringLiteral("gpt-4o-2024-08-06")).inputPerMTok, 2.50);
        QCOMPARE(table.lookup(QStringLiteral("openai/gpt-4.1-mini")).outputPerMTok, 1.60);
        QVERIFY(!table.lookup(QStringLiteral("gpt-4oxyz")).hasPrice());
        QVERIFY(!table.lookup(QStringLiteral("llama3.2")).hasPrice());
        const ModelProfile mini = table.lookup(QStringLiteral("gpt-4o-mini"));
        QCOMPARE(mini.cost(1000000, 1000000), 0.75);
        QCOMPARE(ModelProfile().cost(10, 10), -1.0);
    }

    void thePriceTableFileOverridesAndExtendsTheBuiltIns()
    {
        QTemporaryDir dir;
        const QString path = ModelProfiles::fileIn(dir.path());
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"gpt-4o-mini": {"input_per_mtok": 1}, "local-llm": {"input_per_mtok": 0,
                      "output_per_mtok": 0, "context_tokens": 8192}})");
        file.close();
        ModelProfiles table = ModelProfiles::builtIn();
        QVERIFY(table.loadFile(path));
        QCOMPARE(table.lookup(QStringLiteral("gpt-4o-mini")).inputPerMTok, 1.0);
        QCOMPARE(table.lookup(QStringLiteral("gpt-4o-mini")).outputPerMTok, 0.60); // kept
        QCOMPARE(table.lookup(QStringLiteral("local-llm")).contextTokens, 8192);
        QCOMPARE(table.lookup(QStringLiteral("local-llm")).cost(5000, 5000), 0.0);

        // Saved and read back, the same.
        const QString copy = dir.filePath(QStringLiteral("copy.json"));
        QVERIFY(table.saveFile(copy));
        ModelProfiles again;
        QVERIFY(again.loadFile(copy));
        QCOMPARE(again.lookup(QStringLiteral("local-llm")).contextTokens, 8192);
        QCOMPARE(again.lookup(QStringLiteral("gpt-4o-mini")).inputPerMTok, 1.0);

        // A broken file is reported and changes nothing.
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write("{\"a\": 3, ");
        file.close();
        ModelProfiles fresh = ModelProfiles::builtIn();
        const Result<bool> loaded = fresh.loadFile(path);
        QVERIFY(!loaded);
        QVERIFY(loaded.error().contains(path));
        QCOMPARE(fresh.lookup(QStringLiteral("gpt-4o-mini")).inputPerMTok, 0.15);
        QVERIFY(ModelProfiles::builtIn().loadFile(dir.filePath(QStringLiteral("none.json"))));
    }

    void withinTheWindowNothingIsTouched()
    {
        const QList<Message> messages
            = neutral(nlohmann::json::array({{{"role", "system"}, {"content", "sys"}},
                                             {{"role", "user"}, {"content", "hi"}},
                                             toolCallMessage("c1", "print(1)"),
                                             toolResultMessage("c1", "1\n")}));
        const ContextBudget::Compacted out = ContextBudget::compact(messages, 100000);
        QVERIFY(out.messages == messages);
        QCOMPARE(out.summarisedToolResults, 0);
        QVERIFY(out.estimatedTokens > 0);
    }

    void olderToolOutputGoesFirstAndThePersonsWordsNever()
    {
        const std::string big(8000, 'x');
        const std::string userText(3000, 'u');
        nlohmann::json stored = nlohmann::json::array(
            {{{"role", "system"}, {"content", "sys"}}, {{"role", "user"}, {"content", userText}}});
        for (int i = 1; i <= 5; ++i) {
            const std::string id = "c" + std::to_string(i);
            stored.push_back(toolCallMessage(id, std::string(1000, 'p') + std::to_string(i)));
            stored.push_back(
                toolResultMessage(id, "line one of run " + std::to_string(i) + "\n" + big));
        }
        const QList<Message> messages = neutral(stored);
        const qint64 before = ContextBudget::estimateTokens(messages);
        const qint64 budget = before / 2;
        const ContextBudget::Compacted out = ContextBudget::compact(messages, budget);
        QVERIFY(out.estimatedTokens <= budget);
        QVERIFY(out.summarisedToolResults >= 1 && out.summarisedToolResults <= 3);
        QCOMPARE(out.messages.size(), messages.size());
        // The oldest result went first, with its status and first line kept.
        const nlohmann::json first = nlohmann::json::parse(out.messages[3].text.toStdString());
        QCOMPARE(first["status"].get<std::string>(), std::string("ok"));
        QVERIFY(first["summary"].get<std::string>().find("line one of run 1") != std::string::npos);
        // The last two results, the person's message and every id are as they were.
        QVERIFY(out.messages[out.messages.size() - 1] == messages.back());
        QVERIFY(out.messages[out.messages.size() - 3] == messages[messages.size() - 3]);
        QVERIFY(out.messages[1] == messages[1]);
        QVERIFY(out.messages[0] == messages[0]);
        for (qsizetype i = 0; i < messages.size(); ++i)
            QCOMPARE(out.messages[i].toolCallId, messages[i].toolCallId);

        // A tighter window also shortens the code of older calls, still never the person's text.
        const ContextBudget::Compacted tight = ContextBudget::compact(messages, 2500);
        QCOMPARE(tight.summarisedToolResults, 5); // the recent ones too, when nothing else fits
        QVERIFY(tight.estimatedTokens <= 2500);
        QVERIFY(tight.shortenedToolCalls >= 1);
        QVERIFY(tight.messages[1] == messages[1]);
        const std::string args = tight.messages[2].toolCalls[0].arguments.toStdString();
        QVERIFY(nlohmann::json::parse(args, nullptr, false).is_object()); // still valid JSON
        QCOMPARE(tight.messages[2].toolCalls[0].id, QStringLiteral("c1"));
    }

    void everyMessageIsRecordedWholeWithItsReasoning()
    {
        Harness h;
        QTemporaryDir dir;
        ConversationStore store;
        QVERIFY(store.open(dir.filePath(QStringLiteral("s.sqlite3"))));
        QVERIFY(
            store.create(QStringLiteral("conv"), QStringLiteral("t"), h.workspace.path(), false));
        ConversationRecorder recorder(&store, QStringLiteral("conv"));
        recorder.attach(h.agent.get());

        h.server.enqueueToolCall(QStringLiteral("w1"),
                                 QStringLiteral("write_file"),
                                 R"({"path": "notes.txt", "content": "hello"})");
        Sandcastle::Testing::FakeTurn answer;
        answer.reasoning = QStringLiteral("let me think");
        answer.text = QStringLiteral("Saved.");
        answer.pieceSize = 100;
        h.server.enqueueTurn(answer);
        QCOMPARE(h.run(QStringLiteral("save a note")), QStringLiteral("answered"));

        const nlohmann::json stored = store.messages(QStringLiteral("conv")).value();
        nlohmann::json inMemory = nlohmann::json::array();
        for (const Message &message : h.agent->messages())
            inMemory.push_back(toStoreJson(message));
        inMemory.erase(inMemory.begin()); // the system prompt is not stored
        QCOMPARE(stored.size(), inMemory.size());
        QCOMPARE(stored.size(), size_t(4)); // user, assistant call, tool, assistant answer
        QCOMPARE(stored.back()["reasoning"].get<std::string>(), std::string("let me think"));
        for (size_t i = 0; i + 1 < stored.size(); ++i)
            QVERIFY2(stored[i] == inMemory[i], stored[i].dump().c_str());
    }

    void aMessageTheStoreCannotKeepIsReportedWhenTheTurnEnds()
    {
        Harness h;
        QTemporaryDir dir;
        ConversationStore store;
        QVERIFY(store.open(dir.filePath(QStringLiteral("s.sqlite3"))));
        // The conversation is not in the store (deleted meanwhile): its messages are refused
        // by the writer thread, and the recorder says so once the turn's save settled (the
        // window does not wait for it).
        ConversationRecorder recorder(&store, QStringLiteral("gone"));
        recorder.attach(h.agent.get());
        QSignalSpy errors(&recorder, &ConversationRecorder::errorOccurred);
        QSignalSpy saved(&recorder, &ConversationRecorder::turnSaved);
        h.server.enqueueText(QStringLiteral("Hello."));
        QCOMPARE(h.run(QStringLiteral("hi")), QStringLiteral("answered"));
        QVERIFY(saved.size() == 1 || saved.wait(kWaitMs));
        QCOMPARE(errors.size(), 1);
        const QString said = errors.first().first().toString();
        QVERIFY2(said.contains(QStringLiteral("gone")) && said.contains(QStringLiteral("dropped")),
                 qPrintable(said));
    }

    void aStoredConversationContinuesAndADanglingCallGetsAnAnswer()
    {
        Harness h;
        const nlohmann::json history = nlohmann::json::array(
            {{{"role", "user"}, {"content", "make x"}},
             {{"role", "assistant"}, {"content", "Working."}, {"reasoning", "hidden"}},
             toolCallMessage("c9", "x = 42"),
             // the app died here: no tool result for c9
             {{"role", "tool"}, {"tool_call_id", "stray"}, {"content", "{}"}}});
        h.agent->loadHistory(history);
        h.server.enqueueText(QStringLiteral("x was lost; run it again."));
        QCOMPARE(h.run(QStringLiteral("what is x?")), QStringLiteral("answered"));
        const nlohmann::json sent = h.request(0)["messages"];
        QCOMPARE(sent[0]["role"].get<std::string>(), std::string("system"));
        QCOMPARE(sent[1]["content"].get<std::string>(), std::string("make x"));
        QVERIFY(!sent[2].contains("reasoning"));
        QCOMPARE(sent[3]["tool_calls"][0]["id"].get<std::string>(), std::string("c9"));
        QCOMPARE(sent[4]["role"].get<std::string>(), std::string("tool"));
        QCOMPARE(sent[4]["tool_call_id"].get<std::string>(), std::string("c9"));
        QVERIFY(sent[4]["content"].get<std::string>().find("interrupted") != std::string::npos);
        QCOMPARE(sent[5]["content"].get<std::string>(), std::string("what is x?"));
        QCOMPARE(sent.size(), size_t(6)); // the stray result without a call is dropped
    }

    void theAgentLoopRunsOnAnyModelClientWithNeutralMessages()
    {
        Sandcastle::Testing::FakeModelClient client;
        QTemporaryDir workspace;
        SandboxConfig config;
        config.workspace = workspace.path();
        SandboxSession session(config); // never started: only host tools are called
        Agent agent(&client, &session, AgentOptions());
        Completion call;
        call.toolCalls = {{QStringLiteral("f1"),
                           QStringLiteral("write_file"),
                           QStringLiteral(R"({"path": "a.txt", "content": "x"})")}};
        call.usage.promptTokens = 10;
        call.usage.completionTokens = 2;
        Completion answer;
        answer.text = QStringLiteral("Written.");
        answer.reasoning = QStringLiteral("easy");
        client.script = {call, answer};
        QSignalSpy usage(&agent, &Agent::usage);
        QSignalSpy finished(&agent, &Agent::finished);
        agent.start(QStringLiteral("write a.txt"));
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("answered"));
        QVERIFY(QFile::exists(workspace.filePath(QStringLiteral("a.txt"))));
        QCOMPARE(client.sentTools.first().size(), 7);
        QCOMPARE(client.sentTools.first().first().name, QStringLiteral("run_python"));
        QCOMPARE(client.sentMessages.size(), 2);
        const Message result = client.sentMessages[1].last();
        QVERIFY(result.role == Message::Role::Tool);
        QCOMPARE(result.toolCallId, QStringLiteral("f1"));
        QVERIFY(result.text.contains(QStringLiteral("\"status\":\"ok\"")));
        QVERIFY(client.sentMessages[1][2].toolCalls == call.toolCalls);
        QCOMPARE(usage.size(), 1);
        QCOMPARE(usage.first().at(2).toLongLong(), qint64(12));
        QVERIFY(agent.messages().last()
                == Message::assistant(QStringLiteral("Written."), QStringLiteral("easy")));
    }

    void aStoredHistoryIsRepairedForStrictServersWithoutTheAgent()
    {
        const nlohmann::json stored = nlohmann::json::array(
            {{{"role", "system"}, {"content", "an old prompt"}},
             {{"role", "user"}, {"content", "make x"}},
             toolCallMessage("c1", "x = 1"),
             toolResultMessage("c1", ""),
             toolCallMessage("c2", "x = 42"),
             {{"role", "tool"}, {"tool_call_id", "stray"}, {"content", "{}"}},
             {{"role", "user"}, {"content", "and?"}},
             {{"role", "nobody"}, {"content", "?"}}});
        const QList<Message> history = historyFromStore(stored);
        QCOMPARE(history.size(), 6); // no system, no stray result, no unknown role; one answer
        QVERIFY(history[0] == Message::user(QStringLiteral("make x")));
        QCOMPARE(history[3].toolCalls.first().id, QStringLiteral("c2"));
        QVERIFY(history[4].role == Message::Role::Tool);
        QCOMPARE(history[4].toolCallId, QStringLiteral("c2"));
        QVERIFY(history[4].text.contains(QStringLiteral("interrupted")));
        QCOMPARE(history[5].text, QStringLiteral("and?"));
        QCOMPARE(lastPythonCode(history), QStringLiteral("x = 42"));
        QVERIFY(lastPythonCode({}).isEmpty());
        QVERIFY(historyFromStore(nlohmann::json::object()).isEmpty());
    }

    void stoppingWhileTheModelWritesKeepsThePartialAnswerAndTheConversationGoesOn()
    {
        Harness h;
        QTemporaryDir dir;
        ConversationStore store;
        QVERIFY(store.open(dir.filePath(QStringLiteral("s.sqlite3"))));
        QVERIFY(
            store.create(QStringLiteral("conv"), QStringLiteral("t"), h.workspace.path(), false));
        ConversationRecorder recorder(&store, QStringLiteral("conv"));
        recorder.attach(h.agent.get());
        Sandcastle::Testing::FakeTurn slow;
        for (int i = 0; i < 200; ++i)
            slow.text += QStringLiteral("word%1 ").arg(i);
        slow.pieceSize = 6;
        h.server.enqueueTurn(slow, 20);
        QSignalSpy deltas(h.agent.get(), &Agent::textDelta);
        QSignalSpy finished(h.agent.get(), &Agent::finished);
        h.agent->start(QStringLiteral("write a lot"));
        QTRY_VERIFY_WITH_TIMEOUT(deltas.size() >= 3, kWaitMs);
        h.agent->stop();
        QCOMPARE(finished.size(), 1);
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("stopped"));
        const Message last = h.agent->messages().back();
        QVERIFY(last.role == Message::Role::Assistant);
        const std::string partial = last.text.toStdString();
        QVERIFY(partial.rfind("word0 word1 word2 ", 0) == 0);
        QVERIFY(partial.find("word199") == std::string::npos);
        QCOMPARE(
            store.messages(QStringLiteral("conv")).value().back()["content"].get<std::string>(),
            partial);

        h.server.enqueueText(QStringLiteral("Shorter, then."));
        QCOMPARE(h.run(QStringLiteral("shorter please")), QStringLiteral("answered"));
        const nlohmann::json sent = h.request(int(h.server.requests().size()) - 1)["messages"];
        QCOMPARE(sent[2]["content"].get<std::string>(), partial);
        QCOMPARE(sent[3]["content"].get<std::string>(), std::string("shorter please"));
    }

    void afterAServerErrorTheRunResumesWithoutANewMessage()
    {
        Harness h;
        h.server.enqueueError(
            500, R"({"error":{"message":"the server fell over"}})", {{"x-should-retry", "false"}});
        QCOMPARE(h.run(QStringLiteral("hello")), QStringLiteral("error"));
        h.server.enqueueText(QStringLiteral("Hello again."));
        QSignalSpy finished(h.agent.get(), &Agent::finished);
        QVERIFY(h.agent->resume());
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(finished.last().at(0).toString(), QStringLiteral("answered"));
        QCOMPARE(h.request(1)["messages"], h.request(0)["messages"]); // the same question
        QCOMPARE(h.agent->messages().back().text, QStringLiteral("Hello again."));
        QVERIFY(!h.agent->resume()); // answered: nothing to resume
    }

    void theCostBudgetEndsARunAndSaysWhichLimit()
    {
        AgentOptions options;
        options.costBudgetUsd = 0.06;
        options.profile = {1000.0, 1000.0, 0}; // $0.049 per fake turn of 42 + 7 tokens
        Harness h(options);
        QSignalSpy usage(h.agent.get(), &Agent::usage);
        QSignalSpy errors(h.agent.get(), &Agent::errorOccurred);
        for (int i = 0; i < 4; ++i)
            h.server.enqueueToolCall(
                QStringLiteral("l%1").arg(i), QStringLiteral("list_files"), "{}");
        QCOMPARE(h.run(QStringLiteral("loop")), QStringLiteral("error"));
        QCOMPARE(h.agent->limitReached(), QStringLiteral("cost_budget"));
        QCOMPARE(h.server.requests().size(), 2);
        QCOMPARE(usage.size(), 2);
        QVERIFY(qAbs(usage.last().at(3).toDouble() - 0.098) < 1e-9);
        QCOMPARE(errors.last().at(0).toString(), QStringLiteral("cost_budget"));
        QVERIFY(errors.last().at(1).toString().contains(QStringLiteral("cost budget")));
    }

    void aCostBudgetWithoutAPriceRefusesToSpend()
    {
        AgentOptions options;
        options.costBudgetUsd = 1;
        Harness h(options);
        QSignalSpy errors(h.agent.get(), &Agent::errorOccurred);
        QCOMPARE(h.run(QStringLiteral("hi")), QStringLiteral("error"));
        QCOMPARE(h.server.requests().size(), 0);
        QVERIFY(errors.last().at(1).toString().contains(QStringLiteral("models.json")));
    }

    void requestsAreFittedIntoTheContextWindow()
    {
        AgentOptions options;
        options.contextTokens = 3000;
        Harness h(options);
        nlohmann::json history = nlohmann::json::array({{{"role", "user"}, {"content", "start"}}});
        for (int i = 1; i <= 4; ++i) {
            const std::string id = "h" + std::to_string(i);
            history.push_back(toolCallMessage(id, "print('x' * 4000)"));
            history.push_back(toolResultMessage(id, std::string(4000, 'x')));
        }
        h.agent->loadHistory(history);
        QSignalSpy compacted(h.agent.get(), &Agent::contextCompacted);
        h.server.enqueueText(QStringLiteral("ok"));
        QCOMPARE(h.run(QStringLiteral("summarise")), QStringLiteral("answered"));
        QCOMPARE(compacted.size(), 1);
        const nlohmann::json sent = h.request(0)["messages"];
        QVERIFY(ContextBudget::estimateTokens(neutral(sent)) <= 3000 * 3 / 4);
        QVERIFY(sent[2 + 1]["content"].get<std::string>().find("left out") != std::string::npos);
        QCOMPARE(sent.back()["content"].get<std::string>(), std::string("summarise"));
        // The agent's own history keeps everything (the store gets it whole).
        QCOMPARE(h.agent->messages()[3].text.toStdString(),
                 history[2]["content"].get<std::string>());
    }

    void aToolAddedToTheRegistryIsOfferedAndItsLaterAnswerReachesTheModel()
    {
        Harness h;
        QVERIFY(h.agent->tools().add(std::make_shared<LaterTool>(50)));
        QSignalSpy answered(h.agent.get(), &Agent::toolAnswered);
        h.server.enqueueToolCall(
            QStringLiteral("m1"), QStringLiteral("mcp_echo"), R"({"text": "hello"})");
        h.server.enqueueText(QStringLiteral("It said hello."));
        QCOMPARE(h.run(QStringLiteral("echo hello")), QStringLiteral("answered"));
        QCOMPARE(h.request(0)["tools"].size(), size_t(8));
        QCOMPARE(h.request(0)["tools"][7]["function"]["name"].get<std::string>(),
                 std::string("mcp_echo"));
        QCOMPARE(h.lastToolResult(1)["stdout"].get<std::string>(), std::string("echo: hello"));
        QCOMPARE(answered.size(), 1);
        QCOMPARE(answered.first().at(1).value<ToolResultStatus>(), ToolResultStatus::Ok);
        QCOMPARE(answered.first().at(3).toStringList(), QStringList{QStringLiteral("echo.txt")});
    }

    void aHostToolThatNeedsApprovalWaitsForThePerson()
    {
        AgentOptions options;
        options.askFirst = true;
        Harness h(options);
        QVERIFY(h.agent->tools().add(std::make_shared<LaterTool>(0, true)));
        QSignalSpy asked(h.agent.get(), &Agent::approvalRequested);
        QSignalSpy finished(h.agent.get(), &Agent::finished);
        h.server.enqueueToolCall(
            QStringLiteral("m1"), QStringLiteral("mcp_echo"), R"({"text": "a"})");
        h.server.enqueueToolCall(QStringLiteral("w1"),
                                 QStringLiteral("write_file"),
                                 R"({"path": "b.txt", "content": "b"})");
        h.server.enqueueText(QStringLiteral("Done."));
        h.agent->start(QStringLiteral("go"));
        QVERIFY(asked.wait(kWaitMs));
        QCOMPARE(asked.first().at(2).toString(), QStringLiteral(R"({"text": "a"})"));
        QVERIFY(h.agent->isAwaitingApproval());
        h.agent->approve(QString());
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("answered"));
        QCOMPARE(asked.size(), 1); // the file tools do not ask
        QCOMPARE(h.lastToolResult(1)["stdout"].get<std::string>(), std::string("echo: a"));
    }

    // A call is announced (toolCall()) and carried out on the loop's next turn, its arguments
    // parsed on a worker thread when they are long: a stop in between answers it, and it never
    // runs afterwards.
    void stoppingBetweenTheAnnouncementAndTheRunAnswersTheCallAndRunsNothing_data()
    {
        QTest::addColumn<int>("textSize");
        QTest::addColumn<bool>("whileParsing");
        QTest::newRow("short arguments") << 10 << false;
        QTest::newRow("long arguments, before the parse") << 2000000 << false;
        QTest::newRow("long arguments, while the worker parses") << 2000000 << true;
    }

    void stoppingBetweenTheAnnouncementAndTheRunAnswersTheCallAndRunsNothing()
    {
        QFETCH(int, textSize);
        QFETCH(bool, whileParsing);
        Harness h;
        auto tool = std::make_shared<LaterTool>(0);
        QVERIFY(h.agent->tools().add(tool));
        QSignalSpy finished(h.agent.get(), &Agent::finished);
        connect(h.agent.get(), &Agent::toolCall, this, [&] {
            if (!whileParsing) {
                h.agent->stop();
                return;
            }
            // The agent's turn after this one starts the worker; the turn after that stops.
            QTimer::singleShot(
                0, this, [&] { QTimer::singleShot(0, this, [&] { h.agent->stop(); }); });
        });
        const nlohmann::json arguments = {{"text", std::string(size_t(textSize), 'a')}};
        h.server.enqueueToolCall(QStringLiteral("m1"),
                                 QStringLiteral("mcp_echo"),
                                 QByteArray::fromStdString(arguments.dump()),
                                 4096);
        h.agent->start(QStringLiteral("go"));
        // Two megabytes streamed 4 KB at a time take seconds in a Debug build on a busy machine.
        QVERIFY(finished.wait(kLongWaitMs));
        QCOMPARE(finished.first().first().toString(), QStringLiteral("stopped"));
        const Message last = h.agent->messages().back();
        QVERIFY(last.role == Message::Role::Tool);
        QCOMPARE(last.toolCallId, QStringLiteral("m1"));
        QVERIFY2(last.text.contains(QStringLiteral("not run: the person stopped the agent")),
                 qPrintable(last.text));
        const qsizetype count = h.agent->messages().size();
        QTest::qWait(300); // a parse on the worker ends meanwhile and is dropped
        QCOMPARE(tool->invoked, 0);
        QCOMPARE(h.agent->messages().size(), count);
    }

    // Long arguments parsed on the worker: the call is carried out with them, whole.
    void aLongCallIsParsedOnAWorkerAndCarriedOut()
    {
        Harness h;
        auto tool = std::make_shared<LaterTool>(0);
        QVERIFY(h.agent->tools().add(tool));
        const std::string text(300000, 'b');
        h.server.enqueueToolCall(QStringLiteral("m1"),
                                 QStringLiteral("mcp_echo"),
                                 QByteArray::fromStdString(nlohmann::json{{"text", text}}.dump()),
                                 4096);
        h.server.enqueueText(QStringLiteral("Echoed."));
        QCOMPARE(h.run(QStringLiteral("go")), QStringLiteral("answered"));
        QCOMPARE(tool->invoked, 1);
        QCOMPARE(h.lastToolResult(1)["stdout"].get<std::string>(), "echo: " + text);
    }

    void stoppingWhileAHostToolWorksAnswersItsCallAndDropsTheLateAnswer()
    {
        Harness h;
        // It answers a second after it starts: the stop comes well before, however busy the
        // machine.
        auto tool = std::make_shared<LaterTool>(1000);
        QVERIFY(h.agent->tools().add(tool));
        QSignalSpy calls(h.agent.get(), &Agent::toolCall);
        nlohmann::json recorded;
        connect(h.agent.get(), &Agent::messageRecorded, this, [&](const Message &m) {
            recorded = toStoreJson(m);
        });
        h.server.enqueueToolCall(
            QStringLiteral("m1"), QStringLiteral("mcp_echo"), R"({"text": "a"})");
        h.agent->start(QStringLiteral("go"));
        QVERIFY(calls.wait(kWaitMs));
        // Announced, then carried out on the loop's next turn: it works.
        QTRY_COMPARE_WITH_TIMEOUT(tool->invoked, 1, kWaitMs);
        QCOMPARE(tool->answered(), 0);
        h.agent->stop();
        const Message last = h.agent->messages().back();
        QVERIFY(last.role == Message::Role::Tool);
        QCOMPARE(last.toolCallId, QStringLiteral("m1"));
        QVERIFY(last.text.contains(QStringLiteral("stopped by the person")));
        const qsizetype count = h.agent->messages().size();
        // The tool's answer comes and is dropped: nothing follows from it (a request to the
        // model would reach the fake server within a few turns of the loop).
        QTRY_COMPARE_WITH_TIMEOUT(tool->answered(), 1, kWaitMs);
        QTest::qWait(200);
        QCOMPARE(h.agent->messages().size(), count);
        QCOMPARE(h.server.requests().size(), 1);
        QCOMPARE(recorded.value("tool_call_id", std::string()), std::string("m1")); // stored too
    }
};

QTEST_GUILESS_MAIN(TestAgentHistory)
#include "tst_agenthistory.moc"
