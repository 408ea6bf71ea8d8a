#pragma once

#include "markdownsplitter.h"
#include "piecerenderer.h"

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

class RenderBudget;

// One transcript row laid out at a width: the documents its text is rendered into and where
// each part of the row sits, relative to the row's top left corner; what a point in the row
// would do when clicked. TranscriptDelegate caches these by row and revision; TranscriptPainter
// paints them.
//
// Text is rendered in pieces (MarkdownSplitter), each within a frame's work, and only while the
// turn's RenderBudget lasts: a piece left over holds its place with an estimated height and is
// rendered on a later turn (renderPending), the one on screen first. Past the display limits
// (characters, table rows, links) the rest of a text is not rendered until the person asks for
// all of it (the model's ShowAllRole); a bar under the row says what is cut and offers the
// ways through.
class TranscriptRowLayout
{
public:
    // The clickable parts of a row.
    enum class Part {
        None,
        Toggle,
        OpenInEditor,
        Retry,
        Link,
        ShowAll,
        OpenAsText,
        SaveAs,
        OpenTableAsCsv,
        Thumbnail // an image a run made (the link is its path in the workspace)
    };

    // What the layout depends on besides the row: the view's width, font and palette.
    struct Style
    {
        int width = 0;
        bool dark = false;
        QFont font;
        QPalette palette;
    };

    // What is shown of a text before "Show all".
    static constexpr qsizetype ShownChars = 64 * 1024;
    static constexpr int ShownTableRows = 500;
    static constexpr int ShownLinks = 1000;

    // Spacing, in pixels.
    static constexpr int Margin = 6;  // around each row's frame
    static constexpr int Padding = 8; // inside it
    static constexpr int Gap = 4;     // between parts

    // Lays out the row at index, rendering while `budget` allows. The documents of `previous`
    // (the same row at the same width and palette, an earlier revision) are taken where their
    // text did not change; `renderedChunks` counts the pieces rendered anew.
    static std::unique_ptr<TranscriptRowLayout> build(const QModelIndex &index,
                                                      const Style &style,
                                                      TranscriptRowLayout *previous,
                                                      RenderBudget &budget,
                                                      int *renderedChunks);
    ~TranscriptRowLayout();

    // Renders pieces left for later while `budget` allows, those in `visibleInRow` first, and
    // lays the row out again. Returns whether its height changed.
    bool renderPending(RenderBudget &budget, const QRect &visibleInRow, int *renderedChunks);
    bool hasPending() const;

    Part hitTest(const QPoint &pointInRow, QString *link = nullptr) const;
    QRect partRect(Part part) const;

    // A piece of text and its document; `pending` while it still waits to be rendered (with
    // no document, or one of an earlier text of the piece).
    struct Chunk
    {
        MarkdownSplitter::Piece piece;
        std::unique_ptr<QTextDocument> doc;
        bool pending = true;
        int top = 0; // from the top of its section
        int height = 0;
    };
    // A text of the row rendered in pieces: the answer (or message, or code) and the reasoning.
    struct Section
    {
        PieceRenderer::Look look = PieceRenderer::Look::Plain;
        QString text;
        MarkdownSplitter splitter;
        std::vector<Chunk> chunks; // the pieces shown
        qsizetype shownChars = 0;  // what they hold of the text
        int shownRows = 0;
        qsizetype hiddenTable = -1; // the first piece not shown has rows of this table
        QRect rect;
        bool cut() const { return chunks.size() < splitter.pieces().size(); }
    };
    QRect chunkRect(const Section &section, const Chunk &chunk) const;

    quint32 revision = 0;
    int width = 0;
    bool dark = false;
    PieceRenderer::Style pieceStyle;
    Section reasoning;
    Section body;
    QString header;    // "You", "Sandcastle", the tool's name
    QString meta;      // a tool's status, exit code, duration
    QString moreLines; // "… 12 more lines" under a cut card
    QString files;
    // The pictures of the images a run made, under its files.
    struct Thumb
    {
        QString path;
        QRect rect;
    };
    std::vector<Thumb> thumbs;
    QString cutNote; // what of a long text is shown
    QRect frame, headerRect, toggle, open, retry, filesRect, moreLinesRect;
    QRect cutRect;
    // The ways through a cut, as links in a row under the note.
    struct CutButton
    {
        Part part;
        QString label;
        QRect rect;
    };
    std::vector<CutButton> cutButtons;
    int height = 0;

private:
    friend class RowBuilder;
    // Places what follows the sections (their heights known or estimated) from `top` down.
    void placeTail(int top, int line);
    int m_line = 0;
    int m_bodyTop = 0;
};

// a and b mixed: t = 0 is a, 1 is b.
QColor mixColours(const QColor &a, const QColor &b, qreal t);

} // namespace Sandcastle
