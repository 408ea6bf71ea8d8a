#include "transcriptrowlayout.h"

#include "thumbnails.h"

#include "renderbudget.h"
#include "transcriptdelegate.h"
#include "transcriptmodel.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QLocale>
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

using Look = PieceRenderer::Look;

MarkdownSplitter::Mode modeOf(Look look)
{
    return look == Look::Markdown ? MarkdownSplitter::Mode::Markdown
                                  : MarkdownSplitter::Mode::Plain;
}

// Whether the piece after `i` goes on with i's table: then the table's columns are fixed so the
// pieces line up.
bool tableGoesOn(const std::vector<MarkdownSplitter::Piece> &pieces, std::size_t i)
{
    return pieces[i].table >= 0 && i + 1 < pieces.size() && pieces[i + 1].continuesTable
           && pieces[i + 1].table == pieces[i].table;
}

// Code and plain pieces run on without a gap; Markdown blocks keep half a line between them,
// except where a piece goes on with the fence or table of the one before.
int gapBefore(const TranscriptRowLayout::Section &section, std::size_t i, int line)
{
    if (i == 0 || section.look != Look::Markdown || !section.chunks[i].piece.reopen.isEmpty())
        return 0;
    return line / 2;
}

} // namespace

// Lays out one row from top to bottom: the header, then what the row's kind shows, then its
// sections, the "more lines" note, the cut bar and the files.
class RowBuilder
{
public:
    RowBuilder(const QModelIndex &index,
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

    void build(TranscriptRowLayout *previous, RenderBudget &budget, int *renderedChunks);

    // Renders piece i of a section.
    static void render(TranscriptRowLayout &row,
                       TranscriptRowLayout::Section &section,
                       std::size_t i,
                       int *renderedChunks);
    // Stacks the sections' pieces and places what follows them.
    static void relayout(TranscriptRowLayout &row);

private:
    static constexpr int Margin = TranscriptRowLayout::Margin;
    static constexpr int Padding = TranscriptRowLayout::Padding;
    static constexpr int Gap = TranscriptRowLayout::Gap;

    QVariant data(int role) const { return m_index.data(role); }
    void layoutReasoning();
    void layoutToolCard(const QString &text);
    void fill(TranscriptRowLayout::Section &section,
              TranscriptRowLayout::Section *previous,
              RenderBudget &budget,
              int *renderedChunks);
    void describeCut();

    const QModelIndex &m_index;
    const TranscriptRowLayout::Style &m_style;
    TranscriptRowLayout &m_row;
    const QFontMetrics m_fm;
    const int m_line;
    const int m_inner;
    const int m_x;
    int m_y;
    bool m_showAll = false;
};

void RowBuilder::build(TranscriptRowLayout *previous, RenderBudget &budget, int *renderedChunks)
{
    const auto kind = data(TranscriptModel::KindRole).value<TranscriptModel::Kind>();
    const QString text = data(TranscriptModel::TextRole).toString();
    m_showAll = data(TranscriptModel::ShowAllRole).toBool();
    m_row.m_line = m_line;
    m_row.pieceStyle = {m_style.font, m_style.palette, m_style.dark, m_inner};
    m_row.headerRect = QRect(m_x, m_y, m_inner, m_line);
    m_y += m_line + Gap;
    m_row.body.text = text;
    switch (kind) {
    case TranscriptModel::Kind::User:
        m_row.header = TranscriptModel::tr("You");
        break;
    case TranscriptModel::Kind::Assistant:
        m_row.header = TranscriptModel::tr("Sandcastle");
        if (data(TranscriptModel::StreamingRole).toBool())
            m_row.header += QStringLiteral(" …");
        layoutReasoning();
        m_row.body.look = Look::Markdown;
        break;
    case TranscriptModel::Kind::Tool:
        layoutToolCard(text);
        break;
    case TranscriptModel::Kind::Notice:
        m_row.header = data(TranscriptModel::CheckpointRole).toInt() > 0
                           ? TranscriptModel::tr("Changes — click to review")
                           : TranscriptModel::tr("Note");
        break;
    case TranscriptModel::Kind::Error:
        m_row.header = TranscriptModel::tr("Error");
        if (data(TranscriptModel::RetryableRole).toBool()) {
            const int w = m_fm.horizontalAdvance(TranscriptDelegate::tr("Retry")) + 4 * Padding;
            m_row.retry = QRect(m_x + m_inner - w, m_row.headerRect.top(), w, m_line + Padding);
        }
        break;
    }
    m_row.m_bodyTop = m_y;
    if (!m_row.reasoning.text.isEmpty())
        fill(m_row.reasoning, previous ? &previous->reasoning : nullptr, budget, renderedChunks);
    if (!m_row.body.text.isEmpty())
        fill(m_row.body, previous ? &previous->body : nullptr, budget, renderedChunks);
    describeCut();
    relayout(m_row);
}

void RowBuilder::layoutReasoning()
{
    const QString reasoning = data(TranscriptModel::ReasoningRole).toString();
    if (reasoning.isEmpty())
        return;
    m_row.toggle = QRect(m_x, m_y, m_inner, m_line);
    m_y += m_line + Gap;
    if (!data(TranscriptModel::ExpandedRole).toBool())
        return;
    m_row.reasoning.look = Look::Plain;
    m_row.reasoning.text = reasoning;
}

// The pieces of a section shown: those before the display limits, or all; each rendered while
// the budget lasts, else left pending. Pieces of the previous layout whose text did not change
// are taken as they were.
void RowBuilder::fill(TranscriptRowLayout::Section &section,
                      TranscriptRowLayout::Section *previous,
                      RenderBudget &budget,
                      int *renderedChunks)
{
    const bool grows = previous && previous->look == section.look
                       && QStringView(section.text).startsWith(previous->text);
    section.splitter
        = grows ? std::move(previous->splitter) : MarkdownSplitter(modeOf(section.look));
    const std::vector<MarkdownSplitter::Piece> &pieces = section.splitter.split(section.text);
    int links = 0;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        const MarkdownSplitter::Piece &piece = pieces[i];
        const qsizetype size = piece.end - piece.start;
        if (!m_showAll && i > 0
            && (section.shownChars + size > TranscriptRowLayout::ShownChars
                || section.shownRows + piece.tableRows > TranscriptRowLayout::ShownTableRows
                || links + piece.links > TranscriptRowLayout::ShownLinks)) {
            section.hiddenTable = piece.table;
            break;
        }
        section.shownChars += size;
        section.shownRows += piece.tableRows;
        links += piece.links;
        TranscriptRowLayout::Chunk chunk;
        chunk.piece = piece;
        TranscriptRowLayout::Chunk *old
            = grows && i < previous->chunks.size() ? &previous->chunks[i] : nullptr;
        if (old && (old->piece.start != piece.start || !old->doc))
            old = nullptr;
        const bool unchanged
            = old && !old->pending && old->piece.complete && old->piece.end == piece.end;
        if (old && (unchanged || !budget.allows())) {
            // Kept as it was; a piece whose text grew shows its last rendering until its turn.
            chunk.doc = std::move(old->doc);
            chunk.pending = !unchanged;
            chunk.height = old->height;
        }
        section.chunks.push_back(std::move(chunk));
        if (!section.chunks.back().doc && budget.allows())
            render(m_row, section, i, renderedChunks);
        else if (!section.chunks.back().doc)
            section.chunks.back().height
                = PieceRenderer::estimateHeight(piece, section.look, m_row.pieceStyle);
    }
}

