#pragma once

#include "markdownsplitter.h"

#include <QFont>
#include <QPalette>

#include <memory>

class QFontMetrics;
class QTextDocument;

namespace Sandcastle {

// Renders one piece of a transcript row's text (MarkdownSplitter cut it small enough to render
// within a frame) into a document that loads nothing: an image or a link in the model's text
// never makes the window read a file or reach the network.
class PieceRenderer
{
public:
    enum class Look {
        Markdown, // an answer: code blocks tinted and coloured, split tables kept aligned
        Plain,    // the person's message, a note, an error, reasoning
        Code,     // a tool card's code, coloured, in the code font
    };

    struct Style
    {
        QFont font;
        QPalette palette;
        bool dark = false;
        int width = 0; // the width the text is laid out at
    };

    // `tableGoesOn`: the next piece continues this one's table (its columns are then fixed).
    static std::unique_ptr<QTextDocument> render(const QString &text,
                                                 const MarkdownSplitter::Piece &piece,
                                                 Look look,
                                                 const Style &style,
                                                 bool tableGoesOn = false);
    // About how tall a piece not rendered yet will be, to hold its place until it is.
    static int estimateHeight(const MarkdownSplitter::Piece &piece, Look look, const Style &style);
    // The font code is shown in.
    static QFont codeFont();
};

} // namespace Sandcastle
