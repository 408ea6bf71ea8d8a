// libFuzzer target for the kernel protocol (the host reads the kernel's stdout, which the code
// in the container can write to). Any bytes, fed whole, a byte at a time or in seeded reads,
// give the same events, with well-formed text; input without output frames gives one event per
// complete non-blank line, each what parseLine makes of it, and a partial line is reported
// while one is held. The input as raw output goes through binary frames, cut into frames at
// any points and read in any pieces, and comes back as exactly its UTF-8 decoding; as a text
// it comes back whole from a JSON output line, and a run or shell request carrying it is
// exactly one JSON line.
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
    KernelProtocol whole;
    const QList<KernelEvent> expected = whole.feed(bytes);
    for (const KernelEvent &event : expected)
        require(wellFormed(event));
    if (!bytes.contains("#out ")) {
        // Lines only: the reference is the lines themselves.
        QList<QByteArray> lines = bytes.split('\n');
        const QByteArray partial = lines.takeLast();
        QList<KernelEvent> fromLines;
        for (const QByteArray &line : lines) {
            if (!line.trimmed().isEmpty())
                fromLines << KernelProtocol::parseLine(line.trimmed());
        }
        require(same(expected, fromLines));
        require(whole.hasPartialLine() == !partial.isEmpty());
    }
    for (const QList<QByteArray> &reads : cuttings(bytes)) {
        KernelProtocol protocol;
        require(same(feedAll(protocol, reads), expected));
        require(protocol.hasPartialLine() == whole.hasPartialLine());
    }
}

void carriesAnyBytesInFrames(const QByteArray &bytes)
{
    // Cut into frames where the seeded reads would cut it, then the stream read in pieces.
    QByteArray stream;
    for (const QByteArray &piece : cut(bytes, quint32(bytes.size()) * 7919u, 9))
        stream += KernelProtocol::encodeOutput(5, OutputStream::Stdout, piece);
    stream += "{\"ev\":\"done\",\"id\":5,\"status\":\"ok\"}\n";
    for (const QList<QByteArray> &reads : cuttings(stream)) {
        KernelProtocol protocol;
        const QList<KernelEvent> events = feedAll(protocol, reads);
        QString text;
        for (qsizetype i = 0; i + 1 < events.size(); ++i) {
            require(events.at(i).type == KernelEvent::Type::Output && events.at(i).id == 5);
            require(wellFormed(events.at(i)));
            text += events.at(i).text;
        }
        require(!events.isEmpty() && events.last().type == KernelEvent::Type::Done);
        require(text == QString::fromUtf8(bytes));
        require(!protocol.hasPartialLine());
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
    carriesAnyBytesInFrames(bytes);
    carriesAnyText(QString::fromUtf8(bytes), qint64(size));
    return 0;
}
