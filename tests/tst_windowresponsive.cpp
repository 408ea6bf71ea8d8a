#include <app/agent/agent.h>
#include <app/appsettings.h>
#include <app/controller/conversationcontroller.h>
#include <app/store/conversationstore.h>
#include <sandbox/sandboxsession.h>
#include <support/eventloopstall.h>
#include <support/fakeengine.h>
#include <support/fakeopenaiserver.h>
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
// kill and ps taking FAKE_DOCKER_SLOW seconds.
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
        QVERIFY(ran.wait(20000));
        QCOMPARE(window.session()->state(), SandboxSession::State::Ready);
        const QString first = window.conversationId();

        qputenv("FAKE_DOCKER_SLOW", "3");
        QSignalSpy removed(window.session(), &SandboxSession::stopped);
        QSignalSpy deleted(window.controller(), &ConversationController::deleteFinished);
        QElapsedTimer clock;
        clock.start();
        window.newConversation(); // the old container goes
        window.deleteConversation(first);
        const qint64 actionsMs = clock.elapsed();
        QVERIFY2(actionsMs < 500, qPrintable(QStringLiteral("took %1 ms").arg(actionsMs)));
        QVERIFY(window.conversationId() != first);

        // The person types meanwhile and sees it at once.
        PromptEdit *prompt = window.chatPane()->promptEdit();
        prompt->setFocus();
        QTest::keyClicks(prompt, QStringLiteral("still here"));
        QCOMPARE(prompt->toPlainText(), QStringLiteral("still here"));
        const qint64 stall = longestStall(2000);
        QVERIFY2(stall < 300, qPrintable(QStringLiteral("stalled %1 ms").arg(stall)));
        QVERIFY(removed.isEmpty() || clock.elapsed() >= 2500);
        QVERIFY(deleted.isEmpty() || clock.elapsed() >= 2500);

        // And the engine's work does finish, in the background.
        QTRY_VERIFY_WITH_TIMEOUT(!removed.isEmpty(), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(!deleted.isEmpty(), 20000);
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
        QVERIFY(output.wait(20000));

        qputenv("FAKE_DOCKER_SLOW", "3");
        QSignalSpy removed(window.session(), &SandboxSession::stopped);
        QElapsedTimer clock;
        clock.start();
        QTest::keyClick(&window, Qt::Key_Period, Qt::ControlModifier); // Stop
        const qint64 stopMs = clock.elapsed();
        QVERIFY2(stopMs < 500, qPrintable(QStringLiteral("stop took %1 ms").arg(stopMs)));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 2000);
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("stopped"));
        const qint64 stall = longestStall(1500);
        QVERIFY2(stall < 300, qPrintable(QStringLiteral("stalled %1 ms").arg(stall)));
        QTRY_VERIFY_WITH_TIMEOUT(!removed.isEmpty(), 20000);
        QVERIFY(clock.elapsed() >= 2500);
    }
};

QTEST_MAIN(TestWindowResponsive)
#include "tst_windowresponsive.moc"
