#include "piecerenderer.h"

#include "transcriptrowlayout.h"

#include <QApplication>
#include <QFontDatabase>
#include <QFontMetrics>
#include <QRegularExpression>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextLayout>
#include <QTextTable>

#include <cmath>

namespace Sandcastle {

namespace {

// A document that never loads anything: an image or a link in the model's Markdown must not
// make the window read a file of the person's or reach the network.
class InertDocument : public QTextDocument
{
public:
    using QTextDocument::QTextDocument;

protected:
    QVariant loadResource(int, const QUrl &) override { return {}; }
};

// Colours Python and shell code: in the whole document (a tool card) or only in Markdown's
// fenced code blocks (an answer). The colours go straight into each block's layout before the
// document is laid out, once: a QSyntaxHighlighter would colour again on a later turn of the
// event loop, outside the rendering budget, and lay the document out a second time.
class CodeColours
{
public:
    explicit CodeColours(bool dark)
    {
        m_formats[Keyword].setForeground(dark ? QColor(0xc6, 0x78, 0xdd)
                                              : QColor(0xa6, 0x26, 0xa4));
        m_formats[Keyword].setFontWeight(QFont::DemiBold);
        m_formats[String].setForeground(dark ? QColor(0x98, 0xc3, 0x79) : QColor(0x50, 0xa1, 0x4f));
        m_formats[Comment].setForeground(dark ? QColor(0x7f, 0x84, 0x8e)
                                              : QColor(0x8a, 0x8f, 0x98));
        m_formats[Comment].setFontItalic(true);
        m_formats[Number].setForeground(dark ? QColor(0xd1, 0x9a, 0x66) : QColor(0x98, 0x68, 0x01));
    }

    void apply(QTextDocument *doc, bool wholeDocument) const
    {
        for (QTextBlock b = doc->begin(); b.isValid(); b = b.next()) {
            if (wholeDocument || b.blockFormat().hasProperty(QTextFormat::BlockCodeFence))
                b.layout()->setFormats(rangesOf(b.text()));
        }
    }

private:
    enum Kind : char { Plain, Keyword, Number, String, Comment, Kinds };

    // Each character's kind, the last that matched it winning, as runs of formats.
    QList<QTextLayout::FormatRange> rangesOf(const QString &text) const
    {
        static const QRegularExpression keywords(QStringLiteral(
            "\\b(and|as|assert|async|await|break|case|class|continue|def|del|do|done|elif|else|"
            "esac|except|fi|finally|for|from|function|global|if|import|in|is|lambda|local|"
            "match|None|nonlocal|not|or|pass|raise|return|then|True|False|try|while|with|"
            "yield)\\b"));
        static const QRegularExpression numbers(QStringLiteral("\\b\\d+(\\.\\d+)?\\b"));
        std::vector<Kind> kinds(std::size_t(text.size()), Plain);
        const auto mark = [&](qsizetype from, qsizetype length, Kind kind) {
            std::fill_n(kinds.begin() + from, length, kind);
        };
        for (auto it = keywords.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            mark(m.capturedStart(), m.capturedLength(), Keyword);
        }
        for (auto it = numbers.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            mark(m.capturedStart(), m.capturedLength(), Number);
        }
        markStringsAndComment(text, mark);
        QList<QTextLayout::FormatRange> ranges;
        for (qsizetype at = 0; at < text.size();) {
            qsizetype end = at;
            while (end < text.size() && kinds[std::size_t(end)] == kinds[std::size_t(at)])
                ++end;
            if (kinds[std::size_t(at)] != Plain)
                ranges.append({int(at), int(end - at), m_formats[kinds[std::size_t(at)]]});
            at = end;
        }
        return ranges;
    }

    // Strings, then a comment that starts outside of them.
    template<typename Mark>
    static void markStringsAndComment(const QString &text, const Mark &mark)
    {
        static const QRegularExpression strings(
            QStringLiteral("(\"([^\"\\\\]|\\\\.)*\"?|'([^'\\\\]|\\\\.)*'?)"));
        qsizetype commentFrom = -1;
        qsizetype scanned = 0;
        for (auto it = strings.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            const qsizetype hash = text.indexOf(QLatin1Char('#'), scanned);
            if (hash >= 0 && hash < m.capturedStart()) {
                commentFrom = hash;
                break;
            }
            mark(m.capturedStart(), m.capturedLength(), String);
            scanned = m.capturedEnd();
        }
        if (commentFrom < 0)
            commentFrom = text.indexOf(QLatin1Char('#'), scanned);
        if (commentFrom >= 0)
            mark(commentFrom, text.size() - commentFrom, Comment);
    }

