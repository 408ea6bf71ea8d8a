#include "transcriptrowlayout.h"

#include "markdownchunker.h"
#include "transcriptdelegate.h"
#include "transcriptmodel.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QFontDatabase>
#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

#include <cmath>

namespace Sandcastle {

namespace {

constexpr int CollapsedCodeLines = 6;
constexpr int ExpandedCodeLines = 400;

QString statusText(const QString &status)
{
    if (status == QLatin1String("running"))
        return TranscriptDelegate::tr("running…");
    if (status == QLatin1String("ok"))
        return TranscriptDelegate::tr("ok");
    if (status == QLatin1String("error"))
        return TranscriptDelegate::tr("error");
    if (status == QLatin1String("timeout"))
        return TranscriptDelegate::tr("timed out");
    if (status == QLatin1String("out_of_memory"))
        return TranscriptDelegate::tr("out of memory");
    if (status == QLatin1String("killed"))
        return TranscriptDelegate::tr("stopped");
    if (status == QLatin1String("engine_error"))
        return TranscriptDelegate::tr("sandbox error");
    return status;
}

QString durationText(qint64 ms)
{
    if (ms < 1000)
        return TranscriptDelegate::tr("%1 ms").arg(ms);
    return TranscriptDelegate::tr("%1 s").arg(ms / 1000.0, 0, 'f', 1);
}

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
// fenced code blocks (an answer).
class CodeHighlighter : public QSyntaxHighlighter
{
public:
    CodeHighlighter(QTextDocument *document, bool wholeDocument, bool dark)
        : QSyntaxHighlighter(document)
        , m_whole(wholeDocument)
    {
        m_keyword.setForeground(dark ? QColor(0xc6, 0x78, 0xdd) : QColor(0xa6, 0x26, 0xa4));
        m_keyword.setFontWeight(QFont::DemiBold);
        m_string.setForeground(dark ? QColor(0x98, 0xc3, 0x79) : QColor(0x50, 0xa1, 0x4f));
        m_comment.setForeground(dark ? QColor(0x7f, 0x84, 0x8e) : QColor(0x8a, 0x8f, 0x98));
        m_comment.setFontItalic(true);
        m_number.setForeground(dark ? QColor(0xd1, 0x9a, 0x66) : QColor(0x98, 0x68, 0x01));
    }

protected:
    void highlightBlock(const QString &text) override
    {
        if (!m_whole && !currentBlock().blockFormat().hasProperty(QTextFormat::BlockCodeFence))
            return;
        static const QRegularExpression keywords(QStringLiteral(
            "\\b(and|as|assert|async|await|break|case|class|continue|def|del|do|done|elif|else|"
            "esac|except|fi|finally|for|from|function|global|if|import|in|is|lambda|local|"
            "match|None|nonlocal|not|or|pass|raise|return|then|True|False|try|while|with|"
            "yield)\\b"));
        static const QRegularExpression numbers(QStringLiteral("\\b\\d+(\\.\\d+)?\\b"));
        apply(text, keywords, m_keyword);
        apply(text, numbers, m_number);
        highlightStringsAndComment(text);
    }

private:
    void apply(const QString &text, const QRegularExpression &re, const QTextCharFormat &format)
    {
        auto it = re.globalMatch(text);
        while (it.hasNext()) {
            const auto m = it.next();
            setFormat(int(m.capturedStart()), int(m.capturedLength()), format);
        }
    }

    // Strings, then a comment that starts outside of them.
    void highlightStringsAndComment(const QString &text)
    {
        static const QRegularExpression strings(
            QStringLiteral("(\"([^\"\\\\]|\\\\.)*\"?|'([^'\\\\]|\\\\.)*'?)"));
        int commentFrom = -1;
        auto it = strings.globalMatch(text);
        int scanned = 0;
        while (it.hasNext()) {
            const auto m = it.next();
            const int hash = int(text.indexOf(QLatin1Char('#'), scanned));
            if (hash >= 0 && hash < m.capturedStart()) {
                commentFrom = hash;
                break;
            }
            setFormat(int(m.capturedStart()), int(m.capturedLength()), m_string);
            scanned = int(m.capturedEnd());
        }
        if (commentFrom < 0) {
            const int hash = int(text.indexOf(QLatin1Char('#'), scanned));
            if (hash >= 0)
                commentFrom = hash;
        }
        if (commentFrom >= 0)
            setFormat(commentFrom, int(text.size()) - commentFrom, m_comment);
    }

