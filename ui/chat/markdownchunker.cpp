#include "markdownchunker.h"

namespace Sandcastle {

namespace {

// A code fence's opening or closing line: three or more backticks or tildes, at any indent (a
// fence inside a list item is indented as deep as the item).
struct Fence
{
    QChar marker;
    qsizetype length = 0;
};

Fence fenceOf(QStringView trimmedLine)
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
bool closes(const Fence &open, QStringView trimmedLine)
{
    const Fence fence = fenceOf(trimmedLine);
    return fence.marker == open.marker && fence.length >= open.length
           && fence.length == trimmedLine.size();
}

} // namespace

std::vector<MarkdownChunker::Chunk> MarkdownChunker::chunks(const QString &text)
{
    std::vector<Chunk> chunks;
    qsizetype start = 0;
    qsizetype pos = 0;
    Fence open; // length 0: outside a fence
    bool previousBlank = false;
    while (pos < text.size()) {
        qsizetype eol = text.indexOf(QLatin1Char('\n'), pos);
        if (eol < 0)
            eol = text.size();
        const QStringView line = QStringView(text).mid(pos, eol - pos);
        const QStringView trimmed = line.trimmed();
        const bool blank = trimmed.isEmpty();
        if (open.length == 0 && previousBlank && !blank && pos > start && !line.front().isSpace()) {
            chunks.push_back({start, pos, true});
            start = pos;
        }
        if (open.length == 0)
            open = fenceOf(trimmed);
        else if (closes(open, trimmed))
            open = {};
        previousBlank = blank;
        pos = eol + 1;
    }
    if (start < text.size() || chunks.empty())
        chunks.push_back({start, text.size(), false});
    return chunks;
}

} // namespace Sandcastle
