#include "kernelprotocol.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace Sandcastle {

namespace {

// A JSON escape can name half of a surrogate pair ("\ud800"); such a half becomes U+FFFD, so
// that what reaches the console, the store and the model is well-formed text.
QString wellFormed(QString text)
{
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text.at(i).isHighSurrogate() && i + 1 < text.size() && text.at(i + 1).isLowSurrogate())
            ++i;
        else if (text.at(i).isSurrogate())
            text[i] = QChar::ReplacementCharacter;
    }
    return text;
}

QString stringField(const QJsonObject &obj, const QString &key)
{
    return wellFormed(obj.value(key).toString());
}

} // namespace

namespace {

QByteArray encodeRequest(QJsonObject request, KernelProtocol::CopyMode copy)
{
    if (copy.reportFiles)
        request.insert(QStringLiteral("files"), true);
    if (copy.quotaBytes > 0)
        request.insert(QStringLiteral("quota"), copy.quotaBytes);
    return QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n';
}

} // namespace

QByteArray KernelProtocol::encodeRun(qint64 id, const QString &code, CopyMode copy)
{
    return encodeRequest({{QStringLiteral("op"), QStringLiteral("run")},
                          {QStringLiteral("id"), id},
                          {QStringLiteral("code"), code}},
                         copy);
}

QByteArray KernelProtocol::encodeShell(qint64 id, const QString &command, CopyMode copy)
{
    return encodeRequest({{QStringLiteral("op"), QStringLiteral("shell")},
                          {QStringLiteral("id"), id},
                          {QStringLiteral("command"), command}},
                         copy);
}

QByteArray KernelProtocol::encodeInterrupt()
{
    return QByteArrayLiteral("{\"op\":\"interrupt\"}\n");
}

QByteArray KernelProtocol::encodeOutput(qint64 id, OutputStream stream, const QByteArray &bytes)
{
    return "#out " + QByteArray::number(id)
           + (stream == OutputStream::Stderr ? " stderr " : " stdout ")
           + QByteArray::number(bytes.size()) + '\n' + bytes;
}

namespace {

// The length of the longest prefix of `bytes` that does not end inside a UTF-8 character
// that more bytes could complete.
qsizetype completePrefix(const QByteArray &bytes)
{
    const qsizetype size = bytes.size();
    for (qsizetype i = size - 1; i >= 0 && i >= size - 4; --i) {
        const auto b = uchar(bytes.at(i));
        if ((b & 0xc0) == 0x80)
            continue; // a continuation byte: look for its lead
        const qsizetype need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
        return size - i < need && b < 0xf8 ? i : size;
    }
    return size;
}

} // namespace

QString KernelProtocol::decode(OutputStream stream, const QByteArray &bytes)
{
    QByteArray &tail = m_tails[stream == OutputStream::Stderr ? 1 : 0];
    if (tail.isEmpty()) {
        const qsizetype complete = completePrefix(bytes);
        // A deep copy: `bytes` may point into the read buffer, which moves on.
        tail = QByteArray(bytes.constData() + complete, bytes.size() - complete);
        return QString::fromUtf8(bytes.constData(), complete);
    }
    const QByteArray joined = tail + bytes;
    const qsizetype complete = completePrefix(joined);
    tail = joined.mid(complete);
    return QString::fromUtf8(joined.constData(), complete);
}

void KernelProtocol::flushStreams(qint64 id, QList<KernelEvent> &events)
{
    for (int i = 0; i < 2; ++i) {
        if (m_tails[i].isEmpty())
            continue;
        KernelEvent event;
        event.type = KernelEvent::Type::Output;
        event.id = id;
        event.stream = i == 1 ? OutputStream::Stderr : OutputStream::Stdout;
        event.text = QString::fromUtf8(m_tails[i]);
        m_tails[i].clear();
        events << event;
    }
}

