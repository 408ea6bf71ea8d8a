#include "kernelprotocol.h"

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

QByteArray KernelProtocol::encodeRun(qint64 id, const QString &code)
{
    const QJsonObject request{{QStringLiteral("op"), QStringLiteral("run")},
                              {QStringLiteral("id"), id},
                              {QStringLiteral("code"), code}};
    return QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n';
}

QByteArray KernelProtocol::encodeShell(qint64 id, const QString &command)
{
    const QJsonObject request{{QStringLiteral("op"), QStringLiteral("shell")},
                              {QStringLiteral("id"), id},
                              {QStringLiteral("command"), command}};
    return QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n';
}

QByteArray KernelProtocol::encodeInterrupt()
{
    return QByteArrayLiteral("{\"op\":\"interrupt\"}\n");
}

QList<KernelEvent> KernelProtocol::feed(const QByteArray &bytes)
{
    QList<KernelEvent> events;
    m_pending += bytes;
    qsizetype start = 0;
    for (;;) {
        const qsizetype end = m_pending.indexOf('\n', start);
        if (end < 0)
            break;
        const QByteArray line = m_pending.mid(start, end - start).trimmed();
        start = end + 1;
        if (!line.isEmpty())
            events << parseLine(line);
    }
    m_pending.remove(0, start);
    return events;
}

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
    } else if (ev == QLatin1String("protocol_error")) {
        event.type = KernelEvent::Type::ProtocolError;
        event.text = stringField(obj, QStringLiteral("message"));
    } else {
        event.text = QStringLiteral("kernel sent an unknown event: ") + ev;
    }
    return event;
}

} // namespace Sandcastle
