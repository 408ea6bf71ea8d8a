#include "ansiparser.h"

#include <QStringList>

namespace Sandcastle {

namespace {

// A CSI whose final byte has not come within this many characters is not a sequence.
constexpr qsizetype kMaxCsiLength = 64;

AnsiParser::Rgb basicColour(int index, bool bright)
{
    static const AnsiParser::Rgb normal[8] = {{0, 0, 0},
                                              {205, 49, 49},
                                              {13, 188, 121},
                                              {229, 229, 16},
                                              {36, 114, 200},
                                              {188, 63, 188},
                                              {17, 168, 205},
                                              {229, 229, 229}};
    static const AnsiParser::Rgb light[8] = {{102, 102, 102},
                                             {241, 76, 76},
                                             {35, 209, 139},
                                             {245, 245, 67},
                                             {59, 142, 234},
                                             {214, 112, 214},
                                             {41, 184, 219},
                                             {255, 255, 255}};
    return bright ? light[index & 7] : normal[index & 7];
}

AnsiParser::Rgb xterm256(int n)
{
    if (n < 8)
        return basicColour(n, false);
    if (n < 16)
        return basicColour(n - 8, true);
    if (n < 232) {
        n -= 16;
        const auto level = [](int v) {
            return v == 0 ? 0 : 55 + v * 40;
        };
        return {level(n / 36), level((n / 6) % 6), level(n % 6)};
    }
    const int grey = 8 + (n - 232) * 10;
    return {grey, grey, grey};
}

} // namespace

void AnsiParser::applySgr(const QString &params)
{
    const QStringList parts
        = params.isEmpty() ? QStringList{QStringLiteral("0")} : params.split(QLatin1Char(';'));
    for (qsizetype i = 0; i < parts.size(); ++i) {
        const int code = parts.at(i).toInt();
        if (code == 0) {
            m_style = Style();
        } else if (code == 1) {
            m_style.bold = true;
        } else if (code == 22) {
            m_style.bold = false;
        } else if (code >= 30 && code <= 37) {
            m_style.foreground = basicColour(code - 30, false);
        } else if (code >= 90 && code <= 97) {
            m_style.foreground = basicColour(code - 90, true);
        } else if (code == 39) {
            m_style.foreground.reset();
        } else if (code == 38 && i + 1 < parts.size()) {
            const int mode = parts.at(i + 1).toInt();
            if (mode == 5 && i + 2 < parts.size()) {
                m_style.foreground = xterm256(qBound(0, parts.at(i + 2).toInt(), 255));
                i += 2;
            } else if (mode == 2 && i + 4 < parts.size()) {
                m_style.foreground = Rgb{qBound(0, parts.at(i + 2).toInt(), 255),
                                         qBound(0, parts.at(i + 3).toInt(), 255),
                                         qBound(0, parts.at(i + 4).toInt(), 255)};
                i += 4;
            }
        } else if (code == 48 && i + 1 < parts.size()) {
            i += parts.at(i + 1).toInt() == 5   ? 2
                 : parts.at(i + 1).toInt() == 2 ? 4
                                                : 1; // backgrounds: skipped
        }
    }
}

void AnsiParser::skip(const QString &chunk)
{
    // Output that is dropped unseen only matters for the state it leaves: without escapes or
    // carriage returns it leaves none (but ends a pending carriage return).
    if (m_pending.isEmpty() && !chunk.contains(QLatin1Char('\x1b'))
        && !chunk.contains(QLatin1Char('\r'))) {
        if (!chunk.isEmpty())
            m_pendingReturn = false;
        return;
    }
    feed(chunk);
}

void AnsiParser::appendInert(QString &text, QChar c)
{
    const char16_t u = c.unicode();
    if (u == u'\n' || u == u'\t') {
        text += c;
    } else if (u < 0x20) {
        text += QChar(char16_t(0x2400 + u)); // the Control Pictures block: ␀ ␁ …
    } else if (u == 0x7f) {
        text += QChar(char16_t(0x2421)); // ␡
    } else if (u == 0x061c || u == 0x200e || u == 0x200f || (u >= 0x202a && u <= 0x202e)
               || (u >= 0x2066 && u <= 0x2069)) {
        // Bidi controls could make code read differently from how it runs: shown, not obeyed.
        text += QStringLiteral("<U+%1>").arg(int(u), 4, 16, QLatin1Char('0')).toUpper();
    } else {
        text += c;
    }
}

void AnsiParser::emitText(QList<Segment> &out, const QString &text)
{
    if (text.isEmpty() && !m_pendingReturn)
        return;
    if (!out.isEmpty() && !m_pendingReturn && out.last().style == m_style) {
        out.last().text += text;
        return;
    }
    out.append({text, m_style, m_pendingReturn});
    m_pendingReturn = false;
}

QList<AnsiParser::Segment> AnsiParser::feed(const QString &chunk)
{
    QList<Segment> out;
    const QString input = m_pending.isEmpty() ? chunk : m_pending + chunk;
    m_pending.clear();
    QString text;
    text.reserve(input.size());
    qsizetype i = 0;
    while (i < input.size()) {
        // Most output is plain text: take a run of it at once.
        qsizetype plain = i;
        while (plain < input.size() && isPlain(input.at(plain).unicode()))
            ++plain;
        if (plain > i) {
            text += QStringView(input).mid(i, plain - i);
            i = plain;
            if (i >= input.size())
                break;
        }
        const QChar c = input.at(i);
        if (c == QLatin1Char('\x1b')) {
            i = escape(input, i, out, text);
        } else if (c == QLatin1Char('\r')) {
            i = carriageReturn(input, i, out, text);
        } else {
            if (c != QLatin1Char('\b') && c != QLatin1Char('\a'))
                appendInert(text, c);
            ++i;
        }
        if (i < 0) // the rest waits for the next chunk
            break;
    }
    emitText(out, text);
    return out;
}

qsizetype AnsiParser::escape(const QString &input, qsizetype i, QList<Segment> &out, QString &text)
{
    if (i + 1 >= input.size()) {
        m_pending = input.mid(i);
        return -1;
    }
    const QChar kind = input.at(i + 1);
    if (kind == QLatin1Char('['))
        return controlSequence(input, i, out, text);
    if (kind == QLatin1Char(']'))
        return operatingSystemCommand(input, i);
    // A two-character escape: dropped. Only an ASCII character completes one; before anything
    // else (half of a surrogate pair, say) only the escape goes.
    return i + (kind.unicode() < 0x80 ? 2 : 1);
}

// CSI: parameters, then a final byte in @..~, within kMaxCsiLength characters whether or not
// the sequence was split across chunks.
qsizetype
AnsiParser::controlSequence(const QString &input, qsizetype i, QList<Segment> &out, QString &text)
{
    qsizetype j = i + 2;
    while (j < input.size() && j - i <= kMaxCsiLength
           && !(input.at(j).unicode() >= 0x40 && input.at(j).unicode() <= 0x7e))
        ++j;
    if (j - i > kMaxCsiLength) // not a sequence after all: drop the escape
        return i + 1;
    if (j >= input.size()) {
        m_pending = input.mid(i);
        return -1;
    }
    emitText(out, text);
    text.clear();
    if (input.at(j) == QLatin1Char('m'))
        applySgr(input.mid(i + 2, j - i - 2));
    return j + 1;
}

// OSC (window titles, links): up to BEL or ESC backslash, dropped.
qsizetype AnsiParser::operatingSystemCommand(const QString &input, qsizetype i)
{
    qsizetype j = i + 2;
    while (j < input.size() && input.at(j) != QLatin1Char('\x07')
           && !(input.at(j) == QLatin1Char('\x1b') && j + 1 < input.size()
                && input.at(j + 1) == QLatin1Char('\\')))
        ++j;
    if (j >= input.size()) {
        // An OSC that never ends is dropped whole, not kept and rescanned forever.
        if (input.size() - i <= kMaxOscLength)
            m_pending = input.mid(i);
        return -1;
    }
    return j + (input.at(j) == QLatin1Char('\x07') ? 1 : 2);
}

qsizetype
AnsiParser::carriageReturn(const QString &input, qsizetype i, QList<Segment> &out, QString &text)
{
    if (i + 1 >= input.size()) {
        emitText(out, text);
        text.clear();
        m_pending = QStringLiteral("\r"); // "\r\n" may be split across chunks
        return -1;
    }
    if (input.at(i + 1) == QLatin1Char('\n'))
        return i + 1; // CRLF is a newline
    emitText(out, text);
    text.clear();
    m_pendingReturn = true;
    return i + 1;
}

} // namespace Sandcastle
