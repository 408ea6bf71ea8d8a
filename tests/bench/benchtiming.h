#pragma once

// Timing helpers shared by the benchmarks that drive Qt objects (sessions, processes).

#include <QElapsedTimer>
#include <QEventLoop>
#include <QObject>
#include <QTimer>

#include <functional>

namespace Bench {

// Wall time of fn() in milliseconds.
inline double timeMs(const std::function<void()> &fn)
{
    QElapsedTimer clock;
    clock.start();
    fn();
    return double(clock.nsecsElapsed()) / 1e6;
}

// Runs the event loop until `sender` emits `signal` (SIGNAL() syntax) or the time is up.
inline bool waitFor(QObject *sender, const char *signal, int timeoutMs)
{
    QEventLoop loop;
    QObject::connect(sender, signal, &loop, SLOT(quit()));
    QTimer::singleShot(timeoutMs, &loop, [&loop] { loop.exit(1); });
    return loop.exec() == 0;
}

} // namespace Bench
