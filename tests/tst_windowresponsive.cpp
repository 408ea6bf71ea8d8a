#include <app/agent/agent.h>
#include <app/appsettings.h>
#include <app/controller/conversationcontroller.h>
#include <app/store/conversationstore.h>
#include <sandbox/sandboxsession.h>
#include <support/eventloopstall.h>
#include <support/fakeengine.h>
#include <support/fakeopenaiserver.h>
#include <support/testtimeouts.h>
#include <ui/chat/chatpane.h>
#include <ui/chat/promptedit.h>
#include <ui/mainwindow.h>

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

using namespace Sandcastle;
using namespace Sandcastle::Testing;

// The window stays responsive while the container engine is slow: switching away from a
// conversation, deleting one and stopping the agent hand the engine's work to the background.
// The engine is tests/support/fake-docker (the real kernel on this machine) with every rm,
// kill and ps taking FAKE_DOCKER_SLOW seconds. The times the window takes are bounded on an idle
// machine and, on a busy one, times how much slower it runs the test (LoadGauge): up to a
// factor of 6 still under the engine's 3 s, which they would take had the window waited for it.
class TestWindowResponsive : public QObject
{
    Q_OBJECT

    QTemporaryDir m_state;
    QTemporaryDir m_dataDir;

    AppSettings settingsFor(const FakeOpenAiServer &server) const
    {
        return fakeEngineSettings(server, m_dataDir.path());
    }

    // The longest the event loop went without running a 5 ms timer, over `ms`.
    static qint64 longestStall(int ms) { return longestStallUntil({}, ms); }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY2(useFakeEngine(m_state.path()), "SANDCASTLE_SOURCE_DIR is not set");
    }

    void cleanup() { qunsetenv("FAKE_DOCKER_SLOW"); }

    void theWindowAnswersWhileASlowEngineRemovesContainers()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        MainWindow window(settingsFor(server));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // A conversation with a running container.
        QSignalSpy ran(window.controller(), &ConversationController::personRunFinished);
        window.runPersonCode(QStringLiteral("x = 41"));
        QVERIFY(ran.wait(kLongWaitMs));
        QCOMPARE(window.session()->state(), SandboxSession::State::Ready);
        const QString first = window.conversationId();

        const LoadGauge load;
        qputenv("FAKE_DOCKER_SLOW", "3");
        QSignalSpy removed(window.session(), &SandboxSession::stopped);
        QSignalSpy deleted(window.controller(), &ConversationController::deleteFinished);
        QElapsedTimer clock;
        clock.start();
        window.newConversation(); // the old container goes
        window.deleteConversation(first);
        const qint64 actionsMs = clock.elapsed();
        const LoadGauge::Budget actionsLimit = load.budget(500);
        QVERIFY2(
            actionsMs < actionsLimit.ms,
            qPrintable(
                QStringLiteral("took %1 ms, over %2").arg(actionsMs).arg(actionsLimit.describe())));
        QVERIFY(window.conversationId() != first);

        // The person types meanwhile and sees it at once.
        PromptEdit *prompt = window.chatPane()->promptEdit();
        prompt->setFocus();
        QTest::keyClicks(prompt, QStringLiteral("still here"));
        QCOMPARE(prompt->toPlainText(), QStringLiteral("still here"));
        const qint64 stall = longestStall(2000);
        const LoadGauge::Budget stallLimit = load.budget(300);
        QVERIFY2(
            stall < stallLimit.ms,
            qPrintable(
                QStringLiteral("stalled %1 ms, over %2").arg(stall).arg(stallLimit.describe())));
        QVERIFY(removed.isEmpty() || clock.elapsed() >= 2500);
        QVERIFY(deleted.isEmpty() || clock.elapsed() >= 2500);

        // And the engine's work does finish, in the background.
        QTRY_VERIFY_WITH_TIMEOUT(!removed.isEmpty(), kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(!deleted.isEmpty(), kWaitMs);
        QVERIFY2(deleted.first().at(1).toBool(), qPrintable(deleted.first().at(2).toString()));
        QVERIFY(clock.elapsed() >= 2500);
    }

    void stoppingTheAgentDoesNotWaitForASlowEngine()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        enqueueLongRun(server);
        MainWindow window(settingsFor(server));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy output(window.agent(), &Agent::toolOutput);
        QSignalSpy finished(window.agent(), &Agent::finished);
        window.submitPrompt(QStringLiteral("sleep for a minute"));
        QVERIFY(output.wait(kLongWaitMs));

        const LoadGauge load;
        qputenv("FAKE_DOCKER_SLOW", "3");
        QSignalSpy removed(window.session(), &SandboxSession::stopped);
        QElapsedTimer clock;
        clock.start();
        QTest::keyClick(&window, Qt::Key_Period, Qt::ControlModifier); // Stop
        const qint64 stopMs = clock.elapsed();
        const LoadGauge::Budget stopLimit = load.budget(500);
        QVERIFY2(
            stopMs < stopLimit.ms,
            qPrintable(
                QStringLiteral("stop took %1 ms, over %2").arg(stopMs).arg(stopLimit.describe())));
        // Not a wait for something that will happen whenever: the agent's end must come before
        // the engine's 3 s are up (it comes within a turn or two of the loop).
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 2000);
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("stopped"));
        const qint64 stall = longestStall(1500);
        const LoadGauge::Budget stallLimit = load.budget(300);
        QVERIFY2(
            stall < stallLimit.ms,
            qPrintable(
                QStringLiteral("stalled %1 ms, over %2").arg(stall).arg(stallLimit.describe())));
        QTRY_VERIFY_WITH_TIMEOUT(!removed.isEmpty(), kWaitMs);
        QVERIFY(clock.elapsed() >= 2500);
    }
};

QTEST_MAIN(TestWindowResponsive)
#include "tst_windowresponsive.moc"
