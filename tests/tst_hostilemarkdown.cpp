#include <app/agent/agent.h>
#include <app/controller/conversationcontroller.h>
#include <app/store/conversationstore.h>
#include <support/eventloopstall.h>
#include <support/fakeengine.h>
#include <support/fakeopenaiserver.h>
#include <support/sanitizers.h>
#include <support/securitycase.h>
#include <support/testtimeouts.h>
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
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QtTest>

using namespace Sandcastle;
using namespace Sandcastle::Testing;

// The model is untrusted, and so is the size and shape of what it writes: huge and hostile
// Markdown, streamed through the fake server into the real window, never stalls the event loop
// for more than 100 ms — while it streams in, while it is shown, and when the person asks for
// all of it — and Stop and scrolling work meanwhile. Each input is larger than those that froze
// the window for minutes before the transcript rendered in budgeted pieces. The 100 ms are on an
// idle machine: each case measures how much slower the machine runs it (LoadGauge) and allows
// that much more. bench_ui's "hostile" row measures the stall for a table answer precisely.
class TestHostileMarkdown : public QObject
{
    Q_OBJECT

    QTemporaryDir m_state;

    // On an idle machine; LoadGauge::budget() gives them on this one.
    static constexpr qint64 StallLimitMs = timeBudgetMs(100);
    static constexpr qint64 StopLimitMs = timeBudgetMs(1000);

    static QByteArray chunk(const QJsonObject &delta, const QString &finish = QString())
    {
        QJsonObject choice{{QStringLiteral("index"), 0}, {QStringLiteral("delta"), delta}};
        choice.insert(QStringLiteral("finish_reason"),
                      finish.isEmpty() ? QJsonValue() : QJsonValue(finish));
        const QJsonObject object{
            {QStringLiteral("id"), QStringLiteral("chatcmpl-hostile")},
            {QStringLiteral("object"), QStringLiteral("chat.completion.chunk")},
            {QStringLiteral("choices"), QJsonArray{choice}}};
        return FakeOpenAiServer::sseEvent(QJsonDocument(object).toJson(QJsonDocument::Compact));
    }

