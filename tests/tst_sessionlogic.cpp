#include <sandbox/sandboxsession.h>
#include <support/testtimeouts.h>

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace Sandcastle;
using Sandcastle::Testing::kLongWaitMs;
using Sandcastle::Testing::LoadGauge;

// SandboxSession's logic against tests/support/fake-docker, which runs the real kernel on this
// machine instead of in a container: no daemon needed, so these run everywhere, fast.
class TestSessionLogic : public QObject
{
    Q_OBJECT

    QTemporaryDir m_state;
    QTemporaryDir m_workspace;

    SandboxConfig fakeConfig() const
    {
        SandboxConfig config;
        config.engine = qEnvironmentVariable("SANDCASTLE_SOURCE_DIR")
                        + QStringLiteral("/tests/support/fake-docker");
        config.workspace = m_workspace.path();
        config.interruptGraceMs = 500;
        return config;
    }

    static ExecutionResult wait(QSignalSpy &finished)
    {
        if (!finished.wait(kLongWaitMs)) // the first run starts the kernel: a Python process
            return {};
        return finished.takeFirst().at(0).value<ExecutionResult>();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariable("SANDCASTLE_SOURCE_DIR").isEmpty(),
                 "SANDCASTLE_SOURCE_DIR is not set");
        qputenv("FAKE_DOCKER_STATE", m_state.path().toUtf8());
    }

    void runsKeepStateAndStream()
    {
        SandboxSession session(fakeConfig());
        QSignalSpy finished(&session, &SandboxSession::finished);
        QSignalSpy output(&session, &SandboxSession::outputReady);
        session.runPython(QStringLiteral("x = 20"));
        QCOMPARE(wait(finished).status, ExecutionResult::Status::Ok);
        session.runPython(QStringLiteral("print(x + 22)"));
        const ExecutionResult result = wait(finished);
        QCOMPARE(result.stdoutText, QStringLiteral("42\n"));
        QVERIFY(!output.isEmpty());
    }

    void aTimeoutInterruptsAndKeepsState()
    {
        // The kernel answers the interrupt within a turn of its loop; the grace before the kill
        // only bounds how long the session waits for that answer, so it is generous here (half a
        // second could pass before a busy machine runs the kernel).
        SandboxConfig config = fakeConfig();
        config.interruptGraceMs = 5000;
        SandboxSession session(config);
        QSignalSpy finished(&session, &SandboxSession::finished);
        session.runPython(QStringLiteral("kept = 1"));
        wait(finished);
        session.runPython(QStringLiteral("import time\ntime.sleep(30)"), 300);
        const ExecutionResult result = wait(finished);
        QCOMPARE(result.status, ExecutionResult::Status::Timeout);
        QCOMPARE(result.exitCode, 124);
        QVERIFY(!result.stateLost);
        session.runPython(QStringLiteral("print(kept)"));
        QCOMPARE(wait(finished).stdoutText, QStringLiteral("1\n"));
    }

    void codeThatIgnoresInterruptsIsKilledAfterTheGracePeriod()
    {
        SandboxSession session(fakeConfig());
        QSignalSpy finished(&session, &SandboxSession::finished);
        const LoadGauge load;
        QElapsedTimer clock;
        clock.start();
        session.runPython(
            QStringLiteral("import time\nwhile True:\n    try:\n        time.sleep(0.05)\n    "
                           "except KeyboardInterrupt:\n        pass"),
            300);
        const ExecutionResult result = wait(finished);
        QCOMPARE(result.status, ExecutionResult::Status::Timeout);
        QVERIFY(result.stateLost);
        // The kernel's start, the 300 ms timeout, the 500 ms grace and the kill: 10 s on an idle
        // machine (a run that was never killed would go on); on a busy one, times how much slower
        // it runs the test.
        const qint64 tookMs = clock.elapsed();
        const LoadGauge::Budget limit = load.budget(10000);
        QVERIFY2(tookMs < limit.ms,
                 qPrintable(QStringLiteral("%1 ms, over %2").arg(tookMs).arg(limit.describe())));
        session.runPython(QStringLiteral("print('fresh')"));
        QCOMPARE(wait(finished).stdoutText, QStringLiteral("fresh\n"));
    }

    void shellCommandsReportTheirExitCode()
    {
        SandboxSession session(fakeConfig());
        QSignalSpy finished(&session, &SandboxSession::finished);
        session.runShell(QStringLiteral("echo out; echo err >&2; exit 7"));
        const ExecutionResult result = wait(finished);
        QCOMPARE(result.status, ExecutionResult::Status::Error);
        QCOMPARE(result.exitCode, 7);
        QCOMPARE(result.stdoutText, QStringLiteral("out\n"));
        QCOMPARE(result.stderrText, QStringLiteral("err\n"));
    }

    void outputPastTheHardCapStopsTheRunAndIsSpilled()
    {
        SandboxConfig config = fakeConfig();
        config.maxKeptBytes = 1000;
        config.outputHardCapBytes = 200000;
        SandboxSession session(config);
        QSignalSpy finished(&session, &SandboxSession::finished);
        session.runPython(QStringLiteral("while True:\n    print('y' * 99)"));
        const ExecutionResult result = wait(finished);
        QCOMPARE(result.status, ExecutionResult::Status::Killed);
        QVERIFY(result.truncated);
        QVERIFY(result.stdoutText.size() <= 1000);
        QVERIFY(!result.stateLost); // interrupted, not killed
        QFile log(m_workspace.filePath(QStringLiteral(".sandcastle/run-1.log")));
        QVERIFY(log.open(QIODevice::ReadOnly));
        QCOMPARE(log.size(), qint64(200000));
    }

    // The code ends on its own although the host asked it to stop at the cap (here it swallows
    // the interrupt; on a busy machine the interrupt can also arrive after the code's end, while
    // the engine's pipe still holds its output): the run is done, and says it was cut.
    void aRunThatEndsBeforeTheCapsInterruptIsDoneAndSaysItWasCut()
    {
        SandboxConfig config = fakeConfig();
        config.maxKeptBytes = 1000;
        config.outputHardCapBytes = 1024 * 1024;
        config.interruptGraceMs = 20000; // the interrupt, however late, is what ends the sleep
        SandboxSession session(config);
        QSignalSpy finished(&session, &SandboxSession::finished);
        session.runPython(QStringLiteral("import sys, time\n"
                                         "try:\n"
                                         "    sys.stdout.write('y' * (2 * 1024 * 1024))\n"
                                         "    sys.stdout.flush()\n"
                                         "    time.sleep(30)\n"
                                         "except KeyboardInterrupt:\n"
                                         "    pass\n"));
        const ExecutionResult result = wait(finished);
        QCOMPARE(result.status, ExecutionResult::Status::Ok);
        QVERIFY(result.truncated);
        QVERIFY2(result.error.contains(QStringLiteral("more than 1 MiB"))
                     && result.error.contains(QStringLiteral("ended before it could be stopped")),
                 qPrintable(result.error));
        QVERIFY(result.stdoutText.size() <= 1000);
        QFile log(m_workspace.filePath(QStringLiteral(".sandcastle/run-1.log")));
        QVERIFY(log.open(QIODevice::ReadOnly));
        QCOMPARE(log.size(), qint64(1024 * 1024));
        // The next run starts clean: no stop left over from this one.
        session.runPython(QStringLiteral("print('fresh')"));
        const ExecutionResult next = wait(finished);
        QCOMPARE(next.status, ExecutionResult::Status::Ok);
        QCOMPARE(next.stdoutText, QStringLiteral("fresh\n"));
        QVERIFY(!next.truncated);
        QVERIFY(next.error.isEmpty());
    }

    void aMissingImageIsAnEngineErrorWithTheFix()
    {
        SandboxConfig config = fakeConfig();
        config.image = QStringLiteral("missing:image");
        SandboxSession session(config);
        QSignalSpy finished(&session, &SandboxSession::finished);
        QSignalSpy errors(&session, &SandboxSession::errorOccurred);
        session.runPython(QStringLiteral("print(1)"));
        const ExecutionResult result = wait(finished);
        QCOMPARE(result.status, ExecutionResult::Status::EngineError);
        QVERIFY(result.error.contains(QStringLiteral("sandcastle image build")));
        QCOMPARE(errors.size(), 1);
    }

    void aMissingEngineIsAnEngineError()
    {
        SandboxConfig config = fakeConfig();
        config.engine = QStringLiteral("/nonexistent/docker");
        SandboxSession session(config);
        QSignalSpy finished(&session, &SandboxSession::finished);
        session.runPython(QStringLiteral("print(1)"));
        const ExecutionResult result = wait(finished);
        QCOMPARE(result.status, ExecutionResult::Status::EngineError);
        QVERIFY(result.error.contains(QStringLiteral("installed")));
    }

    void freshModeKeepsNothingBetweenRuns()
    {
        SandboxConfig config = fakeConfig();
        config.fresh = true;
        SandboxSession session(config);
        QSignalSpy finished(&session, &SandboxSession::finished);
        session.runPython(QStringLiteral("y = 1"));
        QCOMPARE(wait(finished).status, ExecutionResult::Status::Ok);
        QCOMPARE(session.state(), SandboxSession::State::Stopped);
        session.runPython(QStringLiteral("print(y)"));
        const ExecutionResult result = wait(finished);
        QCOMPARE(result.status, ExecutionResult::Status::Error);
        QVERIFY(result.error.contains(QStringLiteral("NameError")));
    }

    void everyRequestEndsInExactlyOneResult()
    {
        SandboxSession session(fakeConfig());
        QSignalSpy finished(&session, &SandboxSession::finished);
        session.runPython(QStringLiteral("import time; time.sleep(0.3)"));
        session.runPython(QStringLiteral("print('refused')"));
        QVERIFY(finished.wait(kLongWaitMs));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, Sandcastle::Testing::kWaitMs);
        QTest::qWait(200);
        QCOMPARE(finished.size(), 2);
        QCOMPARE(finished.at(0).at(0).value<ExecutionResult>().status,
                 ExecutionResult::Status::EngineError);
        QCOMPARE(finished.at(1).at(0).value<ExecutionResult>().status, ExecutionResult::Status::Ok);
    }
};

QTEST_GUILESS_MAIN(TestSessionLogic)
#include "tst_sessionlogic.moc"
