#include <app/agent/agent.h>
#include <app/controller/conversationcontroller.h>
#include <app/llm/modelerror.h>
#include <app/project/projectenvironment.h>
#include <app/store/conversationstore.h>
#include <sandbox/sandboxsession.h>
#include <support/fakeengine.h>
#include <support/fakeopenaiserver.h>
#include <support/testtimeouts.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace Sandcastle;
using namespace Sandcastle::Testing;

// The conversation controller driven without any widget, as `sandcastle chat` drives it: a
// fake model server and tests/support/fake-docker for an engine (the real kernel on this
// machine), slowed down with FAKE_DOCKER_SLOW where the test is that nothing waits for it. What
// returns at once is bounded on an idle machine and, on a busy one, times how much slower it
// runs the test (LoadGauge): up to a factor of 6 still under the engine's 3 s.
class TestConversationController : public QObject
{
    Q_OBJECT

    QTemporaryDir m_state;
    QTemporaryDir m_dataDir;

    AppSettings settingsFor(const FakeOpenAiServer &server) const
    {
        return fakeEngineSettings(server, m_dataDir.path());
    }

    static QString runToEnd(ConversationController &controller, const QString &prompt)
    {
        QSignalSpy finished(controller.agent(), &Agent::finished);
        if (!controller.submitPrompt(prompt))
            return QStringLiteral("refused");
        if (!finished.wait(kLongWaitMs))
            return QStringLiteral("no end");
        return finished.first().at(0).toString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY2(useFakeEngine(m_state.path()), "SANDCASTLE_SOURCE_DIR is not set");
    }

    void cleanup() { qunsetenv("FAKE_DOCKER_SLOW"); }

    void theWindowsEnvironmentLookUpWaitsForTheWarmUp()
    {
        // The window's controller looks up the project's image (a `docker image inspect`)
        // only once warmUp() says the first frame is up; the command line's at once.
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        ConversationController now(settingsFor(server));
        QSignalSpy nowLooked(now.environment(), &ProjectEnvironment::imageChanged);
        QVERIFY(nowLooked.wait(kWaitMs));

        ConversationController window(
            settingsFor(server), nullptr, ConversationController::LookUps::WhenWarmedUp);
        QSignalSpy looked(window.environment(), &ProjectEnvironment::imageChanged);
        QVERIFY(!looked.wait(1000));
        window.environment()->refresh(); // a turn's refresh is held too, not lost
        QVERIFY(!looked.wait(300));
        window.warmUp();
        QVERIFY(looked.wait(kWaitMs));
        QCOMPARE(looked.first().at(0).toString(), window.settings().image);
        window.shutDown(ConversationController::ShutDownMode::Wait);
        now.shutDown(ConversationController::ShutDownMode::Wait);
    }

