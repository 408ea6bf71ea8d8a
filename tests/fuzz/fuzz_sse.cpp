// libFuzzer target for the model stream: the SSE parser fed whole, a byte at a time and in
// seeded reads must give the events of a whole-buffer reference reading of the spec, each one
// well formed; those events through the stream accumulator's fast reader and through its JSON
// DOM must agree byte for byte.
#include "fuzzing.h"

#include <app/llm/streamaccumulator.h>
#include <base/sseparser.h>
#include <tests/support/streamdescribe.h>

using namespace Sandcastle;
using namespace Sandcastle::Fuzzing;
using Sandcastle::Testing::describe;

namespace {

using Events = QList<SseParser::Event>;

// The spec read over the whole buffer at once: lines end at CRLF, CR or LF; a blank line
// dispatches; the event name resets after each dispatch, the last id stays.
Events referenceEvents(const QByteArray &stream)
{
    Events events;
    QByteArray name;
    QByteArray data;
    QByteArray id;
    bool hasData = false;
    const auto dispatch = [&] {
        if (hasData)
            events.append({name.isEmpty() ? QByteArrayLiteral("message") : name, data, id});
        name.clear();
        data.clear();
        hasData = false;
    };
    const auto line = [&](const QByteArray &text) {
        if (text.isEmpty()) {
            dispatch();
            return;
        }
        const qsizetype colon = text.indexOf(':');
        if (colon == 0)
            return;
        const QByteArray field = text.left(colon < 0 ? text.size() : colon);
        QByteArray value = colon < 0 ? QByteArray() : text.mid(colon + 1);
        if (value.startsWith(' '))
            value = value.mid(1);
        if (field == "data") {
            data += (hasData ? QByteArrayLiteral("\n") : QByteArray()) + value;
            hasData = true;
        } else if (field == "event") {
            name = value;
        } else if (field == "id") {
            id = value;
        }
    };
    qsizetype start = 0;
    for (qsizetype i = 0; i < stream.size(); ++i) {
        if (stream.at(i) != '\r' && stream.at(i) != '\n')
            continue;
        line(stream.mid(start, i - start));
        if (stream.at(i) == '\r' && i + 1 < stream.size() && stream.at(i + 1) == '\n')
            ++i;
        start = i + 1;
    }
    if (start < stream.size())
        line(stream.mid(start));
    dispatch();
    return events;
}

bool sameEvents(const Events &a, const Events &b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (a.at(i).event != b.at(i).event || a.at(i).data != b.at(i).data
            || a.at(i).id != b.at(i).id)
            return false;
    }
    return true;
}

bool wellFormed(const SseParser::Event &event)
{
    return !event.event.isEmpty() && !event.event.contains('\r') && !event.event.contains('\n')
           && !event.id.contains('\r') && !event.id.contains('\n') && !event.data.contains('\r');
}

// Both accumulator paths see the same events and must report the same deltas and message.
void accumulatorsAgree(const Events &events)
{
    StreamAccumulator fast;
    StreamAccumulator dom;
    dom.setFastPath(false);
    for (const SseParser::Event &event : events)
        require(describe(fast.add(event)) == describe(dom.add(event)));
    require(describe(fast.completion()) == describe(dom.completion()));
    require(fast.isComplete() == dom.isComplete());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes = bytesOf(data, size);
    const Events expected = referenceEvents(bytes);
    for (const QList<QByteArray> &reads : cuttings(bytes)) {
        SseParser parser;
        Events events;
        for (const QByteArray &read : reads)
            events += parser.feed(read);
        events += parser.finish();
        require(sameEvents(events, expected));
    }
    for (const SseParser::Event &event : expected)
        require(wellFormed(event));
    accumulatorsAgree(expected);
    // The whole input as one chunk's data, which is what most of it is meant to be.
    accumulatorsAgree({{QByteArrayLiteral("message"), bytes, {}}});
    return 0;
}
