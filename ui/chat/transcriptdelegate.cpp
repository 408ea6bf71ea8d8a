#include "transcriptdelegate.h"

#include "transcriptmodel.h"
#include "transcriptpainter.h"

#include <ui/theme.h>

#include <QAbstractItemView>
#include <QMouseEvent>

namespace Sandcastle {

TranscriptDelegate::TranscriptDelegate(QAbstractItemView *view)
    : QStyledItemDelegate(view)
    , m_view(view)
    , m_cache(256)
{}

TranscriptDelegate::~TranscriptDelegate() = default;

void TranscriptDelegate::clearCache()
{
    m_cache.clear();
    m_heights.clear();
}

int TranscriptDelegate::contentWidth() const
{
    return std::max(120, m_view->viewport()->width());
}

const TranscriptRowLayout &TranscriptDelegate::rendered(const QModelIndex &index) const
{
    TranscriptRowLayout::Style style;
    style.width = contentWidth();
    style.dark = paletteIsDark(m_view->palette());
    const auto revision = index.data(TranscriptModel::RevisionRole).toUInt();
    // The same row at the same width and colours: its unchanged Markdown pieces are reused.
    TranscriptRowLayout *previous = m_cache.object(index.row());
    if (previous) {
        if (previous->revision == revision && previous->width == style.width
            && previous->dark == style.dark)
            return *previous;
        if (previous->width != style.width || previous->dark != style.dark)
            previous = nullptr;
    }
    style.font = m_view->font();
    style.palette = m_view->palette();
    TranscriptRowLayout *row
        = TranscriptRowLayout::build(index, style, previous, &m_renderedChunks).release();
    m_cache.insert(index.row(), row);
    return *row;
}

QSize TranscriptDelegate::sizeHint(const QStyleOptionViewItem &, const QModelIndex &index) const
{
    const int width = contentWidth();
    const auto revision = index.data(TranscriptModel::RevisionRole).toUInt();
    const bool dark = paletteIsDark(m_view->palette());
    const auto known = m_heights.constFind(index.row());
    if (known != m_heights.constEnd() && known->revision == revision && known->width == width
        && known->dark == dark)
        return {width, known->height};
    const TranscriptRowLayout &r = rendered(index);
    m_heights.insert(index.row(), {r.revision, r.width, r.dark, r.height});
    return {r.width, r.height};
}

void TranscriptDelegate::paint(QPainter *painter,
                               const QStyleOptionViewItem &option,
                               const QModelIndex &index) const
{
    TranscriptPainter(painter, option, index, rendered(index), m_view->viewport()->rect()).paint();
}

TranscriptDelegate::Hit
TranscriptDelegate::hitTest(const QModelIndex &index, const QPoint &pointInRow, QString *link) const
{
    if (!index.isValid())
        return Hit::None;
    return rendered(index).hitTest(pointInRow, link);
}

QRect TranscriptDelegate::partRect(const QModelIndex &index, Hit part) const
{
    if (!index.isValid())
        return {};
    return rendered(index).partRect(part);
}

bool TranscriptDelegate::editorEvent(QEvent *event,
                                     QAbstractItemModel *model,
                                     const QStyleOptionViewItem &option,
                                     const QModelIndex &index)
{
    if (event->type() != QEvent::MouseButtonRelease)
        return QStyledItemDelegate::editorEvent(event, model, option, index);
    auto *mouse = static_cast<QMouseEvent *>(event);
    if (mouse->button() != Qt::LeftButton)
        return false;
    QString link;
    switch (hitTest(index, mouse->position().toPoint() - option.rect.topLeft(), &link)) {
    case Hit::Toggle:
        if (auto *transcript = qobject_cast<TranscriptModel *>(model))
            transcript->toggleExpanded(index.row());
        return true;
    case Hit::OpenInEditor:
        Q_EMIT openInEditorRequested(index);
        return true;
    case Hit::Retry:
        Q_EMIT retryRequested();
        return true;
    case Hit::Link:
        Q_EMIT linkActivated(link);
        return true;
    case Hit::None:
        break;
    }
    return false;
}

} // namespace Sandcastle
