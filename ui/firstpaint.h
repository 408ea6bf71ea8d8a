#pragma once

#include <QCoreApplication>
#include <QEvent>
#include <QTimer>

#include <cstdio>

namespace Sandcastle {

// With SANDCASTLE_REPORT_FIRST_PAINT set, prints "first-paint" on stdout once the first frame
// of the window has been painted (after the whole synchronous paint pass): scripts/bench
// times start-up with it, against a bare QMainWindow + QsciScintilla program that does the
// same. Does nothing otherwise.
class FirstPaintReporter : public QObject
{
public:
    static void installIfAsked()
    {
        if (qEnvironmentVariableIsSet("SANDCASTLE_REPORT_FIRST_PAINT"))
            QCoreApplication::instance()->installEventFilter(new FirstPaintReporter);
    }

protected:
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == QEvent::Paint) {
            QCoreApplication::instance()->removeEventFilter(this);
            QTimer::singleShot(0, this, [this] {
                std::puts("first-paint");
                std::fflush(stdout);
                deleteLater();
            });
        }
        return false;
    }
};

} // namespace Sandcastle