    bool m_whole;
    QTextCharFormat m_keyword, m_string, m_comment, m_number;
};

QFont codeFont()
{
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setPointSizeF(std::max(7.0, QApplication::font().pointSizeF() - 0.5));
    return font;
}

std::unique_ptr<QTextDocument> makeDocument(const QFont &font)
{
    auto doc = std::make_unique<InertDocument>();
    doc->setDefaultFont(font);
    doc->setDocumentMargin(0);
    return doc;
}

// Lays out one row from top to bottom: the header, then what the row's kind shows, then the
// body, the "more lines" note and the files.
class Builder
{
public:
    Builder(const QModelIndex &index,
            const TranscriptRowLayout::Style &style,
            TranscriptRowLayout &row)
        : m_index(index)
        , m_style(style)
        , m_row(row)
        , m_fm(style.font)
        , m_line(m_fm.height())
        , m_inner(style.width - 2 * Margin - 2 * Padding)
        , m_x(Margin + Padding)
        , m_y(Margin + Padding)
    {}

    void build(TranscriptRowLayout *previous, int *renderedChunks);

private:
    static constexpr int Margin = TranscriptRowLayout::Margin;
    static constexpr int Padding = TranscriptRowLayout::Padding;
    static constexpr int Gap = TranscriptRowLayout::Gap;

    QVariant data(int role) const { return m_index.data(role); }
    void plainBody(const QString &plain, const QFont &font)
    {
        m_body = makeDocument(font);
        m_body->setPlainText(plain);
    }
    void layoutAnswer(const QString &text, TranscriptRowLayout *previous, int *renderedChunks);
    void layoutReasoning();
    static std::unique_ptr<QTextDocument> takeUnchanged(TranscriptRowLayout &previous,
                                                        const QString &text,
                                                        qsizetype start,
                                                        qsizetype end);
    std::unique_ptr<QTextDocument> renderChunk(const QString &markdown) const;
    void layoutToolCard(const QString &text);
    void finish();

