// libFuzzer target for the kernel protocol (the host reads the kernel's stdout, which the code
// in the container can write to). Any bytes, fed whole, a byte at a time or in seeded reads,
// give the same events: one per complete non-blank line, each what parseLine makes of it, with
// well-formed text; a partial line is reported while one is held. The input as a text also
// goes both ways through the framing: an output event carrying it comes back whole from any
// cutting, and a run or shell request carrying it is exactly one JSON line.
#include "fuzzing.h"

#include <sandbox/kernelprotocol.h>

#include <QJsonDocument>
#include <QJsonObject>

using namespace Sandcastle;
using namespace Sandcastle::Fuzzing;

namespace {

bool same(const KernelEvent &a, const KernelEvent &b)
{
    return a.type == b.type && a.id == b.id && a.stream == b.stream && a.text == b.text
           && a.status == b.status && a.error == b.error && a.exitCode == b.exitCode;
}

bool same(const QList<KernelEvent> &a, const QList<KernelEvent> &b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (!same(a.at(i), b.at(i)))
            return false;
    }
    return true;
}

bool wellFormed(const KernelEvent &event)
{
    return event.text.isValidUtf16() && event.status.isValidUtf16() && event.error.isValidUtf16()
           && (event.type != KernelEvent::Type::Invalid || !event.text.isEmpty());
}

QList<KernelEvent> feedAll(KernelProtocol &protocol, const QList<QByteArray> &reads)
{
    QList<KernelEvent> events;
    for (const QByteArray &read : reads)
        events += protocol.feed(read);
    return events;
}

void framesAnyBytes(const QByteArray &bytes)
{
    QList<QByteArray> lines = bytes.split('\n');
    const QByteArray partial = lines.takeLast();
    QList<KernelEvent> expected;
    for (const QByteArray &line : lines) {
        if (!line.trimmed().isEmpty())
            expected << KernelProtocol::parseLine(line.trimmed());
    }
    for (const KernelEvent &event : expected)
        require(wellFormed(event));
    for (const QList<QByteArray> &reads : cuttings(bytes)) {
        KernelProtocol protocol;
        require(same(feedAll(protocol, reads), expected));
        require(protocol.hasPartialLine() == !partial.isEmpty());
    }
}

void carriesAnyText(const QString &text, qint64 id)
{
    const QJsonObject out{{QStringLiteral("ev"), QStringLiteral("out")},
                          {QStringLiteral("id"), id},
                          {QStringLiteral("stream"), QStringLiteral("stderr")},
                          {QStringLiteral("text"), text}};
    const QByteArray line = QJsonDocument(out).toJson(QJsonDocument::Compact) + '\n';
    KernelProtocol protocol;
    const QList<KernelEvent> events = feedAll(protocol, cut(line, quint32(id)));
    require(events.size() == 1 && !protocol.hasPartialLine());
    require(events.first().type == KernelEvent::Type::Output && events.first().id == id
            && events.first().stream == OutputStream::Stderr && events.first().text == text);

    for (const bool shell : {false, true}) {
        const QByteArray request
            = shell ? KernelProtocol::encodeShell(id, text) : KernelProtocol::encodeRun(id, text);
        require(request.endsWith('\n') && request.count('\n') == 1);
        const QJsonObject decoded = QJsonDocument::fromJson(request).object();
        require(decoded.value(QStringLiteral("op")).toString()
                == (shell ? QLatin1String("shell") : QLatin1String("run")));
        require(decoded.value(QStringLiteral("id")).toInteger() == id);
        require(decoded.value(shell ? QStringLiteral("command") : QStringLiteral("code")).toString()
                == text);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes = bytesOf(data, size);
    framesAnyBytes(bytes);
    carriesAnyText(QString::fromUtf8(bytes), qint64(size));
    return 0;
}
