#include "sseparser.h"

namespace Sandcastle {

QList<SseParser::Event> SseParser::feed(const QByteArray &bytes)
{
    QList<Event> out;
    qsizetype i = 0;
    if (m_pendingCr && !bytes.isEmpty() && bytes.at(0) == '\n')
        i = 1; // the second half of a CRLF split across reads
    m_pendingCr = false;
    qsizetype lineStart = i;
    for (; i < bytes.size(); ++i) {
        const char c = bytes.at(i);
        if (c != '\n' && c != '\r')
            continue;
        m_buffer.append(bytes.constData() + lineStart, i - lineStart);
        processLine(m_buffer, out);
        m_buffer.clear();
        if (c == '\r') {
            if (i + 1 < bytes.size()) {
                if (bytes.at(i + 1) == '\n')
                    ++i;
            } else {
                m_pendingCr = true;
            }
        }
        lineStart = i + 1;
    }
    if (lineStart < bytes.size())
        m_buffer.append(bytes.constData() + lineStart, bytes.size() - lineStart);
    return out;
}

QList<SseParser::Event> SseParser::finish()
{
    QList<Event> out;
    if (!m_buffer.isEmpty()) {
        processLine(m_buffer, out);
        m_buffer.clear();
    }
    dispatch(out);
    return out;
}

void SseParser::processLine(const QByteArray &line, QList<Event> &out)
{
    if (line.isEmpty()) {
        dispatch(out);
        return;
    }
    if (line.startsWith(':'))
        return; // comment / keep-alive
    const qsizetype colon = line.indexOf(':');
    QByteArray field = colon < 0 ? line : line.left(colon);
    QByteArray value = colon < 0 ? QByteArray() : line.mid(colon + 1);
    if (value.startsWith(' '))
        value.remove(0, 1);
    if (field == "data") {
        if (m_hasData)
            m_data += '\n';
        m_data += value;
        m_hasData = true;
    } else if (field == "event") {
        m_event = value;
    } else if (field == "id") {
        m_id = value;
    }
    // "retry" and unknown fields are ignored, as the spec says.
}

void SseParser::dispatch(QList<Event> &out)
{
    if (m_hasData) {
        out.append({m_event.isEmpty() ? QByteArrayLiteral("message") : m_event, m_data, m_id});
    }
    m_event.clear();
    m_data.clear();
    m_hasData = false;
}

} // namespace Sandcastle
