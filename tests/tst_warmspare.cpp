#include <app/agent/agent.h>
#include <app/controller/conversationcontroller.h>
#include <app/controller/powersupply.h>
#include <app/controller/warmspare.h>
#include <sandbox/blockingjobs.h>
#include <sandbox/sandboxsession.h>
#include <support/fakeengine.h>
#include <support/fakeopenaiserver.h>
#include <support/testtimeouts.h>

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>
#include <vector>

using namespace Sandcastle;
using namespace Sandcastle::Testing;

// The warm spare (one ready sandbox in reserve, adopted by the next new conversation) and the
// idle stop (a sandbox nobody looks at or uses is stopped), on tests/support/fake-docker: the
// real kernel on this machine, no daemon needed. scripts/bench measures what they save.
class TestWarmSpare : public QObject
{
    Q_OBJECT

    QTemporaryDir m_state;
    std::unique_ptr<QTemporaryDir> m_dataDir;
    FakeOpenAiServer m_server;

    AppSettings settings() const
    {
        AppSettings s = fakeEngineSettings(m_server, m_dataDir->path());
        s.preimports.clear(); // this machine's Python has no data stack to import
        return s;
    }
    static std::function<bool()> onMains()
    {
        return [] {
            return false;
        };
    }
    static bool waitReady(WarmSpare &spare)
    {
        if (spare.isReady())
            return true;
        QSignalSpy ready(&spare, &WarmSpare::ready);
        return ready.wait(kLongWaitMs); // a Python kernel starting
    }
    static bool waitState(const SandboxSession *session, SandboxSession::State state, int ms)
    {
        QElapsedTimer waited;
        waited.start();
        while (session->state() != state && waited.elapsed() < ms)
            QTest::qWait(20);
        return session->state() == state;
    }
    static ExecutionResult personRun(ConversationController &controller, const QString &code)
    {
        QSignalSpy done(&controller, &ConversationController::personRunFinished);
        if (!controller.runPersonCode(code, ConversationController::Language::Python, false)
            || !done.wait(kLongWaitMs))
            return {};
        return done.first().at(0).value<ExecutionResult>();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY2(useFakeEngine(m_state.path()), "SANDCASTLE_SOURCE_DIR is not set");
        QVERIFY(m_server.listen());
    }
    void init() { m_dataDir = std::make_unique<QTemporaryDir>(); }
    void cleanup()
    {
        blockingJobs()->waitForDone();
        m_dataDir.reset();
    }

    void theNextNewConversationAdoptsTheSpareAndANewOneIsMade()
    {
        ConversationController controller(settings());
        WarmSpare spare(settings(), onMains());
        controller.setWarmSpare(&spare);
        spare.replenish(0);
        QVERIFY(waitReady(spare));
        const QString id = spare.conversationId();
        const QString container = spare.session()->containerName();
        QVERIFY(!container.isEmpty());

        QVERIFY(controller.newConversation());
        // Ready the moment the conversation exists: its container is the spare's.
        QCOMPARE(controller.conversationId(), id);
        QCOMPARE(controller.session()->state(), SandboxSession::State::Ready);
        QCOMPARE(controller.session()->containerName(), container);
        QCOMPARE(controller.workspace(), settings().workspaceFor(id));
        QCOMPARE(controller.session()->config().conversationId, id);
        QVERIFY(!spare.hasSpare());
        const ExecutionResult result
            = personRun(controller,
                        QStringLiteral("import os\n"
                                       "open(os.environ.get('SANDCASTLE_WORKSPACE', '/workspace')"
                                       " + '/made.txt', 'w').write('x')\nprint(5)"));
        QCOMPARE(result.status, ExecutionResult::Status::Ok);
        QCOMPARE(result.stdoutText.trimmed(), QStringLiteral("5"));
        QVERIFY(QFile::exists(controller.workspace() + QStringLiteral("/made.txt")));

        // The next spare comes in the background, for another conversation.
        QVERIFY(waitReady(spare));
        QVERIFY(spare.conversationId() != id);
        QVERIFY(spare.session()->containerName() != container);
    }