    QTextCharFormat m_formats[Kinds];
};

std::unique_ptr<QTextDocument> makeDocument(const QFont &font)
{
    auto doc = std::make_unique<InertDocument>();
    doc->setDefaultFont(font);
    doc->setDocumentMargin(0);
    return doc;
}

// The tables of a piece cut from a longer one: the header row the piece repeats (to be a table
// at all) is not shown again, and the columns share the width evenly in every piece, so the
// pieces line up as one table.
void continueTables(QTextDocument *doc, const MarkdownSplitter::Piece &piece)
{
    const QList<QTextFrame *> frames = doc->rootFrame()->childFrames();
    for (QTextFrame *frame : frames) {
        auto *table = qobject_cast<QTextTable *>(frame);
        if (!table)
            continue;
        if (piece.continuesTable && table->rows() > 1 && frame == frames.front())
            table->removeRows(0, 1);
        QTextTableFormat format = table->format();
        const int columns = table->columns();
        format.setColumnWidthConstraints(QList<QTextLength>(
            columns, QTextLength(QTextLength::PercentageLength, 100.0 / columns)));
        format.setWidth(QTextLength(QTextLength::PercentageLength, 100));
        // Single borders and no margin: where one piece's table meets the next, no seam shows.
        format.setMargin(0);
        format.setBorderCollapse(true);
        table->setFormat(format);
    }
}

// Code blocks on a tinted ground, in the code font, coloured.
void tintCodeBlocks(QTextDocument *doc, const PieceRenderer::Style &style)
{
    const QColor base = style.palette.color(QPalette::Base);
    const QColor tint = mixColours(base, style.palette.color(QPalette::Text), 0.06);
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next()) {
        if (!b.blockFormat().hasProperty(QTextFormat::BlockCodeFence))
            continue;
        QTextCursor c(b);
        QTextBlockFormat f;
        f.setBackground(tint);
        c.mergeBlockFormat(f);
    }
}

// A plain piece's text without the line end that ends it (the next piece starts a new line).
QString plainOf(const QString &text, const MarkdownSplitter::Piece &piece)
{
    QStringView view = QStringView(text).mid(piece.start, piece.end - piece.start);
    if (view.endsWith(QLatin1Char('\n')))
        view.chop(1);
    return view.toString();
}

} // namespace

QFont PieceRenderer::codeFont()
{
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setPointSizeF(std::max(7.0, QApplication::font().pointSizeF() - 0.5));
    return font;
}

std::unique_ptr<QTextDocument> PieceRenderer::render(const QString &text,
                                                     const MarkdownSplitter::Piece &piece,
                                                     Look look,
                                                     const Style &style,
                                                     bool tableGoesOn)
{
    std::unique_ptr<QTextDocument> doc;
    switch (look) {
    case Look::Markdown:
        doc = makeDocument(style.font);
        doc->setMarkdown(MarkdownSplitter::markdownOf(text, piece));
        if (piece.continuesTable || tableGoesOn)
            continueTables(doc.get(), piece);
        tintCodeBlocks(doc.get(), style);
        CodeColours(style.dark).apply(doc.get(), false);
        break;
    case Look::Plain:
        doc = makeDocument(style.font);
        doc->setPlainText(plainOf(text, piece));
        break;
    case Look::Code:
        doc = makeDocument(codeFont());
        doc->setPlainText(plainOf(text, piece));
        CodeColours(style.dark).apply(doc.get(), true);
        break;
    }
    doc->setTextWidth(style.width);
    return doc;
}

int PieceRenderer::estimateHeight(const MarkdownSplitter::Piece &piece,
                                  Look look,
                                  const Style &style)
{
    const QFontMetrics fm(look == Look::Code ? codeFont() : style.font);
    const qsizetype chars = piece.end - piece.start;
    const qsizetype perLine
        = std::max<qsizetype>(1, style.width / std::max(1, fm.averageCharWidth()));
    const qsizetype lines = std::max<qsizetype>(piece.lines, 1) + chars / perLine;
    // Tables and paragraphs take a little more than their lines.
    const double spacing = look == Look::Markdown ? 1.3 : 1.0;
    return int(std::ceil(double(lines) * fm.lineSpacing() * spacing));
}

} // namespace Sandcastle
