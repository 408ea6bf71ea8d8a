#pragma once

#include <base/sseparser.h>

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QTimer>

#include <functional>

namespace Sandcastle {

// Hands a stream's events to their handler a slice of time at a time. A reply read after the
// UI thread was busy can hold thousands of events (a megabyte answer sent at once); handling
// them in one go kept the window from answering for 50-200 ms. The pump handles what fits in
// SliceMs, then lets the event loop run (input, painting) and goes on at its next turn. Events
// keep their order; what comes while some wait goes behind them.
class EventPump : public QObject
{
    Q_OBJECT
public:
    static constexpr int SliceMs = 5;

    // `handle` returns false when the stream ended (an error, a cancel): the rest is dropped.
    using Handler = std::function<bool(const SseParser::Event &)>;
    explicit EventPump(Handler handle, QObject *parent = nullptr);

    // Queues the events and handles what a slice allows now.
    void push(const QList<SseParser::Event> &events);
    // Runs `then` once every queued event is handled (at once when none waits).
    void whenDrained(std::function<void()> then);
    bool isEmpty() const { return m_next >= m_events.size(); }
    // Drops what waits, and what whenDrained() asked for.
    void clear();

private:
    void drain();

    Handler m_handle;
    QList<SseParser::Event> m_events;
    qsizetype m_next = 0;
    std::function<void()> m_then;
    QTimer m_resume;
};

} // namespace Sandcastle
