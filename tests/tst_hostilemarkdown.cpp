#include <app/agent/agent.h>
#include <app/controller/conversationcontroller.h>
#include <app/store/conversationstore.h>
#include <support/eventloopstall.h>
#include <support/fakeengine.h>
#include <support/fakeopenaiserver.h>
#include <support/hostilemarkdown.h>
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
// Markdown, streamed through the fake server into the real window, never freezes the window —
// while it streams in, while it is shown, and when the person asks for all of it — and Stop and
// scrolling work meanwhile. Each input is larger than those that froze the window for minutes
// before the transcript rendered in budgeted pieces. A freeze is a stall of a second: on a busy
// machine a sound window also goes a hundred-odd milliseconds without a turn now and then, so
// the 100 ms a person reads as instant is not held here but measured by bench_ui's "hostile"
// rows (scripts/bench), every case of this suite side by side with an ordinary answer. Each
// case measures how much slower the machine runs it (LoadGauge) and allows that much more.
class TestHostileMarkdown : public QObject
{
    Q_OBJECT

    QTemporaryDir m_state;

    // On an idle machine; LoadGauge::budget() gives them on this one.
    static constexpr qint64 StallLimitMs = timeBudgetMs(1000);
    static constexpr qint64 StopLimitMs = timeBudgetMs(1000);

    static void addRows()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("field");
        for (const HostileMarkdownCase &c : hostileMarkdownCases())
            QTest::newRow(c.row) << QString::fromLatin1(c.input) << QString::fromLatin1(c.field);
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
        const QString text = hostileMarkdownInput(name);
        const std::unique_ptr<HostileMarkdownScene> scene
            = openHostileMarkdownScene(text, field, true);
        QVERIFY(scene);
        MainWindow &window = *scene->window;

        const LoadGauge load;
        const HostileMarkdownRun run = runHostileMarkdown(*scene, text);
        QCOMPARE(run.ended, QStringLiteral("answered"));
        QVERIFY2(run.scrolled, "the answer never reached half its length in the window");
        QVERIFY2(run.wheeled > 0, "the wheel did not scroll the transcript");
        QCOMPARE(run.scrolledTo, 0);
        QVERIFY(run.shown);
        QVERIFY(run.allShown);

        const qint64 longest = run.longest();
        const LoadGauge::Budget limit = load.budget(StallLimitMs);
        attack.note(QStringLiteral("%1 characters; longest stall %2 ms streaming, %3 ms showing, "
                                   "%4 ms showing all (%5 ms); limit %6")
                        .arg(text.size())
                        .arg(run.streaming)
                        .arg(run.showing)
                        .arg(run.showingAll)
                        .arg(run.allMs)
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
        const QString text = hostileMarkdownInput(name);
        const std::unique_ptr<HostileMarkdownScene> scene
            = openHostileMarkdownScene(text, field, false);
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