QList<KernelEvent> KernelProtocol::feed(const QByteArray &bytes)
{
    QList<KernelEvent> events;
    m_pending += bytes;
    qsizetype start = m_offset;
    for (;;) {
        const qsizetype end = m_pending.indexOf('\n', start);
        if (end < 0)
            break;
        const QByteArrayView header(m_pending.constData() + start, end - start);
        if (header.startsWith("#out ")) {
            // "#out ID STREAM LENGTH", then LENGTH bytes.
            const QList<QByteArray> parts = header.toByteArray().split(' ');
            bool idOk = false;
            bool lengthOk = false;
            const qint64 id = parts.value(1).toLongLong(&idOk);
            const qint64 length = parts.value(3).toLongLong(&lengthOk);
            const QByteArray streamName = parts.value(2);
            if (parts.size() != 4 || !idOk || !lengthOk || length < 0 || length > kMaxFrameBytes
                || (streamName != "stdout" && streamName != "stderr")) {
                KernelEvent bad;
                bad.text = QStringLiteral("kernel sent a bad output frame header: ")
                           + QString::fromUtf8(header.toByteArray().left(200));
                events << bad;
                start = end + 1;
                continue;
            }
            if (m_pending.size() - (end + 1) < length)
                break; // the rest of the frame comes with a later read
            KernelEvent event;
            event.type = KernelEvent::Type::Output;
            event.id = id;
            event.stream = streamName == "stderr" ? OutputStream::Stderr : OutputStream::Stdout;
            event.text = decode(
                event.stream,
                QByteArray::fromRawData(m_pending.constData() + end + 1, qsizetype(length)));
            start = end + 1 + qsizetype(length);
            if (!event.text.isEmpty())
                events << event;
            continue;
        }
        const QByteArray line = header.toByteArray().trimmed();
        start = end + 1;
        if (line.isEmpty())
            continue;
        KernelEvent event = parseLine(line);
        if (event.type == KernelEvent::Type::Done)
            flushStreams(event.id, events);
        events << event;
    }
    // Drop what is consumed, but not on every read of a big frame: only once it is most of
    // the buffer, so that a frame arriving in many reads is not moved each time.
    if (start >= m_pending.size()) {
        m_pending.clear();
        m_offset = 0;
    } else if (start > m_pending.size() / 2) {
        m_pending.remove(0, start);
        m_offset = 0;
    } else {
        m_offset = start;
    }
    return events;
}

namespace {

// A Files event; entries that are not [path, type, size, mtime] with a one-letter type are
// dropped (the host checks every path again before it writes anything).
void readFileReport(const QJsonObject &obj, KernelEvent &event)
{
    event.type = KernelEvent::Type::Files;
    event.overflow = obj.value(QStringLiteral("overflow")).toBool();
    const QJsonArray changed = obj.value(QStringLiteral("changed")).toArray();
    event.changed.reserve(changed.size());
    for (const auto &value : changed) {
        const QJsonArray entry = value.toArray();
        const QString type = entry.at(1).toString();
        if (entry.size() != 4 || !entry.at(0).isString() || type.size() != 1
            || !QStringLiteral("fdlo").contains(type))
            continue;
        event.changed.append({wellFormed(entry.at(0).toString()),
                              char(type.at(0).toLatin1()),
                              entry.at(2).toInteger(),
                              entry.at(3).toInteger()});
    }
    for (const auto &value : obj.value(QStringLiteral("removed")).toArray()) {
        if (value.isString())
            event.removed << wellFormed(value.toString());
    }
}

} // namespace

KernelEvent KernelProtocol::parseLine(const QByteArray &line)
{
    KernelEvent event;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(line, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        event.text = QStringLiteral("kernel sent a line that is not a JSON object: ")
                     + QString::fromUtf8(line.left(200));
        return event;
    }
    const QJsonObject obj = doc.object();
    const QString ev = stringField(obj, QStringLiteral("ev"));
    event.id = obj.value(QStringLiteral("id")).toInteger();
    if (ev == QLatin1String("ready")) {
        event.type = KernelEvent::Type::Ready;
    } else if (ev == QLatin1String("out")) {
        event.type = KernelEvent::Type::Output;
        event.stream = obj.value(QStringLiteral("stream")).toString() == QLatin1String("stderr")
                           ? OutputStream::Stderr
                           : OutputStream::Stdout;
        event.text = stringField(obj, QStringLiteral("text"));
    } else if (ev == QLatin1String("done")) {
        event.type = KernelEvent::Type::Done;
        event.status = stringField(obj, QStringLiteral("status"));
        event.error = stringField(obj, QStringLiteral("error"));
        event.exitCode = obj.value(QStringLiteral("exit_code"))
                             .toInt(event.status == QLatin1String("ok") ? 0 : 1);
    } else if (ev == QLatin1String("files")) {
        readFileReport(obj, event);
    } else if (ev == QLatin1String("quota")) {
        event.type = KernelEvent::Type::Quota;
        event.bytes = obj.value(QStringLiteral("bytes")).toInteger();
    } else if (ev == QLatin1String("preimported")) {
        event.type = KernelEvent::Type::Preimported;
        for (const QJsonValue name : obj.value(QStringLiteral("ok")).toArray())
            event.imported << name.toString();
        for (const QJsonValue name : obj.value(QStringLiteral("failed")).toArray())
            event.failed << name.toString();
        event.ms = obj.value(QStringLiteral("ms")).toInteger();
    } else if (ev == QLatin1String("protocol_error")) {
        event.type = KernelEvent::Type::ProtocolError;
        event.text = stringField(obj, QStringLiteral("message"));
    } else {
        event.text = QStringLiteral("kernel sent an unknown event: ") + ev;
    }
    return event;
}

} // namespace Sandcastle
