#include "markdownsplitter.h"

namespace Sandcastle {

namespace {

// What Qt's Markdown importer makes an inline event of (emphasis, code spans, links, HTML,
// table cells, escapes, entities): the count its cost grows with.
bool isMarker(QChar c)
{
    switch (c.unicode()) {
    case u'*':
    case u'_':
    case u'`':
    case u'[':
    case u']':
    case u'<':
    case u'>':
    case u'|':
    case u'~':
    case u'!':
    case u'&':
    case u'\\':
        return true;
    default:
        return false;
    }
}

// A setext heading's underline (=== or ---): cut before it, the heading would be a paragraph.
bool isUnderline(QStringView trimmed)
{
    if (trimmed.isEmpty() || (trimmed.front() != u'=' && trimmed.front() != u'-'))
        return false;
    for (const QChar c : trimmed) {
        if (c != trimmed.front())
            return false;
    }
    return true;
}

qsizetype countOf(QStringView line, QStringView what)
{
    qsizetype n = 0;
    for (qsizetype at = line.indexOf(what); at >= 0; at = line.indexOf(what, at + what.size()))
        ++n;
    return n;
}

// A fence's opening line too long to repeat before every piece it is cut into is reopened by its
// marker alone (the info string only names the language).
constexpr qsizetype LongestReopenedFence = 256;
// A table header too wide to repeat: the table's later pieces show as text.
constexpr qsizetype LongestRepeatedHeader = 4096;

} // namespace

MarkdownSplitter::MarkdownSplitter(Mode mode)
    : MarkdownSplitter(mode, Limits{})
{}

MarkdownSplitter::MarkdownSplitter(Mode mode, Limits limits)
    : m_mode(mode)
    , m_limits(limits)
{}

// A code fence's opening or closing line: three or more backticks or tildes, at any indent (a
// fence inside a list item is indented as deep as the item).
MarkdownSplitter::Fence MarkdownSplitter::fenceOf(QStringView trimmedLine)
{
    if (trimmedLine.isEmpty())
        return {};
    const QChar marker = trimmedLine.front();
    if (marker != QLatin1Char('`') && marker != QLatin1Char('~'))
        return {};
    qsizetype length = 0;
    while (length < trimmedLine.size() && trimmedLine.at(length) == marker)
        ++length;
    if (length < 3)
        return {};
    // ```a``` at the start of a line is inline code: a backtick fence's info string has none.
    if (marker == QLatin1Char('`') && trimmedLine.mid(length).contains(marker))
        return {};
    return {marker, length};
}

// Whether a line closes the open fence: the same marker, at least as long, nothing after it
// (a ``` line inside a ~~~ block, or ```python inside a ``` block, is code).
bool MarkdownSplitter::closes(const Fence &open, QStringView trimmedLine)
{
    const Fence fence = fenceOf(trimmedLine);
    return fence.marker == open.marker && fence.length >= open.length
           && fence.length == trimmedLine.size();
}

bool MarkdownSplitter::isDelimiterRow(QStringView line)
{
    const QStringView trimmed = line.trimmed();
    bool dash = false;
    bool pipe = false;
    for (const QChar c : trimmed) {
        if (c == u'-')
            dash = true;
        else if (c == u'|')
            pipe = true;
        else if (c != u':' && c != u' ' && c != u'\t')
            return false;
    }
    return dash && pipe;
}

QString MarkdownSplitter::markdownOf(const QString &text, const Piece &piece)
{
    return piece.reopen + QStringView(text).mid(piece.start, piece.end - piece.start);
}

const std::vector<MarkdownSplitter::Piece> &MarkdownSplitter::split(const QString &text)
{
    if (!m_pieces.empty() && QStringView(text).startsWith(m_text)) {
        m_pieces.pop_back();
        m_scan = m_atLastCut;
    } else {
        m_pieces.clear();
        m_scan = Scan{};
        m_atLastCut = m_scan;
    }
    m_text = text;
    read(text);
    Piece last = m_scan.piece;
    last.end = text.size();
    last.complete = false;
    m_pieces.push_back(std::move(last));
    return m_pieces;
}

void MarkdownSplitter::read(const QString &text)
{
    const qsizetype size = text.size();
    const qsizetype hardChars = m_limits.chars * Limits::HardFactor;
    const int hardEvents = m_limits.events * Limits::HardFactor;
    Scan &s = m_scan;
    while (s.pos < size) {
        const qsizetype eol = text.indexOf(QLatin1Char('\n'), s.pos);
        if (s.pos == s.lineStart && s.pos > s.piece.start)
            cutBeforeLine(text, eol);
        const qsizetype lineEnd = eol < 0 ? size : eol;
        for (qsizetype p = s.pos; p < lineEnd; ++p) {
            const QChar c = text.at(p);
            if (p > s.piece.start && !c.isLowSurrogate()
                && (p - s.piece.start >= hardChars || s.events >= hardEvents)) {
                s.pos = p;
                cut(p, true);
            }
            if (m_mode == Mode::Markdown && isMarker(c))
                ++s.events;
        }
        if (eol < 0) {
            s.pos = size; // an incomplete last line: read again when it grows
            break;
        }
        readLine(text, eol);
        s.previousLineStart = s.lineStart;
        s.lineStart = s.pos = eol + 1;
    }
}

// At the start of a line: cuts before it at a blank line's end, or when the piece is past its
// limits and the line can start a piece.
bool MarkdownSplitter::cutBeforeLine(const QString &text, qsizetype eol)
{
    const Scan &s = m_scan;
    const QChar first = text.at(s.pos);
    const bool indented = first.isSpace(); // a blank line too
    if (m_mode == Mode::Markdown && s.fence.length == 0 && s.previousBlank && !indented) {
        cut(s.pos, false);
        return true;
    }
    const qsizetype size = s.pos - s.piece.start;
    if (size < m_limits.chars && s.events < m_limits.events)
        return false;
    const bool hard = size >= m_limits.chars * Limits::HardFactor
                      || s.events >= m_limits.events * Limits::HardFactor;
    if (m_mode == Mode::Plain || hard || s.fence.length > 0) {
        cut(s.pos, true);
        return true;
    }
    if (eol < 0)
        return false; // what the line is is known when it is complete
    const QStringView trimmed = QStringView(text).mid(s.pos, eol - s.pos).trimmed();
    if (s.table >= 0 && !trimmed.isEmpty()) {
        cut(s.pos, true);
        return true;
    }
    if (indented || isUnderline(trimmed) || isDelimiterRow(trimmed))
        return false; // it continues the block before it
    cut(s.pos, false);
    return true;
}

void MarkdownSplitter::readLine(const QString &text, qsizetype eol)
{
    Scan &s = m_scan;
    const QStringView line = QStringView(text).mid(s.lineStart, eol - s.lineStart);
    const QStringView trimmed = line.trimmed();
    const bool blank = trimmed.isEmpty();
    ++s.events;
    ++s.piece.lines;
    if (m_mode == Mode::Markdown) {
        if (s.fence.length > 0) {
            if (closes(s.fence, trimmed))
                s.fence = {};
        } else if (const Fence opened = fenceOf(trimmed); opened.length > 0) {
            s.fence = opened;
            s.fenceLine = line.size() <= LongestReopenedFence
                              ? line.toString()
                              : QString(opened.length, opened.marker);
            s.table = -1;
        } else if (s.table >= 0) {
            if (blank) {
                s.table = -1;
            } else {
                ++s.piece.tableRows;
                if (s.piece.table < 0)
                    s.piece.table = s.table;
            }
        } else if (!s.previousBlank && s.previousLineStart >= 0 && isDelimiterRow(trimmed)
                   && eol + 1 - s.previousLineStart <= LongestRepeatedHeader
                   && QStringView(text)
                          .mid(s.previousLineStart, s.lineStart - s.previousLineStart)
                          .contains(QLatin1Char('|'))) {
            s.table = s.previousLineStart;
            s.tableHeader = text.mid(s.previousLineStart, eol + 1 - s.previousLineStart);
            if (s.piece.table < 0)
                s.piece.table = s.table;
        }
        if (s.fence.length == 0)
            s.piece.links
                += int(countOf(line, u"](") + countOf(line, u"://") + countOf(line, u"<http"));
    }
    s.previousBlank = blank;
}

void MarkdownSplitter::cut(qsizetype at, bool reopenBlock)
{
    Scan &s = m_scan;
    Piece done = std::move(s.piece);
    done.end = at;
    done.complete = true;
    m_pieces.push_back(std::move(done));
    s.piece = Piece{};
    s.piece.start = at;
    s.events = 0;
    if (reopenBlock && m_mode == Mode::Markdown) {
        if (s.fence.length > 0) {
            s.piece.reopen = s.fenceLine + QLatin1Char('\n');
        } else if (s.table >= 0) {
            s.piece.reopen = s.tableHeader;
            s.piece.continuesTable = true;
            s.piece.table = s.table;
        }
    }
    m_atLastCut = s;
}

} // namespace Sandcastle