    void aNewConversationIsSavedAtItsFirstPromptTitledFromIt()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueText(QStringLiteral("Hello there."));
        ConversationController controller(settingsFor(server));
        QVERIFY(controller.storeError().isEmpty());
        QVERIFY(!controller.isSaved());
        QVERIFY(controller.title().isEmpty());
        QSignalSpy listChanged(&controller, &ConversationController::conversationsChanged);
        QCOMPARE(runToEnd(controller, QStringLiteral("Plot the sales\nand more")),
                 QStringLiteral("answered"));
        QVERIFY(controller.isSaved());
        QCOMPARE(controller.title(), QStringLiteral("Plot the sales"));
        QVERIFY(!listChanged.isEmpty());
        const Result<ConversationInfo> stored
            = controller.store()->conversation(controller.conversationId());
        QVERIFY2(stored, qPrintable(stored.error()));
        QCOMPARE(stored.value().title, QStringLiteral("Plot the sales"));
        QVERIFY(stored.value().ownsWorkspace);
        QVERIFY(controller.store()->flush());
        const Result<nlohmann::json> messages
            = controller.store()->messages(controller.conversationId());
        QVERIFY(messages);
        QCOMPARE(messages.value().back()["content"].get<std::string>(), "Hello there.");
    }

    void usageTotalsAreKeptPerConversationAndComeBackWithIt()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueText(QStringLiteral("One."));
        server.enqueueText(QStringLiteral("Two."));
        QString id;
        qint64 tokens = 0;
        {
            ConversationController controller(settingsFor(server));
            QSignalSpy usage(&controller, &ConversationController::usageChanged);
            QCOMPARE(runToEnd(controller, QStringLiteral("first")), QStringLiteral("answered"));
            const qint64 afterOne = controller.usage().tokens();
            QVERIFY(afterOne > 0);
            QCOMPARE(runToEnd(controller, QStringLiteral("second")), QStringLiteral("answered"));
            tokens = controller.usage().tokens();
            QCOMPARE(tokens, 2 * afterOne); // the fake server reports the same usage each time
            QVERIFY(!usage.isEmpty());
            id = controller.conversationId();
            controller.shutDown(ConversationController::ShutDownMode::Wait);
        }
        ConversationController again(settingsFor(server));
        QCOMPARE(again.usage().tokens(), qint64(0)); // a new one until told otherwise
        QSignalSpy switched(&again, &ConversationController::conversationSwitched);
        const Result<bool> opened = again.openConversation(id);
        QVERIFY2(opened, qPrintable(opened.error()));
        QCOMPARE(again.usage().tokens(), tokens);
        QCOMPARE(switched.size(), 1);
        // The history comes back to the agent and to whoever shows it.
        const nlohmann::json shown = switched.first().at(1).value<nlohmann::json>();
        QCOMPARE(shown.size(), size_t(4));
        QCOMPARE(again.agent()->messages().back().text, QStringLiteral("Two."));
    }

    void aNewConversationStartsEmptyAndTheOldOneStaysStored()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueText(QStringLiteral("Kept."));
        ConversationController controller(settingsFor(server));
        QCOMPARE(runToEnd(controller, QStringLiteral("keep me")), QStringLiteral("answered"));
        const QString old = controller.conversationId();
        QSignalSpy switched(&controller, &ConversationController::conversationSwitched);
        QVERIFY(controller.newConversation());
        QCOMPARE(switched.size(), 1);
        QVERIFY(controller.conversationId() != old);
        QVERIFY(!controller.isSaved());
        QCOMPARE(controller.usage().tokens(), qint64(0));
        QVERIFY(controller.store()->conversation(old));
        // A folder the person chose is the workspace and is not owned.
        QTemporaryDir folder;
        QVERIFY(controller.newConversation(folder.path()));
        QCOMPARE(controller.workspace(), QDir(folder.path()).absolutePath());
        QVERIFY(controller.ensureSaved(QStringLiteral("On a folder")));
        const Result<ConversationInfo> stored
            = controller.store()->conversation(controller.conversationId());
        QVERIFY(stored);
        QVERIFY(!stored.value().ownsWorkspace);
        QCOMPARE(stored.value().title, QStringLiteral("On a folder"));
    }

    void modelErrorsSayWhetherARetryCouldHelp()
    {
        QVERIFY(worthAskingAgain(QStringLiteral("rate_limited")));
        QVERIFY(worthAskingAgain(QStringLiteral("stalled")));
        QVERIFY(!worthAskingAgain(QStringLiteral("auth")));
        QVERIFY(!worthAskingAgain(QStringLiteral("quota")));
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueError(401, R"({"error":{"message":"bad key"}})");
        ConversationController controller(settingsFor(server));
        QSignalSpy errors(&controller, &ConversationController::agentError);
        QCOMPARE(runToEnd(controller, QStringLiteral("hello")), QStringLiteral("error"));
        QCOMPARE(errors.size(), 1);
        QCOMPARE(errors.first().at(0).toString(), QStringLiteral("auth"));
        QCOMPARE(errors.first().at(2).toBool(), false);
    }

    void newContainerLimitsRestartAnIdleSandboxOnly()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        ConversationController controller(settingsFor(server));
        QSignalSpy restarted(&controller, &ConversationController::sandboxRestarted);
        AppSettings next = controller.settings();
        next.runTimeoutS = 5; // the next run's limit: no restart
        controller.applySettings(next);
        QCOMPARE(restarted.size(), 0);
        QCOMPARE(controller.session()->config().timeoutMs, 5000);
        next.memory = QStringLiteral("512m");
        controller.applySettings(next);
        QCOMPARE(restarted.size(), 1);
        QCOMPARE(controller.session()->config().memory, QStringLiteral("512m"));
        // Busy: the new limits wait for the next container.
        QSignalSpy personDone(&controller, &ConversationController::personRunFinished);
        QVERIFY(controller.runPersonCode(QStringLiteral("import time; time.sleep(1)"),
                                         ConversationController::Language::Python,
                                         false));
        QVERIFY(controller.isBusy());
        next.network = true;
        controller.applySettings(next);
        QCOMPARE(restarted.size(), 1);
        QVERIFY(personDone.wait(kLongWaitMs));
        QVERIFY(controller.session()->config().network);
        controller.shutDown(ConversationController::ShutDownMode::Wait);
    }

    void aBusyConversationIsNeitherLeftNorDeleted()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        ConversationController controller(settingsFor(server));
        QVERIFY(controller.ensureSaved(QStringLiteral("busy one")));
        const QString id = controller.conversationId();
        QSignalSpy personDone(&controller, &ConversationController::personRunFinished);
        QVERIFY(controller.runPersonCode(QStringLiteral("import time; time.sleep(1)"),
                                         ConversationController::Language::Python,
                                         true));
        QVERIFY(!controller.newConversation());
        QCOMPARE(controller.deleteConversation(id), ConversationController::Refusal::Busy);
        QVERIFY(!controller.submitPrompt(QStringLiteral("not now")));
        QVERIFY(personDone.wait(kLongWaitMs));
        QCOMPARE(personDone.first().at(0).value<ExecutionResult>().status,
                 ExecutionResult::Status::Ok);
        QCOMPARE(controller.conversationId(), id);
        QVERIFY(controller.store()->conversation(id));
        controller.shutDown(ConversationController::ShutDownMode::Wait);
    }

    void stopReturnsAtOnceWhileTheEngineIsSlow()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        enqueueLongRun(server);
        server.enqueueText(QStringLiteral("never asked"));
        ConversationController controller(settingsFor(server));
        QSignalSpy output(controller.agent(), &Agent::toolOutput);
        QSignalSpy finished(controller.agent(), &Agent::finished);
        QSignalSpy stopped(controller.session(), &SandboxSession::stopped);
        QVERIFY(controller.submitPrompt(QStringLiteral("sleep")));
        QVERIFY(output.wait(kLongWaitMs)); // the code runs
        const LoadGauge load;
        qputenv("FAKE_DOCKER_SLOW", "3");
        QElapsedTimer clock;
        clock.start();
        controller.stop();
        const qint64 stopMs = clock.elapsed();
        const LoadGauge::Budget stopLimit = load.budget(500);
        QVERIFY2(
            stopMs < stopLimit.ms,
            qPrintable(
                QStringLiteral("stop took %1 ms, over %2").arg(stopMs).arg(stopLimit.describe())));
        // The agent has ended, the run with it; the container goes in the background. (Not a
        // wait whenever: the end must come before the engine's 3 s are up; it comes within a
        // turn or two of the loop.)
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 2000);
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("stopped"));
        QVERIFY(stopped.isEmpty());
        QVERIFY(stopped.wait(kLongWaitMs));
        QVERIFY2(clock.elapsed() >= 2500,
                 qPrintable(QStringLiteral("removed after %1 ms").arg(clock.elapsed())));
    }

    void deleteReturnsAtOnceWhileTheEngineIsSlow()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        ConversationController controller(settingsFor(server));
        QVERIFY(controller.ensureSaved(QStringLiteral("to delete")));
        const QString id = controller.conversationId();
        const QString workspace = controller.workspace();
        QVERIFY(QDir().mkpath(workspace));
        QFile file(workspace + QStringLiteral("/data.csv"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("a,b\n");
        file.close();
        QVERIFY(controller.newConversation());
        const LoadGauge load;
        qputenv("FAKE_DOCKER_SLOW", "3");
        QSignalSpy done(&controller, &ConversationController::deleteFinished);
        QElapsedTimer clock;
        clock.start();
        QCOMPARE(controller.deleteConversation(id), ConversationController::Refusal::None);
        const qint64 deleteMs = clock.elapsed();
        const LoadGauge::Budget deleteLimit = load.budget(500);
        QVERIFY2(deleteMs < deleteLimit.ms,
                 qPrintable(QStringLiteral("delete took %1 ms, over %2")
                                .arg(deleteMs)
                                .arg(deleteLimit.describe())));
        // Off the list at once; the engine's part follows.
        QVERIFY(!controller.store()->conversation(id));
        QVERIFY(done.isEmpty());
        QVERIFY(done.wait(kLongWaitMs));
        QCOMPARE(done.first().at(0).toString(), id);
        QVERIFY2(done.first().at(1).toBool(), qPrintable(done.first().at(2).toString()));
        QVERIFY(clock.elapsed() >= 2500);
        QVERIFY(!QFileInfo::exists(workspace));
    }

    void deletingTheOpenConversationStartsANewOne()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        ConversationController controller(settingsFor(server));
        QVERIFY(controller.ensureSaved(QStringLiteral("open one")));
        const QString id = controller.conversationId();
        QSignalSpy switched(&controller, &ConversationController::conversationSwitched);
        QSignalSpy done(&controller, &ConversationController::deleteFinished);
        QCOMPARE(controller.deleteConversation(id), ConversationController::Refusal::None);
        QCOMPARE(switched.size(), 1);
        QVERIFY(controller.conversationId() != id);
        QVERIFY(!controller.isSaved());
        QVERIFY(done.wait(kLongWaitMs));
        // Deleting what is not there says so.
        QCOMPARE(controller.deleteConversation(QStringLiteral("nosuchid")),
                 ConversationController::Refusal::StoreFailed);
        QCOMPARE(done.size(), 2);
        QVERIFY(!done.last().at(1).toBool());
    }
};

QTEST_GUILESS_MAIN(TestConversationController)
#include "tst_conversationcontroller.moc"
