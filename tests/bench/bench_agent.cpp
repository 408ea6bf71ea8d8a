// One agent turn's own cost in a long conversation: with a model that answers at once (each
// prompt: a run_python call, then a short answer) and a warm sandbox whose runs take about a
// millisecond, everything a turn spends besides the run itself — building the requests in the
// wire format (the same JSON HttpModelClient would post), history and context fitting, the
// recorder's appends to the store, the agent's events — measured at turn 50 against the same at
// turns 1-10: each request carries the whole history, so some growth is due; a cost that grew
// with the square of it would show in the ratio.
#include "benchreport.h"
#include "benchtiming.h"

#include <app/agent/agent.h>
#include <app/llm/httpmodelclient.h>
#include <app/store/conversationrecorder.h>
#include <app/store/conversationstore.h>
#include <sandbox/sandboxsession.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <vector>

using namespace Sandcastle;

namespace {

// Answers at once from the event loop: a run_python call first, then an answer; each request
// is first encoded as Chat Completions JSON, as the real client would.
class InstantModel : public ModelClient
{
public:
    InstantModel()
        : m_encoder(config())
    {}
    qint64 requestBytes = 0;

    void send(const QList<Message> &messages, const QList<ToolSpec> &tools) override
    {
        requestBytes = qint64(m_encoder.requestBody(messages, tools).dump().size());
        const bool answer = !messages.isEmpty() && messages.last().role == Message::Role::Tool;
        m_busy = true;
        QMetaObject::invokeMethod(
            this,
            [this, answer] {
                if (!std::exchange(m_busy, false))
                    return;
                Completion completion;
                if (answer) {
                    completion.text = QStringLiteral("The run printed the table; the mean is 4.5 "
                                                     "and nothing looks off.\n\n| a | b |\n|---|"
                                                     "---|\n| 1 | 2 |\n");
                    completion.finishReason = QStringLiteral("stop");
                } else {
                    ++m_calls;
                    completion.toolCalls
                        << ToolCall{QStringLiteral("call_%1").arg(m_calls),
                                    QStringLiteral("run_python"),
                                    QStringLiteral("{\"code\": \"print('row %1 ' + 'x' * 2000)\"}")
                                        .arg(m_calls)};
                    completion.finishReason = QStringLiteral("tool_calls");
                }
                completion.usage.promptTokens = int(requestBytes / 4);
                completion.usage.completionTokens = 40;
                if (!completion.text.isEmpty())
                    Q_EMIT textDelta(completion.text);
                Q_EMIT finished(completion);
            },
            Qt::QueuedConnection);
    }
    void cancel() override { m_busy = false; }
    bool isBusy() const override { return m_busy; }
    Completion partial() const override { return {}; }

private:
    static ClientConfig config()
    {
        ClientConfig config;
        config.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:9/v1"));
        config.model = QStringLiteral("instant");
        return config;
    }
    HttpModelClient m_encoder;
    bool m_busy = false;
    int m_calls = 0;
};

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QTemporaryDir workspace, data;
    SandboxConfig sandbox = SandboxConfig::fromEnvironment();
    sandbox.workspace = workspace.path();
    SandboxSession session(sandbox);
    session.start();
    if (!QTest::qWaitFor([&] { return session.state() == SandboxSession::State::Ready; }, 60000)) {
        std::fprintf(stderr, "bench_agent: the sandbox did not start (is Docker up?)\n");
        return 1;
    }
    ConversationStore store;
    if (!store.open(ConversationStore::defaultPath(data.path()))
        || !store.create(
            QStringLiteral("long"), QStringLiteral("A long one"), workspace.path(), false)) {
        std::fprintf(stderr, "bench_agent: no store\n");
        return 1;
    }
    InstantModel model;
    Agent agent(&model, &session, AgentOptions());
    ConversationRecorder recorder(&store, QStringLiteral("long"));
    recorder.attach(&agent);

    // The runs' own time inside each turn: from the session going to Running until finished.
    QElapsedTimer clock;
    clock.start();
    qint64 runStarted = 0, runNs = 0;
    QObject::connect(&session, &SandboxSession::stateChanged, [&](SandboxSession::State state) {
        if (state == SandboxSession::State::Running)
            runStarted = clock.nsecsElapsed();
    });
    QObject::connect(&session, &SandboxSession::finished, [&](const ExecutionResult &) {
        runNs += clock.nsecsElapsed() - runStarted;
    });
    // SANDCASTLE_BENCH_TRACE=1: when each step of a turn happened (for finding where time goes).
    const bool trace = qEnvironmentVariableIsSet("SANDCASTLE_BENCH_TRACE");
    auto mark = [&](const char *what) {
        if (trace)
            std::printf("    %8.3f ms  %s\n", double(clock.nsecsElapsed()) / 1e6, what);
    };
    QObject::connect(&agent, &Agent::toolCall, [&] { mark("tool call"); });
    QObject::connect(&agent, &Agent::toolResult, [&] { mark("tool result"); });
    QObject::connect(&agent, &Agent::textDelta, [&] { mark("text"); });
    QObject::connect(&session, &SandboxSession::stateChanged, [&](SandboxSession::State state) {
        mark(state == SandboxSession::State::Running ? "run starts" : "run state");
    });
    QObject::connect(&session, &SandboxSession::finished, [&] { mark("run finished"); });
    bool ended = false;
    QObject::connect(&agent, &Agent::finished, [&](const QString &, int) {
        mark("turn ends");
        ended = true;
    });

    constexpr int kTurns = 60;
    std::vector<double> own(kTurns), runs(kTurns);
    for (int turn = 0; turn < kTurns; ++turn) {
        ended = false;
        runNs = 0;
        const qint64 start = clock.nsecsElapsed();
        mark("turn starts");
        agent.start(QStringLiteral("Turn %1: load the data again and show me the summary table.")
                        .arg(turn + 1));
        // An event loop that ends with the turn (QTest::qWaitFor would sleep 10 ms at a time).
        if (!ended && !Bench::waitFor(&agent, SIGNAL(finished(QString, int)), 60000)) {
            std::fprintf(stderr, "bench_agent: turn %d did not end\n", turn + 1);
            return 1;
        }
        const qint64 total = clock.nsecsElapsed() - start;
        own[turn] = double(total - runNs) / 1e6;
        runs[turn] = double(runNs) / 1e6;
    }
    recorder.flushNow();
    const qint64 stored = store.messages(QStringLiteral("long")).value().size();
    session.stop();

    const Bench::Stats early = Bench::stats({own.begin(), own.begin() + 10});
    const Bench::Stats late = Bench::stats({own.begin() + 45, own.begin() + 55});
    const Bench::Stats run = Bench::stats({runs.begin() + 45, runs.begin() + 55});
    std::printf("Agent overhead (%lld messages stored; the last request %lld bytes; runs %.2f ms "
                "median)\n",
                stored,
                model.requestBytes,
                run.median);
    Bench::record({"agent turn's own cost at turn 50 (instant model and run)",
                   "ms",
                   late,
                   "the same at turns 1-10",
                   early,
                   "turn 50 / turns 1-10",
                   late.median / early.median,
                   "<= 5 ms median (it grows with the request, which carries the history)",
                   late.median <= 5 && stored == kTurns * 4,
                   "two model requests and one run per turn"});
    return 0;
}