    // The answer as a model streams it: small deltas, one after the other. `field`: content,
    // reasoning_content, or arguments of a tool call.
    static FakeOpenAiServer::Response stream(const QString &text, const QString &field)
    {
        FakeOpenAiServer::Response response;
        response.delayMs = 1;
        constexpr qsizetype Delta = 600;
        if (field == QLatin1String("arguments")) {
            const QJsonObject function{{QStringLiteral("name"), QStringLiteral("run_python")},
                                       {QStringLiteral("arguments"), QString()}};
            response.writes << chunk(QJsonObject{
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
                response.writes << chunk(
                    QJsonObject{{QStringLiteral("tool_calls"),
                                 QJsonArray{QJsonObject{{QStringLiteral("index"), 0},
                                                        {QStringLiteral("function"), part}}}}});
            }
            response.writes << chunk({}, QStringLiteral("tool_calls"));
        } else {
            if (field != QLatin1String("content"))
                response.writes << chunk(QJsonObject{{QStringLiteral("content"), QString()}});
            for (qsizetype i = 0; i < text.size(); i += Delta)
                response.writes << chunk(QJsonObject{{field, text.mid(i, Delta)}});
            if (field != QLatin1String("content"))
                response.writes << chunk(
                    QJsonObject{{QStringLiteral("content"), QStringLiteral("Done thinking.")}});
            response.writes << chunk({}, QStringLiteral("stop"));
        }
        response.writes << FakeOpenAiServer::sseEvent("[DONE]");
        return response;
    }

    static QString repeated(const QString &unit, int times)
    {
        QString out;
        out.reserve(unit.size() * times);
        for (int i = 0; i < times; ++i)
            out += unit;
        return out;
    }

    // The inputs: each class of Markdown that was costly, larger than measured.
    static QString input(const QString &name)
    {
        if (name == QLatin1String("table")) {
            QString t
                = QStringLiteral("Here is the table:\n\n| n | name | value |\n|---|---|--:|\n");
            for (int i = 0; i < 25000; ++i)
                t += QStringLiteral("| %1 | item %1 | %2 |\n").arg(i).arg(i * 0.5);
            return t;
        }
        if (name == QLatin1String("links"))
            return repeated(QStringLiteral("[a link](https://example.com/page) "), 35000);
        if (name == QLatin1String("link list"))
            return repeated(QStringLiteral("- [a link](https://example.com/page)\n"), 35000);
        if (name == QLatin1String("emphasis"))
            return repeated(QStringLiteral("*a"), 80000);
        if (name == QLatin1String("divs"))
            return repeated(QStringLiteral("<div>"), 25000) + QStringLiteral("deep");
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
                   + repeated(QStringLiteral("x = 1  # code\n"), 40000);
        if (name == QLatin1String("one line"))
            return QString(1500000, QLatin1Char('w'));
        return repeated(QStringLiteral("Let me think about this step. "), 40000); // reasoning
    }

    // The fake server with the answer queued, and a window on a fresh data folder. The server
    // works on a thread of its own, as a model server works on a machine of its own: its
    // writing a stream and reading megabyte requests is not the window's time.
    struct Scene
    {
        FakeOpenAiServer server;
        QThread serverThread;
        QTemporaryDir dataDir;
        std::unique_ptr<MainWindow> window;

        ~Scene()
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

    static std::unique_ptr<Scene> open(const QString &text, const QString &field, bool answerAfter)
    {
        auto scene = std::make_unique<Scene>();
        scene->server.enqueue(stream(text, field));
        if (answerAfter && field == QLatin1String("arguments")) // the code runs, then an answer
            scene->server.enqueueText(QStringLiteral("That was the code."), 64);
        scene->server.moveToThread(&scene->serverThread);
        scene->serverThread.start();
        bool listening = false;
        QMetaObject::invokeMethod(
            &scene->server,
            [&] { listening = scene->server.listen(); },
            Qt::BlockingQueuedConnection);
        if (!listening)
            return nullptr;
        scene->window = std::make_unique<MainWindow>(
            fakeEngineSettings(scene->server, scene->dataDir.path()));
        scene->window->resize(1000, 700);
        scene->window->show();
        if (!QTest::qWaitForWindowExposed(scene->window.get()))
            return nullptr;
        return scene;
    }

    void addRows()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("field");
        const QString content = QStringLiteral("content");
        for (const char *name : {"table",
                                 "links",
                                 "link list",
                                 "emphasis",
                                 "divs",
                                 "backticks",
                                 "quotes",
                                 "lists",
                                 "unclosed fence",
                                 "one line"})
            QTest::newRow(name) << QString::fromLatin1(name) << content;
        QTest::newRow("reasoning")
            << QStringLiteral("reasoning") << QStringLiteral("reasoning_content");
        QTest::newRow("tool arguments")
            << QStringLiteral("one line") << QStringLiteral("arguments");
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY2(useFakeEngine(m_state.path()), "SANDCASTLE_SOURCE_DIR is not set");
    }

    void cleanupTestCase() { SecurityCase::printTotals(); }

    void aHostileAnswerNeverStallsTheWindow_data() { addRows(); }

    void aHostileAnswerNeverStallsTheWindow()
    {
        QFETCH(QString, name);
        QFETCH(QString, field);
        SecurityCase attack(
            SecurityCase::Kind::Attack,
            QStringLiteral("hostile Markdown (%1, %2) never stalls the window").arg(name, field));
        const QString text = input(name);
        const std::unique_ptr<Scene> scene = open(text, field, true);
        QVERIFY(scene);
        MainWindow &window = *scene->window;
        TranscriptModel *model = window.chatPane()->transcriptModel();
        QListView *view = window.chatPane()->transcriptView();
        auto *delegate = window.chatPane()->transcriptDelegate();
        QScrollBar *bar = view->verticalScrollBar();
        QSignalSpy finished(window.agent(), &Agent::finished);

        const LoadGauge load;
        window.submitPrompt(QStringLiteral("show me"));
        // Halfway through, the person scrolls to the top with the wheel and opens the reasoning.
        bool scrolled = false;
        int wheeled = 0;
        int scrolledTo = -1;
        const qint64 streaming = longestStallUntil(
            [&] { return !finished.isEmpty(); },
            120000,
            [&] {
                const int answer = model->rowCount() - 1;
                if (scrolled || answer < 1)
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
                scrolled = true;
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
                wheeled = before - bar->value();
                QTest::keyClick(view, Qt::Key_Home, Qt::ControlModifier);
                scrolledTo = bar->value();
            });
        QCOMPARE(finished.size(), 1);
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("answered"));
        QVERIFY2(scrolled, "the answer never reached half its length in the window");
        QVERIFY2(wheeled > 0, "the wheel did not scroll the transcript");
        QCOMPARE(scrolledTo, 0);
        // What is shown is rendered, a piece per turn.
        const qint64 showing = longestStallUntil([&] { return !delegate->isRendering(); }, 60000);
        QVERIFY(!delegate->isRendering());

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
        const qint64 showingAll = longestStallUntil(allShown, 240000);
        QVERIFY(allShown());
        const qint64 allMs = all.elapsed();

        const qint64 longest = std::max({streaming, showing, showingAll});
        const LoadGauge::Budget limit = load.budget(StallLimitMs);
        attack.note(QStringLiteral("%1 characters; longest stall %2 ms streaming, %3 ms showing, "
                                   "%4 ms showing all (%5 ms); limit %6")
                        .arg(text.size())
                        .arg(streaming)
                        .arg(showing)
                        .arg(showingAll)
                        .arg(allMs)
                        .arg(limit.describe()));
        QVERIFY2(longest <= limit.ms,
                 qPrintable(
                     QStringLiteral("stalled %1 ms, over %2").arg(longest).arg(limit.describe())));

        // Nothing of it is lost: the store and the export hold it whole.
        const auto messages = window.controller()->store()->messages(window.conversationId());
        QVERIFY(messages.isOk());
        bool whole = false;
        for (const auto &message : messages.value()) {
            const std::string stored
                = field == QLatin1String("content") ? message.value("content", std::string())
                  : field == QLatin1String("reasoning_content") ? message.value(
                        "reasoning_content", message.value("reasoning", std::string()))
                                                                : message.dump();
            if (field == QLatin1String("arguments"))
                whole = whole || QString::fromStdString(stored).contains(text.left(1000));
            else
                whole = whole || QString::fromStdString(stored) == text;
        }
        QVERIFY2(whole, "the store does not hold the answer whole");
        if (field == QLatin1String("content")) {
            QTemporaryDir out;
            const QString path = out.filePath(QStringLiteral("export.md"));
            QVERIFY(window.controller()
                        ->exportConversation(window.conversationId(), path, false)
                        .isOk());
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            QVERIFY(QString::fromUtf8(file.readAll()).contains(text));
        }
    }

