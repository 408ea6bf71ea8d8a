#pragma once

#include <QElapsedTimer>

namespace Sandcastle {

// How much of a turn of the event loop the transcript may spend rendering text: a frame's worth.
// A turn opens at the first piece asked for after the last one closed; whoever opens it must
// close it on the next turn (TranscriptDelegate posts itself a timer) and carry on there with
// what was left. The first piece of a turn is always allowed, so work always goes on.
class RenderBudget
{
public:
    explicit RenderBudget(qint64 msPerTurn = 8)
        : m_ms(msPerTurn)
    {}

    // Whether another piece may be rendered in this turn; opens one when none is.
    bool allows()
    {
        if (!m_clock.isValid())
            m_clock.start();
        return m_clock.elapsed() < m_ms;
    }
    void close() { m_clock.invalidate(); }

private:
    qint64 m_ms;
    QElapsedTimer m_clock;
};

} // namespace Sandcastle
