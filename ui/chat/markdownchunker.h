#pragma once

#include <QString>

#include <vector>

namespace Sandcastle {

// Cuts an answer's Markdown into pieces that can be rendered on their own: after a blank line
// outside a code fence that is followed by a line continuing no indented block (a list item's
// second paragraph, indented code). All but the last piece are complete: as the answer streams
// and grows, their bounds and their text no longer change, so a view renders them once. Pure:
// no widgets, tested on its own; TranscriptRowLayout renders what it returns.
class MarkdownChunker
{
public:
    struct Chunk
    {
        qsizetype start;
        qsizetype end;
        bool complete; // a boundary follows it: its text will not change
    };
    // At least one chunk, empty for an empty text; together they cover the text in order.
    static std::vector<Chunk> chunks(const QString &text);
};

} // namespace Sandcastle