    void stopWorksWhileAHostileAnswerStreams_data() { addRows(); }

    void stopWorksWhileAHostileAnswerStreams()
    {
        QFETCH(QString, name);
        QFETCH(QString, field);
        SecurityCase attack(
            SecurityCase::Kind::Attack,
            QStringLiteral("Stop works while hostile Markdown (%1, %2) streams").arg(name, field));
        const QString text = input(name);
        const std::unique_ptr<Scene> scene = open(text, field, false);
        QVERIFY(scene);
        MainWindow &window = *scene->window;
        TranscriptModel *model = window.chatPane()->transcriptModel();
        QSignalSpy finished(window.agent(), &Agent::finished);
        QSignalSpy code(window.agent(), &Agent::toolCodeChanged);
        const LoadGauge load;
        window.submitPrompt(QStringLiteral("show me"));
        // A fifth of it in, the person presses Stop.
        QElapsedTimer sinceStop;
        const qint64 stall = longestStallUntil(
            [&] { return !finished.isEmpty(); },
            120000,
            [&] {
                if (sinceStop.isValid())
                    return;
                const int answer = model->rowCount() - 1;
                const QModelIndex index = model->index(answer, 0);
                const qsizetype arrived
                    = index.data(TranscriptModel::TextRole).toString().size()
                      + index.data(TranscriptModel::ReasoningRole).toString().size()
                      + (code.isEmpty() ? 0 : code.last().at(1).toString().size());
                if (answer < 1 || arrived < text.size() / 5)
                    return;
                sinceStop.start();
                QTest::keyClick(&window, Qt::Key_Period, Qt::ControlModifier);
            });
        QVERIFY2(sinceStop.isValid(), "the answer never reached a fifth of its length");
        QCOMPARE(finished.size(), 1);
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("stopped"));
        const qint64 stopMs = sinceStop.elapsed();
        const LoadGauge::Budget stopLimit = load.budget(StopLimitMs);
        const LoadGauge::Budget stallLimit = load.budget(StallLimitMs);
        attack.note(QStringLiteral("stopped after %1 ms; longest stall %2 ms; limits %3 and %4")
                        .arg(stopMs)
                        .arg(stall)
                        .arg(stopLimit.describe(), stallLimit.describe()));
        QVERIFY2(
            stopMs <= stopLimit.ms,
            qPrintable(
                QStringLiteral("stop took %1 ms, over %2").arg(stopMs).arg(stopLimit.describe())));
        QVERIFY2(
            stall <= stallLimit.ms,
            qPrintable(
                QStringLiteral("stalled %1 ms, over %2").arg(stall).arg(stallLimit.describe())));
    }
};

QTEST_MAIN(TestHostileMarkdown)
#include "tst_hostilemarkdown.moc"
