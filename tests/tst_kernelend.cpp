#include <sandbox/kernelend.h>

#include <QtTest>

using namespace Sandcastle;

// What a person is told when the kernel ends in the middle of a run, case by case.
class TestKernelEnd : public QObject
{
    Q_OBJECT

    static ExecutionResult describe(const KernelEnd &end)
    {
        ExecutionResult result;
        result.stdoutText = QStringLiteral("kept\n");
        describeKernelEnd(end, result);
        return result;
    }

private Q_SLOTS:
    void aTimeoutTheCodeIgnoredEndsAsATimeout()
    {
        KernelEnd end;
        end.killedByHost = true;
        end.reason = StopReason::Timeout;
        const ExecutionResult r = describe(end);
        QCOMPARE(r.status, ExecutionResult::Status::Timeout);
        QCOMPARE(r.exitCode, 124);
        QVERIFY(r.stateLost);
        QVERIFY(r.error.contains(QStringLiteral("time limit")));
        QCOMPARE(r.stdoutText, QStringLiteral("kept\n")); // what it printed stays
    }

    void hostStopsSayWhichLimit()
    {
        KernelEnd end;
        end.killedByHost = true;
        end.reason = StopReason::Quota;
        end.quotaMessage = QStringLiteral("the workspace grew past 64 MiB");
        QCOMPARE(describe(end).error,
                 QStringLiteral("the workspace grew past 64 MiB; variables are gone"));
        end.reason = StopReason::OutputCap;
        end.outputCapBytes = 64 * 1024 * 1024;
        QVERIFY(describe(end).error.contains(QStringLiteral("more than 64 MiB")));
        end.reason = StopReason::Person;
        const ExecutionResult r = describe(end);
        QCOMPARE(r.status, ExecutionResult::Status::Killed);
        QCOMPARE(r.exitCode, 137);
        QCOMPARE(r.error, QStringLiteral("the run was stopped; variables are gone"));
    }

    void deathsFromInsideAreToldApart()
    {
        KernelEnd end;
        end.memory = QStringLiteral("256m");
        end.death = KernelDeath::OutOfMemory;
        QCOMPARE(describe(end).status, ExecutionResult::Status::OutOfMemory);
        QVERIFY(describe(end).error.contains(QStringLiteral("(256m)")));
        end.death = KernelDeath::Signal;
        QVERIFY(describe(end).error.contains(QStringLiteral("SIGKILL")));
        end.death = KernelDeath::DaemonGone;
        QVERIFY(describe(end).error.contains(QStringLiteral("daemon stopped")));
        end.death = KernelDeath::ContainerGone;
        QVERIFY(describe(end).error.contains(QStringLiteral("container stopped")));
        end.death = KernelDeath::Gone;
        end.exitCode = 3;
        end.diagnostics = QStringLiteral("Traceback: boom");
        const ExecutionResult r = describe(end);
        QCOMPARE(r.exitCode, 3);
        QCOMPARE(r.error,
                 QStringLiteral("the sandbox kernel stopped unexpectedly (exit code 3) "
                                "Traceback: boom"));
        end.exitCode = -1;
        QCOMPARE(describe(end).exitCode, 137);
    }

    void theOomCountTellsAMemoryKillFromASignal()
    {
        qint64 seen = 0;
        const QByteArray v2 = "oom 1\noom_kill 1\n";
        QCOMPARE(deathFromOomProbe(v2, "cat: no such file", 137, seen), KernelDeath::OutOfMemory);
        QCOMPARE(seen, qint64(1));
        // The same count again: this SIGKILL came from inside the sandbox.
        QCOMPARE(deathFromOomProbe(v2, QByteArray(), 137, seen), KernelDeath::Signal);
        QCOMPARE(deathFromOomProbe("oom_kill 2\n", QByteArray(), 1, seen), KernelDeath::Gone);
        QCOMPARE(seen, qint64(2));
        QCOMPARE(
            deathFromOomProbe(
                QByteArray(), "Cannot connect to the Docker daemon at unix:///var/run", 137, seen),
            KernelDeath::DaemonGone);
        QCOMPARE(deathFromOomProbe(QByteArray(), "No such container: x", 137, seen),
                 KernelDeath::ContainerGone);
    }

    // What ssh said reaches the person; a killed ssh says nothing, and docker's words say so.
    void aBrokenRemoteConnectionSaysWhatSshSaid()
    {
        KernelEnd end;
        end.death = KernelDeath::Gone;
        end.remote = QStringLiteral("the docker daemon at ssh://root@host");
        const QString command
            = QStringLiteral("command [ssh -o ConnectTimeout=30 -T -l root -- host docker system "
                             "dial-stdio] has exited with %1, make sure the URL is valid, and "
                             "Docker 18.09 or later is installed on the remote host: stderr=%2");
        end.diagnostics = QStringLiteral("time=\"2026-12-07T18:39:58Z\" level=error msg=\"error "
                                         "waiting for container: ")
                          + command.arg(QStringLiteral("signal: killed"), QString())
                          + QLatin1Char('"');
        const ExecutionResult killed = describe(end);
        QCOMPARE(killed.status, ExecutionResult::Status::Killed);
        QVERIFY2(killed.error.contains(QStringLiteral("ssh://root@host ended early (the connection "
                                                      "broke, or the sandbox stopped): ssh has "
                                                      "exited with signal: killed; variables")),
                 qPrintable(killed.error));
        end.diagnostics = command.arg(QStringLiteral("exit status 255"),
                                      QStringLiteral("Connection to 127.0.0.1 closed by remote "
                                                     "host."));
        QVERIFY2(describe(end).error.contains(
                     QStringLiteral("): Connection to 127.0.0.1 closed by remote host.; ")),
                 qPrintable(describe(end).error));
    }
};

QTEST_GUILESS_MAIN(TestKernelEnd)
#include "tst_kernelend.moc"
