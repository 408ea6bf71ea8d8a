#include <sandbox/containerengine.h>
#include <sandbox/sandboxsession.h>
#include <support/dockercheck.h>
#include <support/testtimeouts.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

using namespace Sandcastle;
using Sandcastle::Testing::kLongWaitMs;
using Sandcastle::Testing::LoadGauge;

// Against the real engine and image: the session's promises, and the hardening it starts with.
// The attacks (fork and memory bombs, network, links, floods...) are in tst_sandboxattacks.
class TestSandboxSession : public QObject
{
    Q_OBJECT

    QTemporaryDir m_workspace;
    std::unique_ptr<SandboxSession> m_session;

    ExecutionResult run(const QString &code, int timeoutMs = -1, QString *streamed = nullptr)
    {
        QSignalSpy finished(m_session.get(), &SandboxSession::finished);
        QString output;
        auto connection = connect(m_session.get(),
                                  &SandboxSession::outputReady,
                                  this,
                                  [&output](OutputStream, const QString &text) { output += text; });
        m_session->runPython(code, timeoutMs);
        const bool done = finished.wait(120000);
        disconnect(connection);
        if (streamed)
            *streamed = output;
        if (!done) {
            ExecutionResult none;
            none.status = ExecutionResult::Status::EngineError;
            none.error = QStringLiteral("no result in 120 s");
            return none;
        }
        return finished.first().at(0).value<ExecutionResult>();
    }

private Q_SLOTS:
    void initTestCase()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        QVERIFY(m_workspace.isValid());
        m_session
            = Sandcastle::Testing::readySession(m_workspace.path(), QStringLiteral("tst-session"));
        QVERIFY2(m_session, "the session did not become ready");
    }

    void cleanupTestCase() { m_session.reset(); }

    void runsCodeAndReturnsItsOutput()
    {
        const ExecutionResult result
            = run(QStringLiteral("numbers = [1, 2, 3, 4, 5]\nprint(sum(numbers) / len(numbers))"));
        QCOMPARE(ExecutionResult::statusName(result.status), QStringLiteral("ok"));
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.stdoutText, QStringLiteral("3.0\n"));
        QVERIFY(result.durationMs >= 0);
    }

    void variablesPersistBetweenRuns()
    {
        QCOMPARE(run(QStringLiteral("counter = 41")).status, ExecutionResult::Status::Ok);
        QCOMPARE(run(QStringLiteral("counter += 1\nprint(counter)")).stdoutText,
                 QStringLiteral("42\n"));
    }

    void exceptionsComeBackWithTheirTraceback()
    {
        const ExecutionResult result = run(QStringLiteral("def f():\n    return 1 / 0\nf()"));
        QCOMPARE(result.status, ExecutionResult::Status::Error);
        QCOMPARE(result.exitCode, 1);
        QVERIFY(result.error.contains(QStringLiteral("ZeroDivisionError")));
        QVERIFY(result.error.contains(QStringLiteral("line 2, in f")));
        // and the kernel lives on
        QCOMPARE(run(QStringLiteral("print('alive')")).stdoutText, QStringLiteral("alive\n"));
    }

    void outputStreamsBeforeTheRunEnds()
    {
        QSignalSpy finished(m_session.get(), &SandboxSession::finished);
        QElapsedTimer clock;
        qint64 firstOutputAt = -1;
        auto connection = connect(m_session.get(),
                                  &SandboxSession::outputReady,
                                  this,
                                  [&](OutputStream, const QString &) {
                                      if (firstOutputAt < 0)
                                          firstOutputAt = clock.elapsed();
                                  });
        clock.start();
        m_session->runPython(QStringLiteral(
            "import time\nprint('first', flush=True)\ntime.sleep(1.5)\nprint('second')"));
        QVERIFY(finished.wait(60000));
        const qint64 finishedAt = clock.elapsed();
        disconnect(connection);
        QVERIFY(firstOutputAt >= 0);
        QVERIFY2(finishedAt - firstOutputAt >= 1000,
                 qPrintable(QStringLiteral("first output at %1 ms, end at %2 ms")
                                .arg(firstOutputAt)
                                .arg(finishedAt)));
    }

    void stderrAndSubprocessOutputAreCaptured()
    {
        QString streamed;
        const ExecutionResult result
            = run(QStringLiteral("import sys, subprocess\nprint('to err', file=sys.stderr)\n"
                                 "subprocess.run(['echo', 'from child'])"),
                  -1,
                  &streamed);
        QCOMPARE(result.status, ExecutionResult::Status::Ok);
        QCOMPARE(result.stderrText, QStringLiteral("to err\n"));
        QCOMPARE(result.stdoutText, QStringLiteral("from child\n"));
        QVERIFY(streamed.contains(QStringLiteral("from child")));
    }

    void filesWrittenToTheWorkspaceAreReportedAndOwnedByTheHost()
    {
        const ExecutionResult result
            = run(QStringLiteral("open('result.csv', 'w').write('a,b\\n1,2\\n')"));
        QCOMPARE(result.status, ExecutionResult::Status::Ok);
        QCOMPARE(result.files, QStringList{QStringLiteral("result.csv")});
        QFile file(m_workspace.filePath(QStringLiteral("result.csv")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("a,b\n1,2\n"));
        // Owned by the host user, or by the sandbox user (1000) when the host user is root.
        const QFileInfo info(file);
        QCOMPARE(info.ownerId(), ::getuid() == 0 ? 1000u : uint(::getuid()));
    }

    void theCodeRunsUnprivilegedOnAReadOnlyRoot()
    {
        const ExecutionResult result
            = run(QStringLiteral("import os\nprint('uid', os.getuid())\n"
                                 "try:\n    open('/etc/evil', 'w')\n    print('wrote "
                                 "root')\nexcept OSError:\n    print('root read-only')\n"
                                 "open('/tmp/scratch', 'w').write('ok'); print('tmp writable')\n"
                                 "print('caps', [l.split()[1] for l in open('/proc/self/status') "
                                 "if l.startswith('CapEff')][0])\n"
                                 "print('nnp', [l.split()[1] for l in open('/proc/self/status') if "
                                 "l.startswith('NoNewPrivs')][0])\n"));
        QCOMPARE(result.status, ExecutionResult::Status::Ok);
        QVERIFY(!result.stdoutText.contains(QStringLiteral("uid 0\n")));
        QVERIFY(result.stdoutText.contains(QStringLiteral("root read-only")));
        QVERIFY(result.stdoutText.contains(QStringLiteral("tmp writable")));
        QVERIFY2(result.stdoutText.contains(QStringLiteral("caps 0000000000000000")),
                 qPrintable(result.stdoutText));
        QVERIFY(result.stdoutText.contains(QStringLiteral("nnp 1")));
    }

    void theContainerCarriesTheLimitsAndLabels()
    {
        const ContainerEngine engine(m_session->config().engine);
        const auto out = engine.run({QStringLiteral("inspect"), m_session->containerName()});
        QCOMPARE(out.exitCode, 0);
        const QString inspect = QString::fromUtf8(out.stdoutData);
        QVERIFY(inspect.contains(QStringLiteral("\"Memory\": 1073741824")));
        QVERIFY(inspect.contains(QStringLiteral("\"MemorySwap\": 1073741824")));
        QVERIFY(inspect.contains(QStringLiteral("\"PidsLimit\": 256")));
        QVERIFY(inspect.contains(QStringLiteral("\"NanoCpus\": 1000000000")));
        QVERIFY(inspect.contains(QStringLiteral("\"ReadonlyRootfs\": true")));
        QVERIFY(inspect.contains(QStringLiteral("\"NetworkMode\": \"none\"")));
        QVERIFY(inspect.contains(QStringLiteral("\"app\": \"sandcastle\"")));
        QVERIFY(!inspect.contains(QStringLiteral("docker.sock")));
    }

    void aTimeoutInterruptsTheRunAndKeepsTheState()
    {
        QCOMPARE(run(QStringLiteral("kept = 'still here'")).status, ExecutionResult::Status::Ok);
        const QString container = m_session->containerName();
        const LoadGauge load;
        QElapsedTimer clock;
        clock.start();
        const ExecutionResult result
            = run(QStringLiteral(
                      "import time\nprint('going', flush=True)\nwhile True:\n    time.sleep(0.1)"),
                  1000);
        QCOMPARE(ExecutionResult::statusName(result.status), QStringLiteral("timeout"));
        QCOMPARE(result.exitCode, 124);
        QVERIFY(!result.stateLost);
        QVERIFY(result.stdoutText.contains(QStringLiteral("going")));
        // A run the timeout did not stop goes on until run() gives up (120 s). 10 s on an idle
        // machine; on a busy one, times how much slower it runs the test.
        const qint64 tookMs = clock.elapsed();
        const LoadGauge::Budget limit = load.budget(10000);
        QVERIFY2(tookMs < limit.ms,
                 qPrintable(QStringLiteral("the timeout did not stop the run: %1 ms, over %2")
                                .arg(tookMs)
                                .arg(limit.describe())));
        QCOMPARE(run(QStringLiteral("print(kept)")).stdoutText, QStringLiteral("still here\n"));
        QCOMPARE(m_session->containerName(), container);
    }

    void codeThatIgnoresTheInterruptIsKilledAndTheNextRunStartsAfresh()
    {
        const QString oldContainer = m_session->containerName();
        const ExecutionResult result
            = run(QStringLiteral("import time\nwhile True:\n    try:\n        time.sleep(0.1)\n    "
                                 "except KeyboardInterrupt:\n        pass"),
                  800);
        QCOMPARE(ExecutionResult::statusName(result.status), QStringLiteral("timeout"));
        QVERIFY(result.stateLost);
        const ExecutionResult next = run(QStringLiteral("print('again')"));
        QCOMPARE(next.stdoutText, QStringLiteral("again\n"));
        QVERIFY(m_session->containerName() != oldContainer);
    }

    void shellCommandsRunInTheWorkspaceAndStream()
    {
        QSignalSpy finished(m_session.get(), &SandboxSession::finished);
        QString streamed;
        auto connection
            = connect(m_session.get(),
                      &SandboxSession::outputReady,
                      this,
                      [&streamed](OutputStream, const QString &text) { streamed += text; });
        m_session->runShell(QStringLiteral("pwd; echo to-err >&2; echo made > shell.txt; exit 3"));
        QVERIFY(finished.wait(60000));
        disconnect(connection);
        const auto result = finished.first().at(0).value<ExecutionResult>();
        QCOMPARE(result.status, ExecutionResult::Status::Error);
        QCOMPARE(result.exitCode, 3);
        QCOMPARE(result.stdoutText, QStringLiteral("/workspace\n"));
        QCOMPARE(result.stderrText, QStringLiteral("to-err\n"));
        QVERIFY(result.files.contains(QStringLiteral("shell.txt")));
        QVERIFY(streamed.contains(QStringLiteral("/workspace")));
    }

    void aPersonCanInterruptARun()
    {
        QSignalSpy finished(m_session.get(), &SandboxSession::finished);
        QSignalSpy output(m_session.get(), &SandboxSession::outputReady);
        m_session->runPython(
            QStringLiteral("import time\nprint('waiting', flush=True)\ntime.sleep(60)"));
        QVERIFY(output.wait(30000));
        m_session->interrupt();
        QVERIFY(finished.wait(kLongWaitMs));
        const auto result = finished.first().at(0).value<ExecutionResult>();
        QCOMPARE(result.status, ExecutionResult::Status::Killed);
        QVERIFY(!result.stateLost);
    }

    void floodingOutputIsCappedAndStopped()
    {
        SandboxConfig config = m_session->config();
        config.maxKeptBytes = 64 * 1024;
        config.outputHardCapBytes = 4 * 1024 * 1024;
        SandboxSession session(config);
        QSignalSpy finished(&session, &SandboxSession::finished);
        qint64 delivered = 0;
        int chunks = 0;
        connect(
            &session, &SandboxSession::outputReady, this, [&](OutputStream, const QString &text) {
                delivered += text.size();
                ++chunks;
            });
        QElapsedTimer clock;
        clock.start();
        session.runShell(QStringLiteral("yes"));
        QVERIFY(finished.wait(60000));
        const auto result = finished.first().at(0).value<ExecutionResult>();
        QCOMPARE(result.status, ExecutionResult::Status::Killed);
        QVERIFY(result.truncated);
        QVERIFY(result.error.contains(QStringLiteral("MiB")));
        QVERIFY(result.stdoutText.size() <= 64 * 1024);
        QVERIFY(delivered <= 64 * 1024);
        // batched: far fewer updates than one per 60th of a second
        QVERIFY2(chunks <= clock.elapsed() * 60 / 1000 + 2, qPrintable(QString::number(chunks)));
        // the full output (up to the cap) is in the run's log
        QFileInfo log(config.workspace + QStringLiteral("/.sandcastle/run-1.log"));
        QVERIFY(log.exists());
        QVERIFY(log.size() >= 4 * 1024 * 1024 - 65536);
        QVERIFY(log.size() <= 4 * 1024 * 1024);
    }

    void matplotlibFiguresAreSavedAsPngs()
    {
        const ExecutionResult result = run(
            QStringLiteral("import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nplt.show()\n"
                           "plt.figure(); plt.bar(['a', 'b'], [3, 4])  # left open"));
        QCOMPARE(result.status, ExecutionResult::Status::Ok);
        QStringList pngs;
        for (const QString &file : result.files) {
            if (file.startsWith(QStringLiteral("outputs/"))
                && file.endsWith(QStringLiteral(".png")))
                pngs << file;
        }
        QCOMPARE(pngs.size(), 2);
        QFile png(m_workspace.filePath(pngs.first()));
        QVERIFY(png.open(QIODevice::ReadOnly));
        QCOMPARE(png.read(8), QByteArray("\x89PNG\r\n\x1a\n"));
    }

    // A chart the code saved itself is in the workspace once: the kernel does not save it
    // again under outputs/ (a figure saved only to a buffer, and one never saved, still are).
    void aFigureTheCodeSavedIsNotSavedTwice()
    {
        const ExecutionResult result = run(QStringLiteral(
            "import io\nimport matplotlib.pyplot as plt\n"
            "plt.plot([1, 2, 3]); plt.savefig('chart.png')\n"
            "plt.figure(); plt.bar(['a'], [1]); plt.savefig(io.BytesIO(), format='png')\n"
            "fig, ax = plt.subplots(); ax.plot([3, 2]); fig.savefig('second.svg')\n"));
        QCOMPARE(result.status, ExecutionResult::Status::Ok);
        QStringList outputs;
        for (const QString &file : result.files) {
            if (file.startsWith(QStringLiteral("outputs/")))
                outputs << file;
        }
        QCOMPARE(outputs.size(), 1); // the figure saved only into a buffer
        QVERIFY(result.files.contains(QStringLiteral("chart.png")));
        QVERIFY(result.files.contains(QStringLiteral("second.svg")));
        // Nothing left to save: no outputs folder is made for it.
        QVERIFY(QDir(m_workspace.filePath(QStringLiteral("outputs"))).removeRecursively());
        const ExecutionResult saved = run(QStringLiteral(
            "import matplotlib.pyplot as plt\nplt.plot([1]); plt.savefig('only.png')"));
        QCOMPARE(saved.files, QStringList{QStringLiteral("only.png")});
        QVERIFY(!QFileInfo::exists(m_workspace.filePath(QStringLiteral("outputs"))));
        // A later run's show() saves a new figure as before.
        const ExecutionResult later
            = run(QStringLiteral("import matplotlib.pyplot as plt\nplt.plot([1]); plt.show()"));
        QCOMPARE(later.status, ExecutionResult::Status::Ok);
        QCOMPARE(later.files.size(), 1);
        QVERIFY(later.files.first().startsWith(QStringLiteral("outputs/figure-")));
    }

    void aSymlinkPlantedForTheLogIsNotFollowed()
    {
        // Planted from the host side: when the host user is the container user (not root),
        // the code in the container can make exactly these links.
        QTemporaryDir outside;
        const QString victimPath = outside.filePath(QStringLiteral("victim.txt"));
        QFile victim(victimPath);
        QVERIFY(victim.open(QIODevice::WriteOnly));
        victim.write("untouched");
        victim.close();

        QTemporaryDir linkedLog;
        QVERIFY(QDir().mkpath(linkedLog.filePath(QStringLiteral(".sandcastle"))));
        QVERIFY(
            QFile::link(victimPath, linkedLog.filePath(QStringLiteral(".sandcastle/run-1.log"))));
        QTemporaryDir linkedFolder;
        QVERIFY(QFile::link(outside.path(), linkedFolder.filePath(QStringLiteral(".sandcastle"))));

        for (const QString &workspace : {linkedLog.path(), linkedFolder.path()}) {
            SandboxConfig config = m_session->config();
            config.workspace = workspace;
            SandboxSession session(config);
            QSignalSpy finished(&session, &SandboxSession::finished);
            session.runPython(QStringLiteral("print('x' * 100)"));
            QVERIFY(finished.wait(60000));
            QCOMPARE(finished.first().at(0).value<ExecutionResult>().status,
                     ExecutionResult::Status::Ok);
        }
        QVERIFY(victim.open(QIODevice::ReadOnly));
        QCOMPARE(victim.readAll(), QByteArray("untouched"));
        QVERIFY(!QFile::exists(outside.filePath(QStringLiteral("run-1.log"))));
    }

    void aSecondRunWhileBusyIsRefusedNotQueuedSilently()
    {
        QSignalSpy finished(m_session.get(), &SandboxSession::finished);
        m_session->runPython(QStringLiteral("import time; time.sleep(0.5)"));
        m_session->runPython(QStringLiteral("print('second')"));
        QVERIFY(finished.wait(30000));
        if (finished.size() < 2)
            QVERIFY(finished.wait(30000));
        const auto first = finished.at(0).at(0).value<ExecutionResult>();
        QCOMPARE(first.status, ExecutionResult::Status::EngineError);
        QVERIFY(first.error.contains(QStringLiteral("in progress")));
        QCOMPARE(finished.at(1).at(0).value<ExecutionResult>().status, ExecutionResult::Status::Ok);
    }

    void stopRemovesTheContainer()
    {
        const QString name = m_session->containerName();
        QVERIFY(!name.isEmpty());
        m_session->stop();
        const auto out
            = ContainerEngine(m_session->config().engine).run({QStringLiteral("inspect"), name});
        QVERIFY(out.exitCode != 0);
        QCOMPARE(m_session->state(), SandboxSession::State::Stopped);
    }

    void stoppingARunThatHasNotStartedStillEndsItOnce()
    {
        SandboxSession session(SandboxConfig::fromEnvironment());
        QSignalSpy finished(&session, &SandboxSession::finished);
        session.runPython(QStringLiteral("print(1)")); // the container is still starting
        QCOMPARE(session.state(), SandboxSession::State::Starting);
        session.stop();
        QCOMPARE(finished.size(), 1);
        QCOMPARE(finished.first().at(0).value<ExecutionResult>().status,
                 ExecutionResult::Status::Killed);
        QTest::qWait(200);
        QCOMPARE(finished.size(), 1);
    }

    void aMissingImageIsAClearEngineError()
    {
        SandboxConfig config = SandboxConfig::fromEnvironment();
        config.image = QStringLiteral("sandcastle-no-such-image:never");
        SandboxSession session(config);
        QSignalSpy finished(&session, &SandboxSession::finished);
        session.runPython(QStringLiteral("print(1)"));
        QVERIFY(finished.wait(60000));
        const auto result = finished.first().at(0).value<ExecutionResult>();
        QCOMPARE(result.status, ExecutionResult::Status::EngineError);
        QVERIFY2(result.error.contains(QStringLiteral("sandcastle image build")),
                 qPrintable(result.error));
    }
};

QTEST_GUILESS_MAIN(TestSandboxSession)
#include "tst_sandboxsession.moc"
