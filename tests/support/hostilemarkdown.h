#pragma once

// Huge and hostile Markdown from the model, streamed through the fake server into the real
// window: the inputs, the stream and the measurement shared by tst_hostilemarkdown (which holds
// the window to a generous stall bound, on any machine) and bench_ui's "hostile" rows (which
// measure the 100 ms figure side by side with an ordinary answer). Header-only: it needs the UI
// library, which the test support library does not link.

#include <app/agent/agent.h>
#include <support/eventloopstall.h>
#include <support/fakeengine.h>
#include <support/fakeopenaiserver.h>
#include <ui/chat/chatpane.h>
#include <ui/chat/transcriptdelegate.h>
#include <ui/chat/transcriptmodel.h>
#include <ui/mainwindow.h>

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QListView>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>
#include <QWheelEvent>
#include <QtTest>

#include <memory>
#include <vector>

namespace Sandcastle::Testing {

struct HostileMarkdownCase
{
    const char *row;   // the test row's name
    const char *input; // hostileMarkdownInput()'s name
    const char *field; // content, reasoning_content or arguments (of a tool call)
};

// Each class of Markdown that was costly, larger than measured when it froze the window.
inline const std::vector<HostileMarkdownCase> &hostileMarkdownCases()
{
    static const std::vector<HostileMarkdownCase> cases{
        {"table", "table", "content"},
        {"links", "links", "content"},
        {"link list", "link list", "content"},
        {"emphasis", "emphasis", "content"},
        {"divs", "divs", "content"},
        {"backticks", "backticks", "content"},
        {"quotes", "quotes", "content"},
        {"lists", "lists", "content"},
        {"unclosed fence", "unclosed fence", "content"},
        {"one line", "one line", "content"},
        {"reasoning", "reasoning", "reasoning_content"},
        {"tool arguments", "one line", "arguments"},
    };
    return cases;
}

inline QString hostileMarkdownRepeated(const QString &unit, int times)
{
    QString out;
    out.reserve(unit.size() * times);
    for (int i = 0; i < times; ++i)
        out += unit;
    return out;
}

inline QString hostileMarkdownInput(const QString &name)
{
    if (name == QLatin1String("table")) {
        QString t = QStringLiteral("Here is the table:\n\n| n | name | value |\n|---|---|--:|\n");
        for (int i = 0; i < 25000; ++i)
            t += QStringLiteral("| %1 | item %1 | %2 |\n").arg(i).arg(i * 0.5);
        return t;
    }
    if (name == QLatin1String("links"))
        return hostileMarkdownRepeated(QStringLiteral("[a link](https://example.com/page) "),
                                       35000);
    if (name == QLatin1String("link list"))
        return hostileMarkdownRepeated(QStringLiteral("- [a link](https://example.com/page)\n"),
                                       35000);
    if (name == QLatin1String("emphasis"))
        return hostileMarkdownRepeated(QStringLiteral("*a"), 80000);
    if (name == QLatin1String("divs"))
        return hostileMarkdownRepeated(QStringLiteral("<div>"), 25000) + QStringLiteral("deep");
    if (name == QLatin1String("backticks")) {
        QString t;
        for (int i = 0; i < 30000; ++i)
            t += QString(i % 9 + 1, QLatin1Char('`')) + QStringLiteral("a ");
        return t;
    }
    if (name == QLatin1String("quotes")) {
        QString t;
        for (int i = 1; i <= 1500; ++i)
            t += QString(i, QLatin1Char('>')) + QStringLiteral(" quoted\n");
        return t;
    }
    if (name == QLatin1String("lists")) {
        QString t;
        for (int i = 0; i < 1000; ++i)
            t += QString(2 * i, QLatin1Char(' ')) + QStringLiteral("- level\n");
        return t;
    }
    if (name == QLatin1String("unclosed fence"))
        return QStringLiteral("```python\n")
               + hostileMarkdownRepeated(QStringLiteral("x = 1  # code\n"), 40000);
    if (name == QLatin1String("one line"))
        return QString(1500000, QLatin1Char('w'));
    if (name == QLatin1String("ordinary")) { // what answers are: prose, links and code
        return hostileMarkdownRepeated(
            QStringLiteral("A paragraph of **explanation** with `code` and a "
                           "[link](https://example.com), as answers have.\n\n"
                           "```python\nimport pandas as pd\ndf = pd.read_csv('x.csv')\n"
                           "print(df.describe())\n```\n\n"),
            6);
    }
    return hostileMarkdownRepeated(QStringLiteral("Let me think about this step. "),
                                   40000); // reasoning
}

inline QByteArray hostileMarkdownChunk(const QJsonObject &delta, const QString &finish = QString())
{
    QJsonObject choice{{QStringLiteral("index"), 0}, {QStringLiteral("delta"), delta}};
    choice.insert(QStringLiteral("finish_reason"),
                  finish.isEmpty() ? QJsonValue() : QJsonValue(finish));
    const QJsonObject object{{QStringLiteral("id"), QStringLiteral("chatcmpl-hostile")},
                             {QStringLiteral("object"), QStringLiteral("chat.completion.chunk")},
                             {QStringLiteral("choices"), QJsonArray{choice}}};
    return FakeOpenAiServer::sseEvent(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

// The answer as a model streams it: small deltas, one after the other. `field`: content,
// reasoning_content, or arguments of a tool call.
inline FakeOpenAiServer::Response hostileMarkdownStream(const QString &text, const QString &field)
{
    FakeOpenAiServer::Response response;
    response.delayMs = 1;
    constexpr qsizetype Delta = 600;
    if (field == QLatin1String("arguments")) {
        const QJsonObject function{{QStringLiteral("name"), QStringLiteral("run_python")},
                                   {QStringLiteral("arguments"), QString()}};
        response.writes << hostileMarkdownChunk(QJsonObject{
            {QStringLiteral("tool_calls"),
             QJsonArray{QJsonObject{{QStringLiteral("index"), 0},
                                    {QStringLiteral("id"), QStringLiteral("call_1")},
                                    {QStringLiteral("type"), QStringLiteral("function")},
                                    {QStringLiteral("function"), function}}}}});
        // The code as a JSON string, cut anywhere.
        const QByteArray json = QJsonDocument(QJsonObject{{QStringLiteral("code"), text}})
                                    .toJson(QJsonDocument::Compact);
        for (qsizetype i = 0; i < json.size(); i += Delta) {
            const QJsonObject part{
                {QStringLiteral("arguments"), QString::fromUtf8(json.mid(i, Delta))}};
            response.writes << hostileMarkdownChunk(
                QJsonObject{{QStringLiteral("tool_calls"),
                             QJsonArray{QJsonObject{{QStringLiteral("index"), 0},
                                                    {QStringLiteral("function"), part}}}}});
        }
        response.writes << hostileMarkdownChunk({}, QStringLiteral("tool_calls"));
    } else {
        if (field != QLatin1String("content"))
            response.writes << hostileMarkdownChunk(
                QJsonObject{{QStringLiteral("content"), QString()}});
        for (qsizetype i = 0; i < text.size(); i += Delta)
            response.writes << hostileMarkdownChunk(QJsonObject{{field, text.mid(i, Delta)}});
        if (field != QLatin1String("content"))
            response.writes << hostileMarkdownChunk(
                QJsonObject{{QStringLiteral("content"), QStringLiteral("Done thinking.")}});
        response.writes << hostileMarkdownChunk({}, QStringLiteral("stop"));
    }
    response.writes << FakeOpenAiServer::sseEvent("[DONE]");
    return response;
}

// The fake server with the answer queued, and a window on a fresh data folder. The server
// works on a thread of its own, as a model server works on a machine of its own: its writing a
// stream and reading megabyte requests is not the window's time.
struct HostileMarkdownScene
{
    FakeOpenAiServer server;
    QThread serverThread;
    QTemporaryDir dataDir;
    std::unique_ptr<MainWindow> window;

    HostileMarkdownScene() = default;
    HostileMarkdownScene(const HostileMarkdownScene &) = delete;
    HostileMarkdownScene &operator=(const HostileMarkdownScene &) = delete;
    ~HostileMarkdownScene()
    {
        window.reset();
        // Back to the main thread from its own, so that it is destroyed where it lives.
        QMetaObject::invokeMethod(
            &server,
            [this] { server.moveToThread(QCoreApplication::instance()->thread()); },
            Qt::BlockingQueuedConnection);
        serverThread.quit();
        serverThread.wait();
    }
};

// Null when the server cannot listen or the window is never shown. useFakeEngine() first.
inline std::unique_ptr<HostileMarkdownScene>
openHostileMarkdownScene(const QString &text, const QString &field, bool answerAfter)
{
    auto scene = std::make_unique<HostileMarkdownScene>();
    scene->server.enqueue(hostileMarkdownStream(text, field));
    if (answerAfter && field == QLatin1String("arguments")) // the code runs, then an answer
        scene->server.enqueueText(QStringLiteral("That was the code."), 64);
    scene->server.moveToThread(&scene->serverThread);
    scene->serverThread.start();
    bool listening = false;
    QMetaObject::invokeMethod(
        &scene->server, [&] { listening = scene->server.listen(); }, Qt::BlockingQueuedConnection);
    if (!listening)
        return nullptr;
    scene->window
        = std::make_unique<MainWindow>(fakeEngineSettings(scene->server, scene->dataDir.path()));
    scene->window->resize(1000, 700);
    scene->window->show();
    if (!QTest::qWaitForWindowExposed(scene->window.get()))
        return nullptr;
    return scene;
}

// What one hostile answer did to the window: the longest event-loop stalls while it streamed
// in, while what is on screen was rendered, and after the person asked for all of it.
struct HostileMarkdownRun
{
    QString ended;         // the agent's finished status ("answered"), empty if it never ended
    bool scrolled = false; // the answer reached half its length and the person scrolled
    int wheeled = 0;       // how far the wheel moved the transcript
    int scrolledTo = -1;   // the scroll bar after Ctrl+Home
    bool shown = false;    // every piece of what is on screen rendered
    bool allShown = false; // no row cut any more, every piece rendered
    qint64 streaming = 0;  // ms
    qint64 showing = 0;    // ms
    qint64 showingAll = 0; // ms
    qint64 allMs = 0;      // from "show all" to all shown
    qint64 longest() const { return std::max({streaming, showing, showingAll}); }
};

// Sends a prompt in the scene's window and measures the answer `text` (the one queued): halfway
// through the person scrolls to the top with the wheel and opens the reasoning; after it, the
// person asks for every row whole.
inline HostileMarkdownRun runHostileMarkdown(HostileMarkdownScene &scene, const QString &text)
{
    HostileMarkdownRun run;
    MainWindow &window = *scene.window;
    TranscriptModel *model = window.chatPane()->transcriptModel();
    QListView *view = window.chatPane()->transcriptView();
    auto *delegate = window.chatPane()->transcriptDelegate();
    QScrollBar *bar = view->verticalScrollBar();
    QSignalSpy finished(window.agent(), &Agent::finished);

    window.submitPrompt(QStringLiteral("show me"));
    run.streaming = longestStallUntil(
        [&] { return !finished.isEmpty(); },
        120000,
        [&] {
            const int answer = model->rowCount() - 1;
            if (run.scrolled || answer < 1)
                return;
            const QModelIndex index = model->index(answer, 0);
            // The person opens the reasoning as soon as there is some.
            if (!index.data(TranscriptModel::ReasoningRole).toString().isEmpty()
                && !index.data(TranscriptModel::ExpandedRole).toBool())
                model->setExpanded(answer, true);
            const qsizetype arrived
                = index.data(TranscriptModel::TextRole).toString().size()
                  + index.data(TranscriptModel::ReasoningRole).toString().size();
            if (arrived < text.size() / 2 || bar->maximum() <= 0)
                return;
            run.scrolled = true;
            const int before = bar->value();
            QWheelEvent wheel(QPointF(50, 50),
                              view->viewport()->mapToGlobal(QPointF(50, 50)),
                              QPoint(),
                              QPoint(0, 120 * 3),
                              Qt::NoButton,
                              Qt::NoModifier,
                              Qt::NoScrollPhase,
                              false);
            QCoreApplication::sendEvent(view->viewport(), &wheel);
            run.wheeled = before - bar->value();
            QTest::keyClick(view, Qt::Key_Home, Qt::ControlModifier);
            run.scrolledTo = bar->value();
        });
    if (finished.size() == 1)
        run.ended = finished.first().at(0).toString();
    // What is shown is rendered, a piece per turn.
    run.showing = longestStallUntil([&] { return !delegate->isRendering(); }, 60000);
    run.shown = !delegate->isRendering();

    // The person asks for all of it: rendered in the background, the window answering.
    QElapsedTimer all;
    all.start();
    for (int row = 0; row < model->rowCount(); ++row) {
        model->setExpanded(row, true);
        model->setShowAll(row);
    }
    bar->setValue(bar->maximum());
    // Done when no row is cut any more and every piece is rendered.
    const auto allShown = [&] {
        for (int row = 0; row < model->rowCount(); ++row) {
            if (!delegate->partRect(model->index(row, 0), TranscriptDelegate::Hit::ShowAll)
                     .isEmpty())
                return false;
        }
        return !delegate->isRendering();
    };
    run.showingAll = longestStallUntil(allShown, 240000);
    run.allShown = allShown();
    run.allMs = all.elapsed();
    return run;
}

} // namespace Sandcastle::Testing
