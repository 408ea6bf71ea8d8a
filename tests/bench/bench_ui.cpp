// The window's figures, offscreen (QT_QPA_PLATFORM=offscreen), each beside its baseline:
//   - model token -> visible in the chat view: a fake server streams 5,000 tokens; for each,
//     the time from its arrival at the client to the first paint of the transcript that shows
//     it (the baseline is the arrival itself);
//   - open a stored conversation of 1,000 messages (200 tool runs) in the real main window,
//     and scroll it end to end, timing every frame;
//   - a hostile answer: the longest event-loop stall while a 20,000-row Markdown table streams
//     into a chat pane and is shown, beside an ordinary answer (prose and code);
//   - output ingest into the real console widget: 200 MB from a producer in the sandbox,
//     through the session into the ConsolePane, with the longest event-loop stall and the
//     growth of resident memory; the baseline is the same producer into the runner alone;
//   - a project tree of 110,000 files opened, expanded and scrolled in the files pane
//     (bench_tree.cpp), with the longest event-loop stall.
// The console ingest needs Docker and the sandbox image; the others only a display (offscreen).
#include "benchreport.h"
#include "benchui.h"

#include <app/appsettings.h>
#include <app/llm/httpmodelclient.h>
#include <app/store/conversationstore.h>
#include <sandbox/sandboxsession.h>
#include <support/fakeopenaiserver.h>
#include <support/hostilemarkdown.h>
#include <ui/chat/chatpane.h>
#include <ui/chat/transcriptdelegate.h>
#include <ui/chat/transcriptmodel.h>
#include <ui/console/consolepane.h>
#include <ui/mainwindow.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QListView>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <functional>
#include <vector>

using namespace Sandcastle;
using Sandcastle::Testing::FakeOpenAiServer;
using namespace BenchUi;

namespace {

// The transcript's delegate, noting when each paint of the answer being streamed ends and how
// much of its text it showed.
class TimingDelegate : public TranscriptDelegate
{
public:
    using TranscriptDelegate::TranscriptDelegate;
    struct Paint
    {
        double atMs;
        qsizetype shownChars;
    };
    mutable std::vector<Paint> paints;

