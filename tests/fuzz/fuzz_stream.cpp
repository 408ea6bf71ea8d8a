// libFuzzer target for the model stream path: SSE parsing at arbitrary read boundaries, chunk
// accumulation on the fast reader and on the JSON DOM (which must agree, byte for byte), and
// the partial-JSON decoder the editor uses. Any crash, sanitizer report or disagreement
// (a trap) is a finding.
#include <app/llm/partialjson.h>
#include <app/llm/sseparser.h>
#include <app/llm/streamaccumulator.h>
#include <tests/support/streamdescribe.h>

#include <QString>

#include <cstddef>
#include <cstdint>

using namespace Sandcastle;
using Sandcastle::Testing::describe;

namespace {

void check(bool ok)
{
    if (!ok)
        __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));

    // 1. The whole input as one chunk: fast reader and DOM agree.
    {
        StreamAccumulator fast;
        StreamAccumulator dom;
        dom.setFastPath(false);
        const SseParser::Event event{QByteArrayLiteral("message"), bytes, {}};
        check(describe(fast.add(event)) == describe(dom.add(event)));
        check(describe(fast.completion()) == describe(dom.completion()));
    }

    // 2. The input as an SSE stream, cut into reads whose sizes come from the input itself.
    {
        SseParser parser;
        StreamAccumulator fast;
        StreamAccumulator dom;
        dom.setFastPath(false);
        qsizetype at = 0;
        qsizetype step = 1;
        while (at < bytes.size()) {
            step = 1 + (static_cast<unsigned char>(bytes.at(at)) % 64);
            const QList<SseParser::Event> events = parser.feed(bytes.mid(at, step));
            for (const SseParser::Event &event : events)
                check(describe(fast.add(event)) == describe(dom.add(event)));
            at += step;
        }
        for (const SseParser::Event &event : parser.finish())
            check(describe(fast.add(event)) == describe(dom.add(event)));
        check(describe(fast.completion()) == describe(dom.completion()));
    }

    // 3. The partial-JSON decoder on every prefix length class.
    const QString text = QString::fromUtf8(bytes);
    (void)partialJsonStringField(text, QStringLiteral("code"));
    (void)partialJsonStringField(text.left(text.size() / 2), QStringLiteral("code"));
    return 0;
}
