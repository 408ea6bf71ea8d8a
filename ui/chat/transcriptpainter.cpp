#include "transcriptpainter.h"

#include "thumbnails.h"

#include "transcriptdelegate.h"
#include "transcriptmodel.h"
#include "transcriptrowlayout.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QPainter>
#include <QPainterPath>
#include <QStyleOptionViewItem>
#include <QTextDocument>

namespace Sandcastle {

namespace {

using Kind = TranscriptModel::Kind;
constexpr int Padding = TranscriptRowLayout::Padding;
constexpr int Gap = TranscriptRowLayout::Gap;

QColor statusColour(const QString &status, bool dark)
{
    if (status == QLatin1String("ok"))
        return dark ? QColor(0x4c, 0xc3, 0x6a) : QColor(0x22, 0x86, 0x3a);
    if (status == QLatin1String("running"))
        return dark ? QColor(0xe3, 0xb3, 0x41) : QColor(0xb0, 0x80, 0x00);
    if (status == QLatin1String("error") || status == QLatin1String("timeout")
        || status == QLatin1String("out_of_memory") || status == QLatin1String("killed")
        || status == QLatin1String("engine_error"))
        return dark ? QColor(0xf8, 0x71, 0x71) : QColor(0xcb, 0x24, 0x31);
    return dark ? QColor(0x9a, 0x9e, 0xa5) : QColor(0x6a, 0x73, 0x7d);
}

} // namespace

TranscriptPainter::TranscriptPainter(QPainter *painter,
                                     const QStyleOptionViewItem &option,
                                     const QModelIndex &index,
                                     const TranscriptRowLayout &row,
                                     const QRect &visible,
                                     const Thumbnails *thumbnails)
    : m_painter(painter)
    , m_option(option)
    , m_index(index)
    , m_row(row)
    , m_thumbnails(thumbnails)
    , m_kind(index.data(TranscriptModel::KindRole).value<Kind>())
    , m_text(option.palette.color(QPalette::Text))
    , m_base(option.palette.color(QPalette::Base))
    , m_muted(mixColours(m_base, m_text, 0.6))
    , m_error(statusColour(QStringLiteral("error"), row.dark))
    , m_notice(statusColour(QStringLiteral("running"), row.dark))
{
    // Only what shows is drawn. The row is as tall as its layout says: QListView spaces rows by
    // their full height but gives the delegate a rectangle of at most 32,767 pixels.
    const QRect whole(option.rect.topLeft(), QSize(option.rect.width(), row.height));
    m_visible = visible.intersected(whole).translated(-option.rect.topLeft());
}

void TranscriptPainter::paint()
{
    m_painter->save();
    m_painter->translate(m_option.rect.topLeft());
    m_painter->setRenderHint(QPainter::Antialiasing);
    paintFrame();
    paintHeader();
    paintButtons();
    paintDocuments();
    paintFooter();
    m_painter->restore();
}

void TranscriptPainter::paintFrame()
{
    const QPalette &pal = m_option.palette;
    QColor fill = m_base;
    QColor border = Qt::transparent;
    switch (m_kind) {
    case Kind::User:
        fill = mixColours(m_base, pal.color(QPalette::Highlight), m_row.dark ? 0.22 : 0.10);
        break;
    case Kind::Tool:
        fill = mixColours(m_base, m_text, 0.04);
        border = mixColours(m_base, m_text, 0.18);
        break;
    case Kind::Error:
        fill = mixColours(m_base, m_error, 0.12);
        border = mixColours(m_base, m_error, 0.5);
        break;
    case Kind::Notice:
        fill = mixColours(m_base, m_notice, 0.12);
        border = mixColours(m_base, m_notice, 0.5);
        break;
    case Kind::Assistant:
        break;
    }
    if (m_option.state & QStyle::State_Selected)
        border = pal.color(QPalette::Highlight);
    m_painter->setPen(border == Qt::transparent ? Qt::NoPen : QPen(border, 1));
    m_painter->setBrush(fill);
    m_painter->drawRoundedRect(QRectF(m_row.frame).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
}

// A tool's chevron and status dot, before its name; returns where the name goes.
QRect TranscriptPainter::paintToolStatus(QRect header)
{
    const bool expanded = m_index.data(TranscriptModel::ExpandedRole).toBool();
    const QPointF c(header.left() + 5, header.center().y() + 0.5);
    QPainterPath chevron;
    if (expanded) {
        chevron.moveTo(c + QPointF(-4, -2));
        chevron.lineTo(c + QPointF(4, -2));
        chevron.lineTo(c + QPointF(0, 3));
    } else {
        chevron.moveTo(c + QPointF(-2, -4));
        chevron.lineTo(c + QPointF(3, 0));
        chevron.lineTo(c + QPointF(-2, 4));
    }
    chevron.closeSubpath();
    m_painter->setPen(Qt::NoPen);
    m_painter->setBrush(m_muted);
    m_painter->drawPath(chevron);
    const QString status = m_index.data(TranscriptModel::StatusRole).toString();
    m_painter->setBrush(statusColour(status, m_row.dark));
    m_painter->drawEllipse(QPointF(header.left() + 18, c.y()), 4, 4);
    header.setLeft(header.left() + 28);
    return header;
}

// The name, then for a tool what happened (status, exit code, duration).
void TranscriptPainter::paintHeader()
{
    QFont bold = m_option.font;
    bold.setBold(true);
    QRect header = m_row.headerRect;
    if (m_kind == Kind::Tool)
        header = paintToolStatus(header);
    m_painter->setFont(bold);
    m_painter->setPen(m_kind == Kind::Error ? m_error : m_kind == Kind::Notice ? m_notice : m_text);
    m_painter->drawText(header, Qt::AlignLeft | Qt::AlignVCenter, m_row.header);
    if (!m_row.meta.isEmpty()) {
        QRect meta = header;
        meta.setLeft(header.left() + QFontMetrics(bold).horizontalAdvance(m_row.header) + 2 * Gap);
        if (m_row.open.isValid())
            meta.setRight(m_row.open.left() - Gap);
        m_painter->setFont(m_option.font);
        m_painter->setPen(
            statusColour(m_index.data(TranscriptModel::StatusRole).toString(), m_row.dark));
        m_painter->drawText(
            meta,
            Qt::AlignLeft | Qt::AlignVCenter,
            QFontMetrics(m_option.font).elidedText(m_row.meta, Qt::ElideRight, meta.width()));
    }
    m_painter->setFont(m_option.font);
}

void TranscriptPainter::paintButtons()
{
    const QPalette &pal = m_option.palette;
    if (m_row.open.isValid()) {
        m_painter->setPen(pal.color(QPalette::Link));
        m_painter->drawText(m_row.open, Qt::AlignCenter, TranscriptDelegate::tr("Open in editor"));
    }
    if (m_row.retry.isValid()) {
        QStyleOptionButton button;
        button.rect = m_row.retry;
        button.text = TranscriptDelegate::tr("Retry");
        button.palette = pal;
        button.state = QStyle::State_Enabled | QStyle::State_Raised;
        QApplication::style()->drawControl(QStyle::CE_PushButton, &button, m_painter);
    }
    if (m_kind == Kind::Assistant && m_row.toggle.isValid()) {
        const bool shown = m_index.data(TranscriptModel::ExpandedRole).toBool();
        m_painter->setPen(m_muted);
        m_painter->drawText(m_row.toggle,
                            Qt::AlignLeft | Qt::AlignVCenter,
                            (shown ? QStringLiteral("▾ ") : QStringLiteral("▸ "))
                                + (shown ? TranscriptDelegate::tr("Hide reasoning")
                                         : TranscriptDelegate::tr("Show reasoning")));
    }
}

void TranscriptPainter::drawDocument(QTextDocument *doc, const QRect &rect, const QColor &colour)
{
    if (!doc || !rect.intersects(m_visible))
        return;
    m_painter->save();
    m_painter->translate(rect.topLeft());
    QAbstractTextDocumentLayout::PaintContext context;
    context.palette = m_option.palette;
    context.palette.setColor(QPalette::Text, colour);
    context.clip = QRectF(rect.intersected(m_visible).translated(-rect.topLeft()));
    m_painter->setClipRect(context.clip);
    doc->documentLayout()->draw(m_painter, context);
    m_painter->restore();
}

void TranscriptPainter::paintSection(const TranscriptRowLayout::Section &section,
                                     const QColor &colour)
{
    for (const TranscriptRowLayout::Chunk &chunk : section.chunks) {
        const QRect at = m_row.chunkRect(section, chunk);
        if (chunk.doc) {
            drawDocument(chunk.doc.get(), at, colour);
        } else if (at.intersects(m_visible)) {
            // Its place, until its turn to be rendered comes (a frame or two).
            m_painter->setPen(m_muted);
            m_painter->drawText(at, Qt::AlignLeft | Qt::AlignTop, TranscriptDelegate::tr("…"));
        }
    }
}

void TranscriptPainter::paintDocuments()
{
    if (!m_row.reasoning.chunks.empty()) {
        const QRect &at = m_row.reasoning.rect;
        m_painter->setPen(mixColours(m_base, m_text, 0.25));
        m_painter->drawLine(
            at.left() - Padding / 2, at.top(), at.left() - Padding / 2, at.bottom());
        paintSection(m_row.reasoning, m_muted);
    }
    paintSection(m_row.body, m_kind == Kind::Error ? m_error : m_text);
}

// "… 12 more lines" under a cut card, what of a long text shows and the ways to the rest, and
// the files a run made.
void TranscriptPainter::paintFooter()
{
    const QFontMetrics fm(m_option.font);
    if (!m_row.moreLines.isEmpty()) {
        m_painter->setPen(m_muted);
        m_painter->drawText(m_row.moreLinesRect, Qt::AlignLeft | Qt::AlignVCenter, m_row.moreLines);
    }
    if (!m_row.cutNote.isEmpty()) {
        m_painter->setPen(m_muted);
        m_painter->drawText(m_row.cutRect,
                            Qt::AlignLeft | Qt::AlignVCenter,
                            fm.elidedText(m_row.cutNote, Qt::ElideRight, m_row.cutRect.width()));
        const QColor link = m_option.palette.color(QPalette::Link);
        const QColor ground = mixColours(m_base, link, 0.10);
        for (const TranscriptRowLayout::CutButton &button : m_row.cutButtons) {
            m_painter->setPen(Qt::NoPen);
            m_painter->setBrush(ground);
            m_painter->drawRoundedRect(QRectF(button.rect), 4, 4);
            m_painter->setPen(link);
            m_painter->drawText(button.rect, Qt::AlignCenter, button.label);
        }
    }
    if (m_row.filesRect.isValid()) {
        m_painter->setPen(m_muted);
        m_painter->drawText(m_row.filesRect,
                            Qt::AlignLeft | Qt::AlignVCenter,
                            fm.elidedText(m_row.files, Qt::ElideMiddle, m_row.filesRect.width()));
    }
    paintThumbnails();
}

// The images a run made, each in a framed box: the picture when it has been read, its name
// while it is read or when it cannot be shown.
void TranscriptPainter::paintThumbnails()
{
    const QFontMetrics fm(m_option.font);
    for (const TranscriptRowLayout::Thumb &thumb : m_row.thumbs) {
        const QImage image = m_thumbnails ? m_thumbnails->image(thumb.path) : QImage();
        m_painter->setPen(mixColours(m_base, m_text, 0.25));
        m_painter->setBrush(mixColours(m_base, m_text, 0.04));
        m_painter->drawRoundedRect(QRectF(thumb.rect).adjusted(0.5, 0.5, -0.5, -0.5), 3, 3);
        if (!image.isNull()) {
            const QSizeF size = image.deviceIndependentSize();
            const QRectF inner = QRectF(thumb.rect).adjusted(2, 2, -2, -2);
            const QSizeF fitted = size.scaled(inner.size(), Qt::KeepAspectRatio);
            QRectF at(QPointF(),
                      size.width() > inner.width() || size.height() > inner.height() ? fitted
                                                                                     : size);
            at.moveCenter(inner.center());
            m_painter->drawImage(at, image);
        } else {
            m_painter->setPen(m_muted);
            const QString name = thumb.path.section(QLatin1Char('/'), -1);
            m_painter->drawText(thumb.rect.adjusted(4, 4, -4, -4),
                                Qt::AlignCenter | Qt::TextWrapAnywhere,
                                fm.elidedText(name, Qt::ElideMiddle, thumb.rect.width() - 8));
        }
    }
}

} // namespace Sandcastle