    void paint(QPainter *painter,
               const QStyleOptionViewItem &option,
               const QModelIndex &index) const override
    {
        TranscriptDelegate::paint(painter, option, index);
        if (index.data(TranscriptModel::KindRole).value<TranscriptModel::Kind>()
            == TranscriptModel::Kind::Assistant)
            paints.push_back({nowMs(), index.data(TranscriptModel::TextRole).toString().size()});
    }
};

// Streams `tokens` tokens of about four characters, `gapMs` apart, into a chat pane and
// returns each token's latency from arrival to visible.
std::vector<double> tokenLatencies(int tokens, int gapMs, double *frameWorstMs)
{
    FakeOpenAiServer server;
    if (!server.listen())
        return {};
    // Tokens of four characters: prose in paragraphs of 48 tokens (lines of 12), and every
    // 400 tokens a fenced code block of 40, as a model writes an explanation with code.
    QString text;
    for (int i = 0; i < tokens; ++i) {
        const int inSection = i % 400;
        if (inSection == 360 || inSection == 398)
            text += QStringLiteral("```\n");
        else if (inSection == 399)
            text += QStringLiteral("\n\n\n\n");
        else if (inSection > 360)
            text += (i % 8 == 7 || inSection == 397 ? QStringLiteral("x=1\n")
                                                    : QStringLiteral("f(x)"));
        else if (i % 48 == 47)
            text += QStringLiteral("wo\n\n");
        else
            text += (i % 12 == 11 ? QStringLiteral("wor\n") : QStringLiteral("wor "));
    }
    FakeOpenAiServer::Response response;
    // One token per write, as a model sends them.
    {
        QByteArray first = FakeOpenAiServer::sseEvent(FakeOpenAiServer::textChunk(QString()));
        response.writes << first;
        for (int i = 0; i < tokens; ++i)
            response.writes << FakeOpenAiServer::sseEvent(
                FakeOpenAiServer::textChunk(text.mid(i * 4, 4)));
        response.writes << FakeOpenAiServer::sseEvent(
            FakeOpenAiServer::finishChunk(QStringLiteral("stop")))
                        << QByteArray("data: [DONE]\n\n");
        response.delayMs = gapMs;
    }
    server.enqueue(response);

    ChatPane chat;
    chat.resize(640, 800);
    auto *delegate = new TimingDelegate(chat.transcriptView());
    chat.transcriptView()->setItemDelegate(delegate);
    chat.show();
    ClientConfig config;
    config.baseUrl = QUrl(server.baseUrl());
    config.model = QStringLiteral("fake-model");
    HttpModelClient client(config);
    struct Arrival
    {
        double atMs;
        qsizetype totalChars;
    };
    std::vector<Arrival> arrivals;
    qsizetype total = 0;
    QObject::connect(&client, &HttpModelClient::textDelta, &chat, [&](const QString &delta) {
        total += delta.size();
        arrivals.push_back({nowMs(), total});
        chat.appendAssistantText(delta);
    });
    bool done = false;
    QObject::connect(&client, &HttpModelClient::finished, &chat, [&] { done = true; });
    QObject::connect(
        &client, &HttpModelClient::errorOccurred, &chat, [&](const QString &, const QString &m) {
            std::fprintf(stderr, "bench_ui: %s\n", qPrintable(m));
            done = true;
        });
    FramePulse pulse;
    client.send({Message::user(QStringLiteral("go"))}, {});
    waitFor([&] { return done; }, 600000);
    waitFor([&] { return false; }, 100); // the last frame
    *frameWorstMs = pulse.longest();

    std::vector<double> latencies;
    std::size_t p = 0;
    for (const Arrival &a : arrivals) {
        while (
            p < delegate->paints.size()
            && (delegate->paints[p].shownChars < a.totalChars || delegate->paints[p].atMs < a.atMs))
            ++p;
        if (p == delegate->paints.size())
            break;
        latencies.push_back(delegate->paints[p].atMs - a.atMs);
    }
    return latencies;
}

// A stored conversation of `messages` messages, one in five a tool call with its run.
QString storeConversation(const QString &dataDir, int messages)
{
    ConversationStore store;
    if (!store.open(ConversationStore::defaultPath(dataDir)))
        return {};
    const QString id = QStringLiteral("bench-conversation");
    QDir(dataDir).mkpath(QStringLiteral("ws"));
    if (!store.create(
            id, QStringLiteral("A long conversation"), dataDir + QStringLiteral("/ws"), false))
        return {};
    int written = 0;
    int call = 0;
    while (written < messages) {
        store.addMessage(
            id,
            {{"role", "user"},
             {"content",
              "Question " + std::to_string(written) + ": what does the data say about month "
                  + std::to_string(written % 12) + "?"}});
        ++written;
        const std::string callId = "call_" + std::to_string(call++);
        const std::string code = "import csv\nrows = list(csv.reader(open('data.csv')))\n"
                                 "print(len(rows), rows[:3])\nfor r in rows[:20]:\n    print(r)\n";
        store.addMessage(id,
                         {{"role", "assistant"},
                          {"content", ""},
                          {"tool_calls",
                           nlohmann::json::array(
                               {{{"id", callId},
                                 {"type", "function"},
                                 {"function",
                                  {{"name", "run_python"},
                                   {"arguments", nlohmann::json{{"code", code}}.dump()}}}}})}});
        store.addMessage(id,
                         {{"role", "tool"},
                          {"tool_call_id", callId},
                          {"content",
                           nlohmann::json{{"status", "ok"},
                                          {"exit_code", 0},
                                          {"duration_ms", 42},
                                          {"files", nlohmann::json::array({"chart.png"})},
                                          {"stdout", "20 rows"}}
                               .dump()}});
        StoredRun run;
        run.conversationId = id;
        run.toolCallId = QString::fromStdString(callId);
        run.code = QString::fromStdString(code);
        const Result<qint64> runId = store.beginRun(run);
        ExecutionResult result;
        result.status = ExecutionResult::Status::Ok;
        result.durationMs = 42;
        if (runId)
            store.finishRun(runId.value(), result);
        store.addMessage(id,
                         {{"role", "assistant"},
                          {"content",
                           "The data for month **" + std::to_string(written % 12)
                               + "** shows a rise of 12%.\n\n- first point\n- second "
                                 "point\n\n```python\nprint(rows[0])\n```"}});
        store.addMessage(id, {{"role", "user"}, {"content", "Thanks, go on."}});
        written += 4;
    }
    return id;
}

void openAndScroll(const QString &dataDir)
{
    const QString id = storeConversation(dataDir, 1000);
    if (id.isEmpty()) {
        std::fprintf(stderr, "bench_ui: could not write the conversation\n");
        return;
    }
    AppSettings settings;
    settings.dataDir = dataDir;
    settings.baseUrl = QStringLiteral("http://127.0.0.1:9/v1");
    settings.model = QStringLiteral("fake-model");
    MainWindow window(settings);
    window.resize(1400, 900);
    window.show();
    waitFor([] { return false; }, 500);
    window.newConversation();
    waitFor([] { return false; }, 200);
    QListView *view = window.chatPane()->transcriptView();

    std::vector<double> opens;
    for (int i = 0; i < 5; ++i) {
        window.newConversation();
        waitFor([] { return false; }, 100);
        const double start = nowMs();
        window.openConversation(id);
        view->viewport()->repaint(); // the first frame with the conversation in it
        opens.push_back(nowMs() - start);
    }
    const int rows = window.chatPane()->transcriptModel()->rowCount();

    // Scroll from the top to the end a page at a time; each step is one frame.
    QScrollBar *bar = view->verticalScrollBar();
    waitFor([] { return false; }, 300);
    std::vector<double> frames;
    bar->setValue(0);
    view->viewport()->repaint();
    for (int guard = 0; guard < 100000 && bar->value() < bar->maximum(); ++guard) {
        const double start = nowMs();
        bar->setValue(bar->value() + bar->pageStep() / 2);
        view->viewport()->repaint();
        QApplication::processEvents();
        frames.push_back(nowMs() - start);
    }
    const Bench::Stats o = Bench::stats(opens), f = Bench::stats(frames);
    double worst = 0;
    for (double v : frames)
        worst = std::max(worst, v);
    Bench::record({"open a stored conversation of 1,000 messages (200 runs)",
                   "ms",
                   o,
                   "",
                   {},
                   "",
                   0,
                   "<= 300 ms",
                   o.median <= 300,
                   std::to_string(rows) + " transcript rows"});
    Bench::record({"scroll it end to end, half a page per frame",
                   "ms",
                   f,
                   "",
                   {},
                   "",
                   0,
                   "no frame over 50 ms",
                   worst <= 50,
                   "worst frame " + std::to_string(worst) + " ms over "
                       + std::to_string(frames.size()) + " frames"});
}

// 200 MB from the sandbox through the runner alone (every byte read, decoded and logged; as in
// the application the first 8 MB are forwarded), then the same bytes into the console widget
// in the batches the runner forwards (its output batcher sends at most 60 a second).
void consoleIngest()
{
    QTemporaryDir workspace;
    SandboxConfig config = SandboxConfig::fromEnvironment();
    config.workspace = workspace.path();
    config.outputHardCapBytes = qint64(4) * 1024 * 1024 * 1024;
    config.timeoutMs = 600000;
    SandboxSession session(config);
    session.start();
    bool ready = false;
    QObject::connect(&session, &SandboxSession::ready, [&] { ready = true; });
    if (!waitFor([&] { return ready; }, 60000)) {
        std::fprintf(stderr, "bench_ui: the sandbox did not start (is Docker up?)\n");
        return;
    }
    constexpr int kMegabytes = 200;
    const QString producer = QStringLiteral("import sys\n"
                                            "b = (b'y' * 1023 + b'\\n') * 64\n"
                                            "w = sys.stdout.buffer.write\n"
                                            "for _ in range(%1 * 16):\n"
                                            "    w(b)\n"
                                            "sys.stdout.flush()\n")
                                 .arg(kMegabytes);
    std::vector<double> runner;
    qint64 batchBytes = 0;
    int batches = 0;
    for (int i = 0; i < 3; ++i) {
        bool finished = false;
        const auto output = QObject::connect(
            &session, &SandboxSession::outputReady, [&](OutputStream, const QString &text) {
                batchBytes += text.size();
                ++batches;
            });
        const auto end = QObject::connect(
            &session, &SandboxSession::finished, [&](const ExecutionResult &) { finished = true; });
        const double start = nowMs();
        session.runPython(producer);
        waitFor([&] { return finished; }, 600000);
        const double ms = nowMs() - start;
        QObject::disconnect(output);
        QObject::disconnect(end);
        runner.push_back(double(kMegabytes) * 1024 * 1024 / 1e6 / (ms / 1000.0));
    }
    session.stop();
    const qsizetype batch = qsizetype(batchBytes / std::max(1, batches));

    // The console: the same 200 MB in batches of the runner's average size, each handed over
    // as soon as the event loop takes the last one, under a 5 ms pulse timer.
    const QString chunk = QString(QString(1023, QLatin1Char('y')) + QLatin1Char('\n'))
                              .repeated(int(std::max<qsizetype>(1, batch / 1024)));
    std::vector<double> shown, stalls, growth;
    for (int i = 0; i < 3; ++i) {
        ConsolePane console;
        console.resize(800, 400);
        console.show();
        waitFor([] { return false; }, 100);
        double lastTick = nowMs();
        double worst = 0;
        QTimer pulse;
        pulse.setInterval(5);
        QObject::connect(&pulse, &QTimer::timeout, [&] {
            const double t = nowMs();
            worst = std::max(worst, t - lastTick);
            lastTick = t;
        });
        const qint64 rssBefore = Bench::residentKiB();
        qint64 rssPeak = rssBefore;
        pulse.start();
        const double start = nowMs();
        qint64 fed = 0;
        console.beginRun(QStringLiteral("flood"));
        while (fed < qint64(kMegabytes) * 1024 * 1024) {
            console.appendOutput(OutputStream::Stdout, chunk);
            fed += chunk.size();
            QApplication::processEvents();
            rssPeak = std::max(rssPeak, Bench::residentKiB());
        }
        waitFor([&] { return !console.isPainting(); }, 60000);
        const double ms = nowMs() - start;
        pulse.stop();
        shown.push_back(double(fed) / 1e6 / (ms / 1000.0));
        stalls.push_back(std::max(worst, nowMs() - lastTick));
        growth.push_back(double(std::max(rssPeak, Bench::residentKiB()) - rssBefore) / 1024.0);
    }
    const Bench::Stats r = Bench::stats(runner), c = Bench::stats(shown);
    const Bench::Stats st = Bench::stats(stalls), g = Bench::stats(growth);
    Bench::record({"output ingest into the console widget (200 MB)",
                   "MB/s",
                   c,
                   "the runner alone, same producer",
                   r,
                   "console / runner",
                   c.median / r.median,
                   ">= 20 MB/s",
                   c.median >= 20,
                   "batches of " + std::to_string(batch / 1024) + " KiB, as the runner sent them"});
    Bench::record({"  longest event-loop stall during that ingest",
                   "ms",
                   st,
                   "",
                   {},
                   "",
                   0,
                   "<= 50 ms",
                   st.p95 <= 50,
                   ""});
    Bench::record({"  resident memory growth during that ingest",
                   "MB",
                   g,
                   "",
                   {},
                   "",
                   0,
                   "<= 64 MB for 200 MB of output",
                   g.p95 <= 64,
                   ""});
}

// Streams `answer` in deltas of `delta` characters into a chat pane and returns the longest
// the event loop went without running a 4 ms timer, until the answer is shown (every piece
// on screen rendered).
double longestStallShowing(const QString &answer, int delta)
{
    FakeOpenAiServer server;
    if (!server.listen())
        return -1;
    FakeOpenAiServer::Response response;
    response.writes << FakeOpenAiServer::sseEvent(FakeOpenAiServer::textChunk(QString()));
    for (qsizetype i = 0; i < answer.size(); i += delta)
        response.writes << FakeOpenAiServer::sseEvent(
            FakeOpenAiServer::textChunk(answer.mid(i, delta)));
    response.writes << FakeOpenAiServer::sseEvent(
        FakeOpenAiServer::finishChunk(QStringLiteral("stop")))
                    << QByteArray("data: [DONE]\n\n");
    response.delayMs = 1;
    server.enqueue(response);
    ChatPane chat;
    chat.resize(640, 800);
    chat.show();
    ClientConfig config;
    config.baseUrl = QUrl(server.baseUrl());
    config.model = QStringLiteral("fake-model");
    HttpModelClient client(config);
    bool done = false;
    QObject::connect(&client, &HttpModelClient::textDelta, &chat, &ChatPane::appendAssistantText);
    QObject::connect(&client, &HttpModelClient::finished, &chat, [&] {
        chat.endAssistantMessage();
        done = true;
    });
    QObject::connect(&client, &HttpModelClient::errorOccurred, &chat, [&] { done = true; });
    waitFor([&] { return false; }, 100); // shown and settled
    FramePulse pulse;
    client.send({Message::user(QStringLiteral("show me the table"))}, {});
    waitFor([&] { return done && !chat.transcriptDelegate()->isRendering(); }, 600000);
    waitFor([&] { return false; }, 100);
    return pulse.longest();
}

void hostileAnswer()
{
    QString table = QStringLiteral("Here it is:\n\n| n | name | value |\n|---|---|--:|\n");
    for (int i = 0; i < 20000; ++i)
        table += QStringLiteral("| %1 | item %1 | %2 |\n").arg(i).arg(i * 0.5);
    QString ordinary;
    for (int i = 0; i < 6; ++i)
        ordinary += QStringLiteral("A paragraph of **explanation** with `code` and a "
                                   "[link](https://example.com), as answers have.\n\n"
                                   "```python\nimport pandas as pd\ndf = pd.read_csv('x.csv')\n"
                                   "print(df.describe())\n```\n\n");
    std::vector<double> hostile;
    std::vector<double> plain;
    for (int i = 0; i < 3; ++i) {
        plain.push_back(longestStallShowing(ordinary, 8));
        hostile.push_back(longestStallShowing(table, 64));
    }
    const Bench::Stats h = Bench::stats(hostile);
    const Bench::Stats o = Bench::stats(plain);
    Bench::record({"longest stall while a 20,000-row table answer streams and shows",
                   "ms",
                   h,
                   "the same for an ordinary answer (prose and code)",
                   o,
                   "table / ordinary",
                   o.median > 0 ? h.median / o.median : 0,
                   "<= 50 ms",
                   h.n > 0 && h.p95 <= 50,
                   std::to_string(table.size()) + " characters in deltas of 64"});
}

// Every case of tst_hostilemarkdown through the real window on the fake engine (streaming,
// showing, then showing all), and an ordinary answer the same way: the 100 ms that the suite
// cannot hold on a busy machine (it holds a second), measured here on a quiet one.
void hostileWindow()
{
    QStandardPaths::setTestModeEnabled(true);
    QTemporaryDir state;
    if (!Testing::useFakeEngine(state.path())) {
        std::printf("  hostile Markdown into the window: skipped (SANDCASTLE_SOURCE_DIR unset)\n");
        return;
    }
    const auto measure = [](const QString &text, const QString &field) -> double {
        const auto scene = Testing::openHostileMarkdownScene(text, field, true);
        if (!scene)
            return -1;
        const Testing::HostileMarkdownRun run = Testing::runHostileMarkdown(*scene, text);
        if (run.ended != QLatin1String("answered") || !run.allShown)
            return -1;
        return double(run.longest());
    };
    std::vector<double> hostile;
    std::vector<double> ordinary;
    std::string worst;
    std::string failed;
    double worstMs = -1;
    for (const Testing::HostileMarkdownCase &c : Testing::hostileMarkdownCases()) {
        const double ms = measure(Testing::hostileMarkdownInput(QString::fromLatin1(c.input)),
                                  QString::fromLatin1(c.field));
        if (ms < 0) {
            failed += std::string(failed.empty() ? "" : ", ") + c.row;
            continue;
        }
        hostile.push_back(ms);
        if (ms > worstMs) {
            worstMs = ms;
            worst = c.row;
        }
    }
    for (int i = 0; i < 3; ++i) {
        const double ms = measure(Testing::hostileMarkdownInput(QStringLiteral("ordinary")),
                                  QStringLiteral("content"));
        if (ms >= 0)
            ordinary.push_back(ms);
    }
    const Bench::Stats h = Bench::stats(hostile);
    const Bench::Stats o = Bench::stats(ordinary);
    const std::size_t cases = Testing::hostileMarkdownCases().size();
    Bench::record({"longest stall, each hostile Markdown case of the security suite, window",
                   "ms",
                   h,
                   "an ordinary answer (prose and code) the same way",
                   o,
                   "hostile / ordinary",
                   o.median > 0 ? h.median / o.median : 0,
                   "<= 100 ms in every case",
                   h.n == cases && h.p95 <= 100,
                   std::to_string(cases) + " cases; worst: " + worst + " ("
                       + std::to_string(int(worstMs)) + " ms)"
                       + (failed.empty() ? "" : "; did not finish: " + failed)});
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    g_clock.start();
    const QStringList parts = app.arguments().mid(1);
    auto wanted = [&](const char *name) {
        return parts.isEmpty() || parts.contains(QLatin1String(name));
    };
    std::printf("Window (offscreen)\n");
    if (wanted("tokens")) {
        struct Pace
        {
            int tokens;
            int gapMs;
            const char *figure;
        };
        for (const Pace &pace :
             {Pace{5000, 2, "model token -> visible in the chat (5,000 tokens, 500/s)"},
              Pace{1000, 20, "model token -> visible in the chat (1,000 tokens, 50/s)"}}) {
            double worstFrame = 0;
            const Bench::Stats t
                = Bench::stats(tokenLatencies(pace.tokens, pace.gapMs, &worstFrame));
            Bench::record({pace.figure,
                           "ms",
                           t,
                           "the token's arrival at the client",
                           Bench::single(0),
                           "",
                           0,
                           "p95 <= 16 ms",
                           t.n > 0 && t.p95 <= 16,
                           "longest frame while streaming: " + std::to_string(worstFrame) + " ms"});
        }
    }
    if (wanted("open")) {
        QTemporaryDir data;
        openAndScroll(data.path());
    }
    if (wanted("hostile")) {
        hostileAnswer();
        hostileWindow();
    }
    if (wanted("console"))
        consoleIngest();
    if (wanted("tree"))
        fileTree();
    return 0;
}