void RowBuilder::render(TranscriptRowLayout &row,
                        TranscriptRowLayout::Section &section,
                        std::size_t i,
                        int *renderedChunks)
{
    TranscriptRowLayout::Chunk &chunk = section.chunks[i];
    PieceRenderer::Style style = row.pieceStyle;
    if (&section == &row.reasoning) {
        style.font.setItalic(true);
        style.width -= Padding;
    }
    chunk.doc = PieceRenderer::render(
        section.text, chunk.piece, section.look, style, tableGoesOn(section.splitter.pieces(), i));
    chunk.pending = false;
    chunk.height = int(std::ceil(chunk.doc->size().height()));
    ++*renderedChunks;
}

// "Long answer: 500 of 20,000 table rows shown" and the ways to the rest.
void RowBuilder::describeCut()
{
    const TranscriptRowLayout::Section &body = m_row.body;
    if (!body.cut() && !m_row.reasoning.cut())
        return;
    const QLocale locale;
    if (body.cut()) {
        int rows = 0;
        for (const MarkdownSplitter::Piece &piece : body.splitter.pieces())
            rows += piece.tableRows;
        m_row.cutNote
            = rows > body.shownRows
                  ? TranscriptDelegate::tr("Long text: %1 of %2 table rows shown")
                        .arg(locale.toString(body.shownRows), locale.toString(rows))
                  : TranscriptDelegate::tr("Long text: %1 of %2 characters shown")
                        .arg(locale.toString(body.shownChars), locale.toString(body.text.size()));
    } else {
        m_row.cutNote = TranscriptDelegate::tr("Long reasoning: %1 of %2 characters shown")
                            .arg(locale.toString(m_row.reasoning.shownChars),
                                 locale.toString(m_row.reasoning.text.size()));
    }
}

