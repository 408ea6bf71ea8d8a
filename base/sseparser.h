#pragma once

#include <QByteArray>
#include <QList>

namespace Sandcastle {

// Incremental parser for text/event-stream (Server-Sent Events). Bytes may arrive split
// anywhere, even inside a CRLF; events come out once their blank line has arrived.
class SseParser
{
public:
    struct Event
    {
        QByteArray event; // "message" unless the stream named it
        QByteArray data;  // data lines joined with '\n'
        QByteArray id;
    };

    QList<Event> feed(const QByteArray &bytes);
    // Call at end of stream: returns an event left without its blank line, if any.
    QList<Event> finish();

private:
    void processLine(const QByteArray &line, QList<Event> &out);
    void dispatch(QList<Event> &out);

    QByteArray m_buffer;
    QByteArray m_event;
    QByteArray m_data;
    QByteArray m_id;
    bool m_hasData = false;
    bool m_pendingCr = false; // a '\r' ended the last chunk; a '\n' may follow
};

} // namespace Sandcastle
