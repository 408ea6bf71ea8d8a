#pragma once

// Timing helpers shared by the benchmarks that drive Qt objects (sessions, processes).

#include <QCoreApplication>
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

// Keeps the event loop turning until done() or the time is up (done() is checked after every
// pass over the events, so a figure of a few milliseconds is not rounded up to a sleep).
inline bool waitUntil(const std::function<bool()> &done, int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    return true;
}

} // namespace Bench