void RowBuilder::layoutToolCard(const QString &text)
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
    // The first lines of the code; trailing blank lines are not "more".
    const int keep
        = data(TranscriptModel::ExpandedRole).toBool() ? ExpandedCodeLines : CollapsedCodeLines;
    qsizetype last = text.size();
    while (last > 0 && text.at(last - 1).isSpace())
        --last;
    const QStringView code = QStringView(text).left(last);
    qsizetype end = 0;
    int lines = 0;
    while (lines < keep && end < code.size()) {
        const qsizetype eol = code.indexOf(QLatin1Char('\n'), end);
        end = eol < 0 ? code.size() : eol + 1;
        ++lines;
    }
    const qsizetype more = end < code.size() ? code.mid(end).count(QLatin1Char('\n')) + 1 : 0;
    QStringView shown = code.left(end);
    if (shown.endsWith(QLatin1Char('\n')))
        shown.chop(1);
    m_row.body.look = Look::Code;
    m_row.body.text = shown.toString();
    if (more > 0)
        m_row.moreLines = TranscriptDelegate::tr("… %n more line(s)", nullptr, int(more));
    const QStringList files = data(TranscriptModel::FilesRole).toStringList();
    if (!files.isEmpty())
        m_row.files = TranscriptDelegate::tr("Files: %1").arg(files.join(QStringLiteral(", ")));
    for (const QString &image : Thumbnails::imagesOf(files))
        m_row.thumbs.push_back({image, {}});
}

// Each section's pieces one under the other, then what follows.
void RowBuilder::relayout(TranscriptRowLayout &row)
{
    const int x = Margin + Padding;
    const int inner = row.pieceStyle.width;
    int y = row.m_bodyTop;
    for (TranscriptRowLayout::Section *section : {&row.reasoning, &row.body}) {
        if (section->chunks.empty())
            continue;
        int top = 0;
        for (std::size_t i = 0; i < section->chunks.size(); ++i) {
            top += gapBefore(*section, i, row.m_line);
            section->chunks[i].top = top;
            top += section->chunks[i].height;
        }
        section->rect = section == &row.reasoning ? QRect(x + Padding, y, inner - Padding, top)
                                                  : QRect(x, y, inner, top);
        y += top + Gap;
    }
    row.placeTail(y, row.m_line);
}

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
                                                                RenderBudget &budget,
                                                                int *renderedChunks)
{
    auto row = std::make_unique<TranscriptRowLayout>();
    row->revision = index.data(TranscriptModel::RevisionRole).toUInt();
    row->width = style.width;
    row->dark = style.dark;
    RowBuilder(index, style, *row).build(previous, budget, renderedChunks);
    return row;
}

bool TranscriptRowLayout::hasPending() const
{
    for (const Section *section : {&reasoning, &body}) {
        for (const Chunk &chunk : section->chunks) {
            if (chunk.pending)
                return true;
        }
    }
    return false;
}