    void thereIsNeverMoreThanOneSparePerDataFolder()
    {
        WarmSpare first(settings(), onMains());
        first.replenish(0);
        first.replenish(0);
        QVERIFY(waitReady(first));
        const QString id = first.conversationId();
        first.replenish(0); // there is one: nothing more
        QTest::qWait(300);
        QCOMPARE(first.conversationId(), id);
        QCOMPARE(QDir(m_dataDir->filePath(QStringLiteral("workspaces")))
                     .entryList(QDir::Dirs | QDir::NoDotAndDotDot)
                     .size(),
                 1);
        // Another window on the same data folder keeps none.
        WarmSpare second(settings(), onMains());
        second.replenish(0);
        QTest::qWait(300);
        QVERIFY(!second.hasSpare());
        QCOMPARE(second.reason(), QStringLiteral("another window keeps one"));
    }

    void newContainerSettingsReplaceTheSpare()
    {
        WarmSpare spare(settings(), onMains());
        spare.replenish(0);
        QVERIFY(waitReady(spare));
        const QString old = spare.conversationId();
        const QString oldWorkspace = settings().workspaceFor(old);
        QVERIFY(QFileInfo::exists(oldWorkspace));
        AppSettings next = settings();
        next.memory = QStringLiteral("2g");
        QSignalSpy gone(&spare, &WarmSpare::gone);
        spare.setSettings(next);
        QCOMPARE(gone.size(), 1);
        QVERIFY(!QFileInfo::exists(oldWorkspace)); // its empty workspace went with it
        QVERIFY(waitReady(spare));
        QVERIFY(spare.conversationId() != old);
        QCOMPARE(spare.session()->config().memory, QStringLiteral("2g"));
        // A setting that does not touch the container keeps it.
        const QString kept = spare.conversationId();
        next.runTimeoutS = 5;
        spare.setSettings(next);
        QCOMPARE(spare.conversationId(), kept);
    }

    void noSpareWhenOffOnBatteryOrInFreshMode()
    {
        bool battery = true;
        WarmSpare spare(settings(), [&battery] { return battery; });
        spare.replenish(0);
        QTest::qWait(200);
        QVERIFY(!spare.hasSpare());
        QCOMPARE(spare.reason(), QStringLiteral("on battery"));
        battery = false;
        AppSettings off = settings();
        off.warmSpare = false;
        spare.setSettings(off);
        spare.replenish(0);
        QTest::qWait(200);
        QVERIFY(!spare.hasSpare());
        QCOMPARE(spare.reason(), QStringLiteral("off in the settings"));
        AppSettings fresh = settings();
        fresh.fresh = true;
        spare.setSettings(fresh);
        spare.replenish(0);
        QTest::qWait(200);
        QVERIFY(!spare.hasSpare());
        QCOMPARE(spare.reason(), QStringLiteral("every run gets a fresh container"));
        // Back on mains with the setting on: one comes.
        spare.setSettings(settings());
        spare.replenish(0);
        QVERIFY(waitReady(spare));
    }

