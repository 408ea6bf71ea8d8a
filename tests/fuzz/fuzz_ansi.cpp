// libFuzzer target for the console's ANSI parser. Fed whole, a character at a time and in
// seeded reads, it must show the same characters in the same styles and end in the same style
// (the segments may be cut differently). What it shows is inert: no escape, carriage return,
// other C0 control, DEL or bidi control survives, and a well-formed input gives well-formed
// UTF-16. Without escapes, the text must be the input with CRLF as a newline, lone CRs as
// line returns, BEL and BS dropped and controls replaced by their visible marks.
#include "fuzzing.h"

#include <base/ansiparser.h>

using namespace Sandcastle;
using namespace Sandcastle::Fuzzing;

namespace {

// One shown character, or a return to the start of the line (unit -1, style left out).
struct Shown
{
    int unit;
    AnsiParser::Style style;
    bool operator==(const Shown &o) const
    {
        return unit == o.unit && (unit < 0 || style == o.style);
    }
};

void show(QList<Shown> &out, const QList<AnsiParser::Segment> &segments)
{
    for (const AnsiParser::Segment &segment : segments) {
        if (segment.returnToLineStart)
            out.append(Shown{-1, {}});
        for (const QChar c : segment.text)
            out.append(Shown{c.unicode(), segment.style});
    }
}

bool isBidiControl(char16_t u)
{
    return u == 0x061c || u == 0x200e || u == 0x200f || (u >= 0x202a && u <= 0x202e)
           || (u >= 0x2066 && u <= 0x2069);
}

bool inert(const QList<Shown> &shown)
{
    QString text;
    for (const Shown &s : shown) {
        if (s.unit < 0)
            continue;
        const char16_t u = char16_t(s.unit);
        if ((u < 0x20 && u != u'\n' && u != u'\t') || u == 0x7f || isBidiControl(u))
            return false;
        if (s.style.foreground) {
            const AnsiParser::Rgb &c = *s.style.foreground;
            for (const int v : {c.r, c.g, c.b}) {
                if (v < 0 || v > 255)
                    return false;
            }
        }
        text += QChar(u);
    }
    return text.isValidUtf16();
}

// What a text without any escape must show, worked out character by character.
QList<Shown> plainReference(const QString &text)
{
    QList<Shown> out;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t u = text.at(i).unicode();
        if (u == u'\r') {
            if (i + 1 < text.size() && text.at(i + 1) != QLatin1Char('\n'))
                out.append(Shown{-1, {}});
            continue; // CRLF: the LF is the newline; a CR at the very end waits for more
        }
        if (u == u'\b' || u == u'\a')
            continue;
        QString mark = QChar(u);
        if (u < 0x20 && u != u'\n' && u != u'\t')
            mark = QChar(char16_t(0x2400 + u));
        else if (u == 0x7f)
            mark = QChar(char16_t(0x2421));
        else if (isBidiControl(u))
            mark = QStringLiteral("<U+%1>").arg(int(u), 4, 16, QLatin1Char('0')).toUpper();
        for (const QChar c : mark)
            out.append(Shown{c.unicode(), {}});
    }
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(bytesOf(data, size));
    // An OSC longer than the parser keeps (4096) is dropped where the read ends, so split
    // equivalence holds up to that length; scripts/fuzz keeps inputs within it.
    if (text.size() > 4096)
        return 0;
    QList<Shown> expected;
    AnsiParser::Style endStyle;
    bool first = true;
    for (const QList<QString> &reads : cuttings(text)) {
        AnsiParser parser;
        QList<Shown> shown;
        for (const QString &read : reads)
            show(shown, parser.feed(read));
        if (first) {
            expected = shown;
            endStyle = parser.style();
            first = false;
            require(inert(shown));
        }
        require(shown == expected);
        require(parser.style() == endStyle);
    }
    if (!text.contains(QLatin1Char('\x1b')))
        require(expected == plainReference(text));
    return 0;
}
