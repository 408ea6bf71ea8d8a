#pragma once

#include <QCoreApplication>
#include <QEvent>
#include <QPointer>
#include <QTimer>

#include <cstdio>
#include <functional>
#include <utility>
#include <vector>

namespace Sandcastle {

// Runs `work` (in `context`'s thread, not after `context` is gone) once the application has
// painted its first frame: at the event loop's next turn after the first paint event, so after
// the whole synchronous paint pass. Works run in the order they were asked for (the first-paint
// report, asked for before the window is made, before the window's own start-up work). With
// fallbackMs >= 0 it runs after that long if nothing was painted by then (a window that is never
// shown). Start-up work the first frame does not need (warming the sandbox, reaping old
// containers) waits for it, so that it does not compete with the window for the CPU.
class FirstPaintHook : public QObject
{
public:
    static void after(QObject *context, std::function<void()> work, int fallbackMs = 1000)
    {
        auto *hook = new FirstPaintHook(context, std::move(work));
        waiting().push_back(hook);
        QCoreApplication::instance()->installEventFilter(hook);
        if (fallbackMs >= 0)
            QTimer::singleShot(fallbackMs, hook, [hook] { hook->fire(); });
    }

protected:
    bool eventFilter(QObject *, QEvent *event) override
    {
        // Every hook sees the paint (the last installed first); the first of their calls runs
        // all that wait, oldest first.
        if (event->type() == QEvent::Paint)
            QTimer::singleShot(0, this, [] { fireWaiting(); });
        return false;
    }

private:
    FirstPaintHook(QObject *context, std::function<void()> work)
        : QObject(context)
        , m_work(std::move(work))
    {}
    static std::vector<QPointer<FirstPaintHook>> &waiting()
    {
        static std::vector<QPointer<FirstPaintHook>> hooks;
        return hooks;
    }
    static void fireWaiting()
    {
        const std::vector<QPointer<FirstPaintHook>> hooks = std::exchange(waiting(), {});
        for (const QPointer<FirstPaintHook> &hook : hooks) {
            if (hook)
                hook->fire();
        }
    }
    void fire()
    {
        if (m_fired)
            return;
        m_fired = true;
        QCoreApplication::instance()->removeEventFilter(this);
        m_work();
        deleteLater();
    }

    std::function<void()> m_work;
    bool m_fired = false;
};

// With SANDCASTLE_REPORT_FIRST_PAINT set, prints "first-paint" on stdout once the first frame
// of the window has been painted: scripts/bench times start-up with it, against a bare
// QMainWindow + QsciScintilla program that does the same. Does nothing otherwise.
inline void reportFirstPaintIfAsked()
{
    if (!qEnvironmentVariableIsSet("SANDCASTLE_REPORT_FIRST_PAINT"))
        return;
    FirstPaintHook::after(
        QCoreApplication::instance(),
        [] {
            std::puts("first-paint");
            std::fflush(stdout);
        },
        -1);
}

} // namespace Sandcastle
