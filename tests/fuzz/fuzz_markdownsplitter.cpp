// libFuzzer target for the transcript's Markdown piece splitter. With limits drawn from the
// input (small, so that a short input reaches every kind of cut), the pieces of every text cover
// it in order, none is empty, none is past the hard limits, a cut never splits a surrogate pair,
// and a reopening is a fence line or a table's header and delimiter rows. Fed in seeded reads as
// an answer streams, every piece that was complete stays, with the same bounds and reopening,
// and the streamed pieces are bounded the same. A table a piece has rows of converts to CSV.
#include "fuzzing.h"

#include <ui/chat/markdownsplitter.h>
#include <ui/chat/markdowntable.h>

using namespace Sandcastle;
using namespace Sandcastle::Fuzzing;

namespace {

using Piece = MarkdownSplitter::Piece;

void checkPieces(const QString &text,
                 const std::vector<Piece> &pieces,
                 const MarkdownSplitter::Limits &limits)
{
    require(!pieces.empty());
    require(!pieces.back().complete);
    qsizetype at = 0;
    for (const Piece &p : pieces) {
        require(p.start == at);
        require(p.end > p.start || text.isEmpty());
        // Past the hard limit a piece is cut at the next unit that is not a surrogate's second
        // half, and a line's last unit may be the one that crosses it.
        require(p.end - p.start <= limits.chars * MarkdownSplitter::Limits::HardFactor + 2);
        if (p.start > 0)
            require(!text.at(p.start).isLowSurrogate());
        if (!p.reopen.isEmpty()) {
            require(p.reopen.endsWith(QLatin1Char('\n')));
            if (p.continuesTable) {
                require(p.table >= 0 && p.table < p.start);
                require(text.mid(p.table).startsWith(p.reopen));
            }
        }
        if (p.table >= 0) {
            require(p.table < p.end);
            require(!MarkdownTable::toCsv(text, p.table).isEmpty());
        }
        at = p.end;
    }
    require(at == text.size());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    MarkdownSplitter::Limits limits;
    limits.chars = 16 + data[0] % 240;
    limits.events = 4 + data[1] % 60;
    const auto mode
        = data[2] % 4 == 0 ? MarkdownSplitter::Mode::Plain : MarkdownSplitter::Mode::Markdown;
    const QString text = QString::fromUtf8(bytesOf(data + 3, size - 3));

    MarkdownSplitter whole(mode, limits);
    checkPieces(text, whole.split(text), limits);

    MarkdownSplitter streaming(mode, limits);
    std::vector<Piece> before;
    QString sofar;
    for (const QString &read : cut(text, qHash(text))) {
        sofar += read;
        const std::vector<Piece> now = streaming.split(sofar);
        checkPieces(sofar, now, limits);
        for (std::size_t i = 0; i < before.size(); ++i) {
            if (!before[i].complete)
                continue;
            require(i < now.size());
            require(now[i].start == before[i].start && now[i].end == before[i].end);
            require(now[i].complete && now[i].reopen == before[i].reopen);
        }
        before = now;
    }
    for (const Piece &p : before)
        MarkdownSplitter::markdownOf(text, p);
    return 0;
}
