#pragma once

// What the window benchmarks share: a clock from the start of the run, a wait that keeps the
// event loop turning, and a 4 ms pulse whose longest gap is the longest event-loop stall.

#include "benchtiming.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

#include <algorithm>
#include <functional>

namespace BenchUi {

inline QElapsedTimer g_clock;

inline double nowMs()
{
    return double(g_clock.nsecsElapsed()) / 1e6;
}

inline bool waitFor(const std::function<bool()> &done, int timeoutMs)
{
    return Bench::waitUntil(done, timeoutMs);
}

// A 4 ms timer from its making: the longest gap between its ticks is the longest frame.
class FramePulse
{
public:
    FramePulse()
    {
        m_timer.setInterval(4);
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            const double t = nowMs();
            m_longest = std::max(m_longest, t - m_last);
            m_last = t;
        });
        m_timer.start();
    }
    double longest() const { return std::max(m_longest, nowMs() - m_last); }

private:
    QTimer m_timer;
    double m_last = nowMs();
    double m_longest = 0;
};

// The files pane's figure (bench_tree.cpp).
void fileTree();

} // namespace BenchUi
