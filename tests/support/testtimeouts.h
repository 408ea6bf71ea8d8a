#pragma once

#include <support/sanitizers.h>

#include <QByteArray>
#include <QElapsedTimer>
#include <QFile>
#include <QList>
#include <QString>

#include <algorithm>
#include <cmath>
#include <ctime>

// How long a test waits, and what it holds a time it measures to. The suite passes while another
// job keeps every core of the machine busy: a wall-clock bound inside a test is a benchmark in
// disguise, it measures the machine, not the code.
//   (a) A wait for something that will happen bounds only how long a failing test hangs: it is
//       generous (kWaitMs, kLongWaitMs). QTRY_* and QSignalSpy::wait return as soon as it
//       happened, so a generous bound costs nothing when the test passes. A failing QTRY_* waits
//       three times its timeout (Qt then checks whether a longer one would have helped), so
//       QTRY_* takes kWaitMs, which keeps that within a suite's ctest TIMEOUT (120 s at least).
//   (b) A wait that shows that something does not happen ("nothing within X ms") keeps its X:
//       a loaded machine can only make it see less, never fail it.
//   (c) A time the test measures (a stall, a latency) is held to its figure on an idle machine
//       times how much slower the machine runs the test right now (LoadGauge), or to a
//       generous bound; the precise figure is a row of scripts/bench (tests/bench).
namespace Sandcastle::Testing {

// For what takes well under a second on an idle machine: a signal, a repaint, a local process,
// a short answer from the fake model server. Not scaled for the sanitizers: it is still six
// times what takes five times as long there, and a failing QTRY_* would outlast the asan
// preset's ctest TIMEOUT.
inline constexpr int kWaitMs = 30000;

// For what takes seconds on an idle machine: the fake engine's kernel starting (a Python
// process), megabytes streamed through the agent (our code: scaled for the sanitizers). Not for
// QTRY_* (see above): for QSignalSpy::wait, QTest::qWaitFor, QProcess and loops of a test's own.
inline constexpr int kLongWaitMs = int(timeBudgetMs(60000));

// How much slower than on an idle machine the test's thread runs right now: the baseline, read
// by the test itself, of a time it measures. Made just before the measured work, on the thread
// that does it, the gauge reads
//   - before the work, and again at the first budget() after it, busy work of a known CPU time
//     (eight pieces of 25 ms of the thread's CPU time, the worst counting) timed on the wall
//     clock: the machine as other jobs leave it to the test while the test's work is not
//     running;
//   - over the work, unless made with Reads::BeforeAndAfter, the share of the thread's runnable
//     time that it waited for a processor (Linux's schedstat). That follows a load that comes
//     and goes, and it counts the test's own other threads (a fake server's) whenever they and
//     the other jobs together outnumber the cores, as the stall then does too (busy work alone
//     reads too little there); on an idle machine it is 1 unless the test's own threads alone
//     outnumber the cores. A test whose work is itself a load on the machine (a sandbox
//     burning CPU, a flood of output through the engine), and which asserts how the host fares
//     under it, reads only before and after: that load is what the bound is about.
// The factor is the largest of these, never below 1: about 1 on an idle machine, 2 or more while
// another job keeps every core busy. The code's own time, running or blocked, is not in it: a
// bound of `idleMs` times the factor still fails when the code itself is slow.
class LoadGauge
{
public:
    enum class Reads { BeforeDuringAndAfter, BeforeAndAfter };

    explicit LoadGauge(Reads reads = Reads::BeforeDuringAndAfter)
        : m_reads(reads)
        , m_before(busyWorkSlowdown())
        , m_start(schedStat())
    {}

    // A bound of `idleMs` on an idle machine, on this machine now.
    struct Budget
    {
        qint64 idleMs;
        double factor;
        qint64 ms;
        // "N ms (M ms times the load factor F)", for a failure's message.
        QString describe() const
        {
            return QStringLiteral("%1 ms (%2 ms times the load factor %3)")
                .arg(ms)
                .arg(idleMs)
                .arg(factor, 0, 'f', 2);
        }
    };
    Budget budget(qint64 idleMs) const
    {
        double factor = 1;
        if (m_reads == Reads::BeforeDuringAndAfter) {
            const SchedStat now = schedStat();
            const qint64 ran = now.runNs - m_start.runNs;
            const qint64 waited = now.waitNs - m_start.waitNs;
            if (m_start.valid && now.valid && ran >= MinRunNs && waited >= 0)
                factor = double(ran + waited) / double(ran);
        }
        if (m_after < 0)
            m_after = busyWorkSlowdown();
        factor = std::max({factor, m_before, m_after});
        return {idleMs, factor, qint64(std::ceil(double(idleMs) * factor))};
    }

private:
    static constexpr qint64 MinRunNs = 50 * 1000 * 1000; // less says little

    struct SchedStat
    {
        bool valid = false;
        qint64 runNs = 0;  // on a processor
        qint64 waitNs = 0; // runnable, waiting for one
    };

    static qint64 threadCpuNs()
    {
        timespec t{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return qint64(t.tv_sec) * 1000000000 + t.tv_nsec;
    }

    // The worst ratio of wall-clock to CPU time over eight pieces of busy work: a load that comes
    // and goes is likelier caught than by one longer piece.
    static double busyWorkSlowdown()
    {
        constexpr qint64 pieceNs = 25 * 1000 * 1000;
        double worst = 1;
        for (int piece = 0; piece < 8; ++piece) {
            QElapsedTimer wall;
            wall.start();
            const qint64 cpuStart = threadCpuNs();
            qint64 cpu = 0;
            while ((cpu = threadCpuNs() - cpuStart) < pieceNs) {
            }
            worst = std::max(worst, double(wall.nsecsElapsed()) / double(cpu));
        }
        return worst;
    }

    // This thread's time on a processor and waiting for one, from /proc (invalid elsewhere).
    static SchedStat schedStat()
    {
        QFile file(QStringLiteral("/proc/thread-self/schedstat"));
        if (!file.open(QIODevice::ReadOnly))
            return {};
        const QList<QByteArray> fields = file.readAll().simplified().split(' ');
        if (fields.size() < 2)
            return {};
        bool runOk = false;
        bool waitOk = false;
        SchedStat stat;
        stat.runNs = fields.at(0).toLongLong(&runOk);
        stat.waitNs = fields.at(1).toLongLong(&waitOk);
        stat.valid = runOk && waitOk;
        return stat;
    }

    Reads m_reads;
    double m_before;
    mutable double m_after = -1; // read at the first budget()
    SchedStat m_start;
};

} // namespace Sandcastle::Testing