bool TranscriptRowLayout::renderPending(RenderBudget &budget,
                                        const QRect &visibleInRow,
                                        int *renderedChunks)
{
    bool rendered = false;
    // What shows first, then the rest in order.
    for (const bool onScreenOnly : {true, false}) {
        for (Section *section : {&reasoning, &body}) {
            for (std::size_t i = 0; i < section->chunks.size(); ++i) {
                Chunk &chunk = section->chunks[i];
                if (!chunk.pending
                    || (onScreenOnly && !chunkRect(*section, chunk).intersects(visibleInRow)))
                    continue;
                if (!budget.allows())
                    break;
                RowBuilder::render(*this, *section, i, renderedChunks);
                rendered = true;
            }
        }
    }
    if (!rendered)
        return false;
    const int before = height;
    RowBuilder::relayout(*this);
    return height != before;
}

void TranscriptRowLayout::placeTail(int top, int line)
{
    const int x = Margin + Padding;
    const int inner = pieceStyle.width;
    int y = top;
    if (!moreLines.isEmpty()) {
        moreLinesRect = QRect(x, y, inner, line);
        y += line + Gap;
    }
    if (!cutNote.isEmpty()) {
        cutRect = QRect(x, y, inner, line);
        y += line + Gap;
        // The ways through, as links in a row.
        cutButtons = {{Part::ShowAll, TranscriptDelegate::tr("Show all"), {}},
                      {Part::OpenAsText, TranscriptDelegate::tr("Open as text"), {}},
                      {Part::SaveAs, TranscriptDelegate::tr("Save as…"), {}}};
        if (body.hiddenTable >= 0)
            cutButtons.push_back(
                {Part::OpenTableAsCsv, TranscriptDelegate::tr("Open table as CSV"), {}});
        const QFontMetrics fm(pieceStyle.font);
        int left = x;
        for (CutButton &button : cutButtons) {
            const int w = fm.horizontalAdvance(button.label) + 2 * Padding;
            button.rect = QRect(left, y, w, line);
            left += w + Gap;
        }
        y += line + Gap;
    }
    if (!files.isEmpty()) {
        filesRect = QRect(x, y, inner, line);
        y += line + Gap;
    }
    if (!thumbs.empty()) {
        const QSize box = Thumbnails::Box;
        int left = x;
        for (Thumb &thumb : thumbs) {
            if (left > x && left + box.width() > x + inner) { // the next line of pictures
                left = x;
                y += box.height() + Gap;
            }
            thumb.rect = QRect(QPoint(left, y), box);
            left += box.width() + Gap;
        }
        y += box.height() + Gap;
    }
    y += Padding - Gap;
    frame = QRect(Margin, Margin, width - 2 * Margin, y - Margin);
    height = y + Margin;
}

QRect TranscriptRowLayout::chunkRect(const Section &section, const Chunk &chunk) const
{
    return {
        section.rect.left(), section.rect.top() + chunk.top, section.rect.width(), chunk.height};
}

TranscriptRowLayout::Part TranscriptRowLayout::hitTest(const QPoint &pointInRow,
                                                       QString *link) const
{
    for (const Part part : {Part::OpenInEditor,
                            Part::Retry,
                            Part::Toggle,
                            Part::ShowAll,
                            Part::OpenAsText,
                            Part::SaveAs,
                            Part::OpenTableAsCsv}) {
        if (partRect(part).contains(pointInRow))
            return part;
    }
    for (const Thumb &thumb : thumbs) {
        if (thumb.rect.contains(pointInRow)) {
            if (link)
                *link = thumb.path;
            return Part::Thumbnail;
        }
    }
    for (const Section *section : {&reasoning, &body}) {
        for (const Chunk &chunk : section->chunks) {
            const QRect at = chunkRect(*section, chunk);
            if (!chunk.doc || chunk.pending || !at.contains(pointInRow))
                continue;
            const QString anchor
                = chunk.doc->documentLayout()->anchorAt(QPointF(pointInRow - at.topLeft()));
            if (!anchor.isEmpty()) {
                if (link)
                    *link = anchor;
                return Part::Link;
            }
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
    case Part::ShowAll:
    case Part::OpenAsText:
    case Part::SaveAs:
    case Part::OpenTableAsCsv:
        for (const CutButton &button : cutButtons) {
            if (button.part == part)
                return button.rect;
        }
        break;
    case Part::Thumbnail:
        return thumbs.empty() ? QRect() : thumbs.front().rect;
    case Part::Link:
    case Part::None:
        break;
    }
    return {};
}

} // namespace Sandcastle
