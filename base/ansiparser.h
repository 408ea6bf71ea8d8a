#pragma once

#include <QList>
#include <QString>

#include <optional>

namespace Sandcastle {

// Turns terminal output into styled runs of text: SGR colour and bold (16 colours, 256-colour
// and true colour), other control sequences dropped (titles, clipboard, hyperlinks, cursor
// movement: nothing acts), control characters and bidi overrides shown as visible marks, a
// carriage return reported so a progress bar can redraw its line. Sequences split across chunks are
// completed by the next chunk. Pure: no widgets, tested on its own; ConsolePane paints what it
// returns.
class AnsiParser
{
public:
    struct Rgb
    {
        int r = 0, g = 0, b = 0;
        bool operator==(const Rgb &o) const { return r == o.r && g == o.g && b == o.b; }
    };
    struct Style
    {
        std::optional<Rgb> foreground;
        bool bold = false;
        bool operator==(const Style &o) const
        {
            return foreground == o.foreground && bold == o.bold;
        }
    };
    struct Segment
    {
        QString text;
        Style style;
        bool returnToLineStart = false; // a lone '\r' came before this text
    };

    QList<Segment> feed(const QString &chunk);
    // The same for output that is not shown (dropped past the scrollback): only the state.
    void skip(const QString &chunk);
    const Style &style() const { return m_style; }

private:
    void applySgr(const QString &params);
    void emitText(QList<Segment> &out, const QString &text);
    // At an escape or a carriage return: what follows is acted on; returns where the text goes
    // on, or -1 when the rest of the input waits for the next chunk (kept in m_pending).
    qsizetype escape(const QString &input, qsizetype i, QList<Segment> &out, QString &text);
    qsizetype
    controlSequence(const QString &input, qsizetype i, QList<Segment> &out, QString &text);
    qsizetype operatingSystemCommand(const QString &input, qsizetype i);
    qsizetype carriageReturn(const QString &input, qsizetype i, QList<Segment> &out, QString &text);
    static void appendInert(QString &text, QChar c);
    // Shown as it is: printable, a line break or a tab (appendInert's identity cases).
    static bool isPlain(char16_t u)
    {
        return (u >= 0x20 || u == u'\n' || u == u'\t') && u != 0x7f && u != 0x061c && u != 0x200e
               && u != 0x200f && !(u >= 0x202a && u <= 0x202e) && !(u >= 0x2066 && u <= 0x2069);
    }
    static constexpr qsizetype kMaxOscLength = 4096;

    Style m_style;
    QString m_pending; // an escape sequence not yet complete
    bool m_pendingReturn = false;
};

} // namespace Sandcastle
