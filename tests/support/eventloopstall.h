#pragma once

#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

#include <functional>

namespace Sandcastle::Testing {

// Runs the event loop until `done` holds or `timeoutMs` pass, calling `during` from a 5 ms timer
// on the way; returns the longest the loop went without running that timer: how long the
// window, had it been this loop, would have ignored the person.
inline qint64 longestStallUntil(const std::function<bool()> &done,
                                int timeoutMs,
                                const std::function<void()> &during = {})
{
    QElapsedTimer clock;
    clock.start();
    qint64 last = 0;
    qint64 longest = 0;
    QEventLoop loop;
    QTimer tick;
    tick.setInterval(5);
    QObject::connect(&tick, &QTimer::timeout, &loop, [&] {
        const qint64 now = clock.elapsed();
        longest = qMax(longest, now - last);
        last = now;
        if (during)
            during();
        if ((done && done()) || now >= timeoutMs)
            loop.quit();
    });
    tick.start();
    loop.exec();
    return qMax(longest, clock.elapsed() - last);
}

} // namespace Sandcastle::Testing
