#include <app/controller/conversationcontroller.h>
#include <app/controller/warmspare.h>
#include <sandbox/containerengine.h>
#include <sandbox/sandboxsession.h>
#include <support/dockercheck.h>
#include <support/windowactions.h>
#include <support/windowsettings.h>
#include <ui/mainwindow.h>

#include <QLabel>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace Sandcastle;
using namespace Sandcastle::Testing;

// The window as a person's is set up (warm spare and pre-imports on), on the real engine: the
// spare comes after the first frame, File → New conversation (Ctrl+N) adopts it, the first data
// run finds the modules imported, and the status bar counts the sandboxes.
class TestWarmWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        SANDCASTLE_REQUIRE_DOCKER();
    }

    void ctrlNAdoptsTheSpareAndTheFirstDataRunFindsItsModules()
    {
        QTemporaryDir data;
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        AppSettings settings = settingsWithFakeServer(data.path(), server);
        settings.warmSpare = AppSettings().warmSpare;
        settings.preimports = AppSettings().preimports;
        MainWindow window(settings);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        WarmSpare *spare = window.warmSpare();
        QVERIFY(spare);
        QVERIFY(QTest::qWaitFor([&] { return spare->isReady(); }, 60000));
        const QString id = spare->conversationId();
        QVERIFY(QTest::qWaitFor([&] { return spare->session()->preimportsDone(); }, 60000));

        QTest::keyClick(&window, Qt::Key_N, Qt::ControlModifier);
        QCOMPARE(window.conversationId(), id);
        QCOMPARE(window.session()->state(), SandboxSession::State::Ready);
        QVERIFY(!window.controller()->isIdleStopped());

        QSignalSpy ran(window.controller(), &ConversationController::personRunFinished);
        QVERIFY(window.controller()->runPersonCode(
            QStringLiteral("import sys\nprint(all(m in sys.modules for m in ('numpy', "
                           "'pandas', 'matplotlib.pyplot')))"),
            ConversationController::Language::Python,
            false));
        QVERIFY(ran.wait(30000));
        const auto result = ran.first().at(0).value<ExecutionResult>();
        QCOMPARE(result.stdoutText.trimmed(), QStringLiteral("True"));

        // The next spare, and the status bar's count: this conversation's sandbox and it.
        QVERIFY(QTest::qWaitFor([&] { return spare->isReady(); }, 60000));
        QVERIFY(spare->conversationId() != id);
        auto *count = window.findChild<QLabel *>(QStringLiteral("sandboxesStatus"));
        QVERIFY(count);
        QVERIFY2(
            QTest::qWaitFor(
                [&] { return count->text().startsWith(QStringLiteral("Sandboxes: 2 · ")); }, 45000),
            qPrintable(count->text()));
    }

    void aWindowEndedBySigtermRemovesItsSandboxesAndTheSpare()
    {
        // The real program, as a desktop session's logout or `kill` ends it.
        QTemporaryDir data;
        const QString owner = SandboxConfig::ownerDataFor(data.path());
        const ContainerEngine engine(SandboxConfig::fromEnvironment().engine);
        auto running = [&] {
            const ContainerEngine::Usage usage = engine.sandboxUsage(owner);
            return usage.running;
        };
        QProcess app;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SANDCASTLE_DATA_DIR"), data.path());
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        app.setProcessEnvironment(env);
        app.start(qEnvironmentVariable("SANDCASTLE_BINARY"), {});
        QVERIFY(app.waitForStarted());
        // Its own sandbox after the first frame, the spare two seconds later.
        QVERIFY(QTest::qWaitFor([&] { return running() == 2; }, 60000));
        ::kill(pid_t(app.processId()), SIGTERM);
        QVERIFY(app.waitForFinished(30000));
        QCOMPARE(app.exitStatus(), QProcess::NormalExit);
        QCOMPARE(app.exitCode(), 0);
        QCOMPARE(running(), 0);
    }
};

QTEST_MAIN(TestWarmWindow)
#include "tst_warmwindow.moc"