    void theSpareGoesWithTheWindowLeavingNothing()
    {
        QString workspace;
        {
            WarmSpare spare(settings(), onMains());
            spare.replenish(0);
            QVERIFY(waitReady(spare));
            workspace = settings().workspaceFor(spare.conversationId());
            QVERIFY(QFileInfo::exists(workspace));
        }
        blockingJobs()->waitForDone();
        QVERIFY(!QFileInfo::exists(workspace));
        // fake-docker keeps a folder per container until it is removed.
        QCOMPARE(QDir(m_state.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size(), 0);
    }

    void anIdleSandboxIsStoppedAndTheNextRunStartsANewOneWithANotice()
    {
        AppSettings s = settings();
        s.idleStopS = 1;
        ConversationController controller(s);
        QSignalSpy idle(&controller, &ConversationController::sandboxIdleStopped);
        QVERIFY(personRun(controller, QStringLiteral("x = 41")).status
                == ExecutionResult::Status::Ok);
        QVERIFY(idle.wait(kWaitMs));
        QCOMPARE(idle.first().at(0).toInt(), 1);
        QCOMPARE(controller.session()->state(), SandboxSession::State::Stopped);
        QVERIFY(controller.isIdleStopped());
        // The next run works in a new sandbox; the old variables are gone, as the notice says.
        const ExecutionResult again
            = personRun(controller, QStringLiteral("print('x' in globals())"));
        QCOMPARE(again.status, ExecutionResult::Status::Ok);
        QCOMPARE(again.stdoutText.trimmed(), QStringLiteral("False"));
        QVERIFY(!controller.isIdleStopped());
        // The agent hears of it with its next message.
        m_server.enqueueText(QStringLiteral("Noted."));
        QSignalSpy finished(controller.agent(), &Agent::finished);
        const int before = int(m_server.requests().size());
        QVERIFY(controller.submitPrompt(QStringLiteral("go on")));
        QVERIFY(finished.wait(kWaitMs));
        QVERIFY(m_server.requests().size() > before);
        QVERIFY(m_server.requests().constLast().body.contains("The sandbox was stopped after"));
    }

    void aSandboxLookedAtIsNotStopped()
    {
        AppSettings s = settings();
        s.idleStopS = 1;
        ConversationController controller(s);
        controller.setLookedAt(true);
        controller.warmUp();
        QVERIFY(waitState(controller.session(), SandboxSession::State::Ready, kLongWaitMs));
        QTest::qWait(2500);
        QCOMPARE(controller.session()->state(), SandboxSession::State::Ready);
        // Looked away from: stopped after the idle time.
        QSignalSpy idle(&controller, &ConversationController::sandboxIdleStopped);
        controller.setLookedAt(false);
        QVERIFY(idle.wait(kWaitMs));
    }

    void tenOpenConversationsKeepAtMostTwoSandboxesAfterTheIdleTime()
    {
        AppSettings s = settings();
        s.idleStopS = 1;
        WarmSpare spare(s, onMains());
        std::vector<std::unique_ptr<ConversationController>> open;
        std::vector<std::unique_ptr<QSignalSpy>> started;
        for (int i = 0; i < 10; ++i) {
            open.push_back(std::make_unique<ConversationController>(s));
            open.back()->setWarmSpare(&spare);
            started.push_back(
                std::make_unique<QSignalSpy>(open.back()->session(), &SandboxSession::ready));
            open.back()->warmUp();
        }
        open.front()->setLookedAt(true); // the window in front
        spare.replenish(0);
        for (const auto &ready : started) // each was ready once (some may be stopped already)
            QVERIFY(!ready->isEmpty() || ready->wait(kLongWaitMs));
        QVERIFY(waitReady(spare));
        // After the idle time (1 s) the others are stopped: waited for, not slept past (ten
        // kernels started and eight stopped through fake-docker take a while on a busy machine).
        const auto running = [&] {
            int count = spare.hasSpare() ? 1 : 0;
            for (const auto &controller : open)
                count += controller->session()->state() != SandboxSession::State::Stopped;
            return count;
        };
        QTRY_COMPARE_WITH_TIMEOUT(running(), 2, kWaitMs);
        QTest::qWait(1500); // and no more stop: the front one and the spare stay
        QCOMPARE(running(), 2);
        QCOMPARE(open.front()->session()->state(), SandboxSession::State::Ready);
    }

    void theBatteryIsReadFromThePowerSupplyClass()
    {
        QTemporaryDir sys;
        auto supply = [&sys](const QString &name, const QMap<QString, QString> &values) {
            QDir(sys.path()).mkpath(name);
            for (auto it = values.begin(); it != values.end(); ++it) {
                QFile file(sys.filePath(name + QLatin1Char('/') + it.key()));
                QVERIFY(file.open(QIODevice::WriteOnly));
                file.write(it.value().toUtf8() + "\n");
            }
        };
        QVERIFY(!PowerSupply::onBattery(sys.path())); // a desktop: no supply listed
        QVERIFY(!PowerSupply::onBattery(sys.filePath(QStringLiteral("nowhere"))));
        supply(QStringLiteral("BAT0"),
               {{QStringLiteral("type"), QStringLiteral("Battery")},
                {QStringLiteral("status"), QStringLiteral("Discharging")}});
        QVERIFY(PowerSupply::onBattery(sys.path()));
        supply(QStringLiteral("AC"),
               {{QStringLiteral("type"), QStringLiteral("Mains")},
                {QStringLiteral("online"), QStringLiteral("0")}});
        QVERIFY(PowerSupply::onBattery(sys.path()));
        supply(QStringLiteral("AC"), {{QStringLiteral("online"), QStringLiteral("1")}});
        QVERIFY(!PowerSupply::onBattery(sys.path()));
        supply(QStringLiteral("AC"), {{QStringLiteral("online"), QStringLiteral("0")}});
        supply(QStringLiteral("BAT0"), {{QStringLiteral("status"), QStringLiteral("Full")}});
        QVERIFY(!PowerSupply::onBattery(sys.path()));
    }
};

QTEST_GUILESS_MAIN(TestWarmSpare)
#include "tst_warmspare.moc"