    const QModelIndex &m_index;
    const TranscriptRowLayout::Style &m_style;
    TranscriptRowLayout &m_row;
    const QFontMetrics m_fm;
    const int m_line;
    const int m_inner;
    const int m_x;
    int m_y;
    std::unique_ptr<QTextDocument> m_body; // the one document of a row that is not an answer
};

void Builder::build(TranscriptRowLayout *previous, int *renderedChunks)
{
    const auto kind = data(TranscriptModel::KindRole).value<TranscriptModel::Kind>();
    const QString text = data(TranscriptModel::TextRole).toString();
    m_row.headerRect = QRect(m_x, m_y, m_inner, m_line);
    m_y += m_line + Gap;
    switch (kind) {
    case TranscriptModel::Kind::User:
        m_row.header = TranscriptModel::tr("You");
        plainBody(text, m_style.font);
        break;
    case TranscriptModel::Kind::Assistant:
        m_row.header = TranscriptModel::tr("Sandcastle");
        if (data(TranscriptModel::StreamingRole).toBool())
            m_row.header += QStringLiteral(" …");
        layoutReasoning();
        layoutAnswer(text, previous, renderedChunks);
        break;
    case TranscriptModel::Kind::Tool:
        layoutToolCard(text);
        break;
    case TranscriptModel::Kind::Notice:
        m_row.header = TranscriptModel::tr("Note");
        plainBody(text, m_style.font);
        break;
    case TranscriptModel::Kind::Error:
        m_row.header = TranscriptModel::tr("Error");
        plainBody(text, m_style.font);
        if (data(TranscriptModel::RetryableRole).toBool()) {
            const int w = m_fm.horizontalAdvance(TranscriptDelegate::tr("Retry")) + 4 * Padding;
            m_row.retry = QRect(m_x + m_inner - w, m_row.headerRect.top(), w, m_line + Padding);
        }
        break;
    }
    finish();
}

void Builder::layoutReasoning()
{
    const QString reasoning = data(TranscriptModel::ReasoningRole).toString();
    if (reasoning.isEmpty())
        return;
    m_row.toggle = QRect(m_x, m_y, m_inner, m_line);
    m_y += m_line + Gap;
    if (!data(TranscriptModel::ExpandedRole).toBool())
        return;
    QFont font = m_style.font;
    font.setItalic(true);
    m_row.reasoning = makeDocument(font);
    m_row.reasoning->setPlainText(reasoning);
    m_row.reasoning->setTextWidth(m_inner - Padding);
    m_row.reasoningRect = QRect(
        m_x + Padding, m_y, m_inner - Padding, int(std::ceil(m_row.reasoning->size().height())));
    m_y += m_row.reasoningRect.height() + Gap;
}

void Builder::layoutAnswer(const QString &text, TranscriptRowLayout *previous, int *renderedChunks)
{
    int top = 0;
    const int chunkGap = m_line / 2;
    for (const auto &[start, end, complete] : MarkdownChunker::chunks(text)) {
        TranscriptRowLayout::Chunk chunk;
        chunk.start = start;
        chunk.end = end;
        chunk.complete = complete;
        if (complete && previous)
            chunk.doc = takeUnchanged(*previous, text, start, end);
        if (!chunk.doc) {
            chunk.doc = renderChunk(text.mid(start, end - start));
            ++*renderedChunks;
        }
        chunk.top = top;
        chunk.height = int(std::ceil(chunk.doc->size().height()));
        top += chunk.height + chunkGap;
        m_row.chunks.push_back(std::move(chunk));
    }
    m_row.chunkedText = text;
    if (!m_row.chunks.empty()) {
        m_row.body = QRect(m_x, m_y, m_inner, top - chunkGap);
        m_y += m_row.body.height() + Gap;
    }
}

// The same complete chunk as in the last rendering: kept as it was laid out.
std::unique_ptr<QTextDocument> Builder::takeUnchanged(TranscriptRowLayout &previous,
                                                      const QString &text,
                                                      qsizetype start,
                                                      qsizetype end)
{
    for (TranscriptRowLayout::Chunk &old : previous.chunks) {
        if (old.doc && old.complete && old.start == start && old.end == end
            && QStringView(previous.chunkedText).mid(start, end - start)
                   == QStringView(text).mid(start, end - start))
            return std::move(old.doc);
    }
    return {};
}

// Code blocks on a tinted ground, in the code font, coloured.
std::unique_ptr<QTextDocument> Builder::renderChunk(const QString &markdown) const
{
    const QColor base = m_style.palette.color(QPalette::Base);
    const QColor tint = mixColours(base, m_style.palette.color(QPalette::Text), 0.06);
    auto doc = makeDocument(m_style.font);
    doc->setMarkdown(markdown);
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next()) {
        if (!b.blockFormat().hasProperty(QTextFormat::BlockCodeFence))
            continue;
        QTextCursor c(b);
        QTextBlockFormat f;
        f.setBackground(tint);
        c.mergeBlockFormat(f);
    }
    new CodeHighlighter(doc.get(), false, m_style.dark);
    doc->setTextWidth(m_inner);
    return doc;
}

void Builder::layoutToolCard(const QString &text)
{
    m_row.header = data(TranscriptModel::ToolNameRole).toString();
    const QString status = data(TranscriptModel::StatusRole).toString();
    QStringList meta{statusText(status)};
    const int exitCode = data(TranscriptModel::ExitCodeRole).toInt();
    if (exitCode >= 0 && status != QLatin1String("running"))
        meta << TranscriptDelegate::tr("exit %1").arg(exitCode);
    const qint64 duration = data(TranscriptModel::DurationRole).toLongLong();
    if (duration >= 0)
        meta << durationText(duration);
    m_row.meta = meta.join(QStringLiteral(" · "));
    m_row.toggle = m_row.headerRect;
    if (TranscriptModel::runsCode(m_row.header)) {
        const int w
            = m_fm.horizontalAdvance(TranscriptDelegate::tr("Open in editor")) + 2 * Padding;
        m_row.open = QRect(m_row.headerRect.right() - w, m_row.headerRect.top(), w, m_line);
        m_row.toggle.setRight(m_row.open.left() - Gap);
    }
    QStringList lines = text.split(QLatin1Char('\n'));
    while (!lines.isEmpty() && lines.last().trimmed().isEmpty())
        lines.removeLast();
    const int keep
        = data(TranscriptModel::ExpandedRole).toBool() ? ExpandedCodeLines : CollapsedCodeLines;
    if (lines.size() > keep) {
        m_row.moreLines
            = TranscriptDelegate::tr("… %n more line(s)", nullptr, int(lines.size() - keep));
        lines = lines.mid(0, keep);
    }
    if (!lines.isEmpty()) {
        plainBody(lines.join(QLatin1Char('\n')), codeFont());
        new CodeHighlighter(m_body.get(), true, m_style.dark);
    }
    const QStringList files = data(TranscriptModel::FilesRole).toStringList();
    if (!files.isEmpty())
        m_row.files = TranscriptDelegate::tr("Files: %1").arg(files.join(QStringLiteral(", ")));
}

void Builder::finish()
{
    if (m_body) {
        m_body->setTextWidth(m_inner);
        TranscriptRowLayout::Chunk chunk;
        chunk.height = int(std::ceil(m_body->size().height()));
        chunk.doc = std::move(m_body);
        m_row.body = QRect(m_x, m_y, m_inner, chunk.height);
        m_y += m_row.body.height() + Gap;
        m_row.chunks.push_back(std::move(chunk));
    }
    if (!m_row.moreLines.isEmpty())
        m_y += m_line + Gap;
    if (!m_row.files.isEmpty()) {
        m_row.filesRect = QRect(m_x, m_y, m_inner, m_line);
        m_y += m_line + Gap;
    }
    m_y += Padding - Gap;
    m_row.frame = QRect(Margin, Margin, m_style.width - 2 * Margin, m_y - Margin);
    m_row.height = m_y + Margin;
}

} // namespace

