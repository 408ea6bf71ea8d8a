#pragma once

#include <QColor>
#include <QFont>
#include <QPalette>
#include <QRect>
#include <QString>

#include <memory>
#include <vector>

class QModelIndex;
class QTextDocument;

namespace Sandcastle {

// One transcript row laid out at a width: the documents its text is rendered into (an answer's
// Markdown in chunks, code highlighted) and where each part of the row sits, relative to the
// row's top left corner; what a point in the row would do when clicked. TranscriptDelegate
// caches these by row and revision; TranscriptPainter paints them.
class TranscriptRowLayout
{
public:
    // The clickable parts of a row.
    enum class Part { None, Toggle, OpenInEditor, Retry, Link };

    // What the layout depends on besides the row: the view's width, font and palette.
    struct Style
    {
        int width = 0;
        bool dark = false;
        QFont font;
        QPalette palette;
    };

    // Spacing, in pixels.
    static constexpr int Margin = 6;  // around each row's frame
    static constexpr int Padding = 8; // inside it
    static constexpr int Gap = 4;     // between parts

    // Lays out the row at index. The documents of `previous` (the same row at the same width
    // and palette, an earlier revision) are taken where their text did not change;
    // `renderedChunks` counts the Markdown chunks rendered anew.
    static std::unique_ptr<TranscriptRowLayout> build(const QModelIndex &index,
                                                      const Style &style,
                                                      TranscriptRowLayout *previous,
                                                      int *renderedChunks);
    ~TranscriptRowLayout();

    Part hitTest(const QPoint &pointInRow, QString *link = nullptr) const;
    QRect partRect(Part part) const;

    // The body as a column of documents. An answer is rendered as Markdown chunks cut at blank
    // lines outside code fences: while it streams, only its last chunk changes and only that
    // one is rendered again, so a frame costs the same for a long answer as for a short one.
    // Every other row has one chunk: its text, or a tool card's code.
    struct Chunk
    {
        qsizetype start = 0;
        qsizetype end = 0;
        bool complete = false; // a boundary follows it: its text will not change
        std::unique_ptr<QTextDocument> doc;
        int top = 0; // from the top of the body
        int height = 0;
    };
    QRect chunkRect(const Chunk &chunk) const;

    quint32 revision = 0;
    int width = 0;
    bool dark = false;
    std::unique_ptr<QTextDocument> reasoning;
    std::vector<Chunk> chunks;
    QString chunkedText;
    QString header;    // "You", "Sandcastle", the tool's name
    QString meta;      // a tool's status, exit code, duration
    QString moreLines; // "… 12 more lines" under a cut card
    QString files;
    QRect frame, headerRect, toggle, open, retry, reasoningRect, body, filesRect;
    int height = 0;
};

// a and b mixed: t = 0 is a, 1 is b.
QColor mixColours(const QColor &a, const QColor &b, qreal t);

} // namespace Sandcastle
