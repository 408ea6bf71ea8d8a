#include "eventpump.h"

namespace Sandcastle {

EventPump::EventPump(Handler handle, QObject *parent)
    : QObject(parent)
    , m_handle(std::move(handle))
{
    m_resume.setSingleShot(true);
    m_resume.setInterval(0);
    connect(&m_resume, &QTimer::timeout, this, &EventPump::drain);
}

void EventPump::push(const QList<SseParser::Event> &events)
{
    if (events.isEmpty())
        return;
    if (isEmpty()) {
        m_events = events;
        m_next = 0;
    } else {
        m_events += events;
    }
    if (!m_resume.isActive())
        drain();
}

void EventPump::whenDrained(std::function<void()> then)
{
    if (isEmpty()) {
        then();
        return;
    }
    m_then = std::move(then);
}

void EventPump::clear()
{
    m_resume.stop();
    m_events.clear();
    m_next = 0;
    m_then = nullptr;
}

void EventPump::drain()
{
    QElapsedTimer slice;
    slice.start();
    while (!isEmpty()) {
        // A copy: the handler may clear() the pump under it.
        const SseParser::Event event = m_events.at(m_next++);
        if (!m_handle(event)) {
            clear();
            return;
        }
        if (!isEmpty() && slice.elapsed() >= SliceMs) {
            m_resume.start();
            return;
        }
    }
    m_events.clear();
    m_next = 0;
    if (std::function<void()> then = std::exchange(m_then, nullptr))
        then();
}

} // namespace Sandcastle
