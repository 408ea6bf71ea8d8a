// ProcessReaper: a process handed over is killed and deleted once its end is read, and what is
// still alive when the application object goes is waited for then, without QProcess's warning.
#include <sandbox/processreaper.h>
#include <support/testtimeouts.h>

#include <QCoreApplication>
#include <QPointer>
#include <QProcess>
#include <QtTest>

#include <cerrno>
#include <csignal>

using namespace Sandcastle;

namespace {

QStringList g_messages;

void collect(QtMsgType, const QMessageLogContext &, const QString &message)
{
    g_messages << message;
}

// Whether `pid` is still a process of ours (not yet reaped: a zombie counts too).
bool exists(qint64 pid)
{
    return ::kill(pid_t(pid), 0) == 0 || errno != ESRCH;
}

QProcess *sleeper()
{
    auto *process = new QProcess;
    process->start(QStringLiteral("sleep"), {QStringLiteral("30")});
    return process;
}

} // namespace

class TestProcessReaper : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aReapedProcessIsKilledAndDeletedOnceItEnds()
    {
        int argc = 1;
        char name[] = "tst_processreaper";
        char *argv[] = {name, nullptr};
        QCoreApplication app(argc, argv);
        QPointer<QProcess> process = sleeper();
        QVERIFY(process->waitForStarted());
        const qint64 pid = process->processId();
        ProcessReaper::reap(process);
        QTRY_VERIFY_WITH_TIMEOUT(process.isNull(), Sandcastle::Testing::kWaitMs);
        QVERIFY(!exists(pid));
    }

    // The window's warm-up may leave a killed docker client whose end the event loop never
    // read: the application's end waits for it, and says nothing.
    void whatIsLeftAtTheApplicationsEndIsWaitedForQuietly()
    {
        qint64 pids[2] = {0, 0};
        g_messages.clear();
        const QtMessageHandler previous = qInstallMessageHandler(collect);
        {
            int argc = 1;
            char name[] = "tst_processreaper";
            char *argv[] = {name, nullptr};
            QCoreApplication app(argc, argv);
            for (qint64 &pid : pids) {
                QProcess *process = sleeper();
                QVERIFY(process->waitForStarted());
                pid = process->processId();
                ProcessReaper::reap(process);
            }
        } // no event loop ran: neither end was read
        qInstallMessageHandler(previous);
        QVERIFY2(g_messages.isEmpty(), qPrintable(g_messages.join(u'\n')));
        for (const qint64 pid : pids)
            QVERIFY(!exists(pid));
    }
};

QTEST_APPLESS_MAIN(TestProcessReaper)
#include "tst_processreaper.moc"
