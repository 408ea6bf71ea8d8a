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
//       happened, so a generous bound costs nothing when the test passes.
//   (b) A wait that shows that something does not happen ("nothing within X ms") keeps its X:
//       a loaded machine can only make it see less, never fail it.
//   (c) A time the test measures (a stall, a latency) is held to its figure on an idle machine
//       times how much slower the machine runs the test right now (LoadGauge), or to a
//       generous bound; the precise figure is a row of scripts/bench (tests/bench).
namespace Sandcastle::Testing {

// For what takes well under a second on an idle machine: a signal, a repaint, a local process,
// a short answer from the fake model server.
inline constexpr int kWaitMs = int(timeBudgetMs(30000));

// For what takes seconds on an idle machine: the fake engine's kernel starting (a Python
// process), megabytes streamed through the agent.
inline constexpr int kLongWaitMs = int(timeBudgetMs(60000));

// How much slower than on an idle machine this thread's work runs right now: the baseline, read
// by the test itself, of a time it measures. Made just before the measured work, on the thread
// that does it (the test's), the gauge reads the machine twice:
//   - at once: busy work of a known CPU time, timed on the wall clock (the worst of four pieces
//     of 25 ms of this thread's CPU time);
//   - from its making to factor(): the share of this thread's runnable time that it waited for a
//     processor (Linux's schedstat), which counts every other job and thread as they were while
//     the measured work ran.
// factor() is the larger of the two, never below 1: about 1 on an idle machine, 2 or more while
// another job keeps every core busy. The code's own time, running or blocked, is not in it: a
// bound of `idleMs` times the factor still fails when the code itself is slow.
class LoadGauge
{
public:
    LoadGauge()
        : m_busyWork(busyWorkSlowdown())
        , m_start(schedStat())
    {}

    double factor() const
    {
        double factor = std::max(1.0, m_busyWork);
        const SchedStat now = schedStat();
        const qint64 ran = now.runNs - m_start.runNs;
        const qint64 waited = now.waitNs - m_start.waitNs;
        if (m_start.valid && now.valid && ran >= MinRunNs && waited >= 0)
            factor = std::max(factor, double(ran + waited) / double(ran));
        return factor;
    }

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
        const double f = factor();
        return {idleMs, f, qint64(std::ceil(double(idleMs) * f))};
    }

private:
    static constexpr qint64 MinRunNs = 50 * 1000 * 1000;

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

    static double busyWorkSlowdown()
    {
        constexpr qint64 pieceNs = 25 * 1000 * 1000;
        double worst = 1;
        for (int piece = 0; piece < 4; ++piece) {
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

    double m_busyWork;
    SchedStat m_start;
};

} // namespace Sandcastle::Testing
