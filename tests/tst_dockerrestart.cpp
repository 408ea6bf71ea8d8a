#include <sandbox/containerengine.h>
#include <sandbox/sandboxsession.h>
#include <support/datachecks.h>
#include <support/dockercheck.h>
#include <support/securitycase.h>

#include <QElapsedTimer>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

using namespace Sandcastle;
using Sandcastle::Testing::SecurityCase;

// The Docker daemon restarted in the middle of a run (ctest runs this alone: every other
// docker test would lose its containers too). The run ends with a message that says what
// happened, and the session's next run works on the restarted daemon.
class TestDockerRestart : public QObject
{
    Q_OBJECT

    static bool restartDaemon(QString *why)
    {
        QProcess restart;
        // The project's own way of starting the daemon (systemd where there is one, else
        // dockerd in the background), after stopping the one that runs.
        const QString script = QStringLiteral(
            "set -e\n"
            "if [ -d /run/systemd/system ] && systemctl is-active --quiet docker; then\n"
            "  systemctl restart docker; exit 0\n"
            "fi\n"
            "pid=$(pgrep -x dockerd) || { echo 'no dockerd runs here' >&2; exit 1; }\n"
            "kill -TERM $pid\n"
            "for i in $(seq 1 60); do kill -0 $pid 2>/dev/null || break; sleep 0.5; done\n"
            "source \"$SANDCASTLE_SOURCE_DIR/scripts/common.sh\"\n"
            "start_docker\n");
        restart.start(QStringLiteral("bash"), {QStringLiteral("-c"), script});
        if (!restart.waitForFinished(150000) || restart.exitCode() != 0) {
            *why = QStringLiteral("could not restart the daemon: ")
                   + QString::fromUtf8(restart.readAllStandardError());
            return false;
        }
        return true;
    }

private Q_SLOTS:
    void initTestCase()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        if (::getuid() != 0) {
            if (qEnvironmentVariableIsSet("CI"))
                QFAIL("restarting the Docker daemon needs root");
            QSKIP("restarting the Docker daemon needs root");
        }
    }

    void cleanupTestCase() { SecurityCase::printTotals(); }

    void theDaemonRestartedMidRunIsReportedAndTheNextRunWorks()
    {
        SecurityCase c(SecurityCase::Kind::Fault,
                       QStringLiteral("the Docker daemon restarted mid-run"));
        QTemporaryDir workspace;
        SandboxConfig config = SandboxConfig::fromEnvironment();
        config.workspace = workspace.path();
        config.conversationId = QStringLiteral("tst-restart");
        SandboxSession session(config);
        QSignalSpy finished(&session, &SandboxSession::finished);
        QString output;
        connect(&session,
                &SandboxSession::outputReady,
                this,
                [&output](OutputStream, const QString &text) { output += text; });
        session.runPython(QStringLiteral("import time\nprint('before', flush=True)\n"
                                         "kept = 1\ntime.sleep(300)\n"),
                          600000);
        QTRY_VERIFY_WITH_TIMEOUT(output.contains(QStringLiteral("before")), 60000);
        const QString oldContainer = session.containerName();

        QElapsedTimer clock;
        clock.start();
        QString why;
        QVERIFY2(restartDaemon(&why), qPrintable(why));
        const qint64 restartMs = clock.elapsed();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
        const auto result = finished.first().at(0).value<ExecutionResult>();
        QVERIFY2(result.status != ExecutionResult::Status::Ok
                     && result.status != ExecutionResult::Status::OutOfMemory,
                 qPrintable(ExecutionResult::statusName(result.status)));
        QVERIFY(result.stateLost);
        QVERIFY2(result.error.contains(QStringLiteral("Docker")), qPrintable(result.error));

        // The next run starts a new container on the restarted daemon.
        QSignalSpy again(&session, &SandboxSession::finished);
        session.runPython(QStringLiteral("print('after', 'kept' in globals())"));
        QVERIFY(again.wait(120000));
        const auto next = again.first().at(0).value<ExecutionResult>();
        QVERIFY2(next.status == ExecutionResult::Status::Ok,
                 qPrintable(ExecutionResult::statusName(next.status) + next.error));
        QCOMPARE(next.stdoutText, QStringLiteral("after False\n"));
        QVERIFY(session.containerName() != oldContainer);
        session.stop();
        // Nothing of the conversation is left behind.
        QTRY_VERIFY_WITH_TIMEOUT(
            Sandcastle::Testing::DataChecks::conversationContainers(config.conversationId)
                .isEmpty(),
            30000);
        c.note(QStringLiteral("daemon back after %1 ms; the run ended with \"%2\"; the next run "
                              "worked in a new container")
                   .arg(restartMs)
                   .arg(result.error.left(100)));
    }
};

QTEST_GUILESS_MAIN(TestDockerRestart)
#include "tst_dockerrestart.moc"