QColor mixColours(const QColor &a, const QColor &b, qreal t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t),
                            float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

TranscriptRowLayout::~TranscriptRowLayout() = default;

std::unique_ptr<TranscriptRowLayout> TranscriptRowLayout::build(const QModelIndex &index,
                                                                const Style &style,
                                                                TranscriptRowLayout *previous,
                                                                int *renderedChunks)
{
    auto row = std::make_unique<TranscriptRowLayout>();
    row->revision = index.data(TranscriptModel::RevisionRole).toUInt();
    row->width = style.width;
    row->dark = style.dark;
    Builder(index, style, *row).build(previous, renderedChunks);
    return row;
}

QRect TranscriptRowLayout::chunkRect(const Chunk &chunk) const
{
    return {body.left(), body.top() + chunk.top, body.width(), chunk.height};
}

TranscriptRowLayout::Part TranscriptRowLayout::hitTest(const QPoint &pointInRow,
                                                       QString *link) const
{
    if (open.contains(pointInRow))
        return Part::OpenInEditor;
    if (retry.contains(pointInRow))
        return Part::Retry;
    if (toggle.contains(pointInRow))
        return Part::Toggle;
    for (const Chunk &chunk : chunks) {
        const QRect at = chunkRect(chunk);
        if (!at.contains(pointInRow))
            continue;
        const QString anchor
            = chunk.doc->documentLayout()->anchorAt(QPointF(pointInRow - at.topLeft()));
        if (!anchor.isEmpty()) {
            if (link)
                *link = anchor;
            return Part::Link;
        }
    }
    return Part::None;
}

QRect TranscriptRowLayout::partRect(Part part) const
{
    switch (part) {
    case Part::Toggle:
        return toggle;
    case Part::OpenInEditor:
        return open;
    case Part::Retry:
        return retry;
    case Part::Link:
    case Part::None:
        break;
    }
    return {};
}

} // namespace Sandcastle
