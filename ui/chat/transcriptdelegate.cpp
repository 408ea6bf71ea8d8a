#include "transcriptdelegate.h"

#include "thumbnails.h"

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
{
    // Zero: the next turn of the event loop, after the input and paint events waiting.
    m_nextTurn.setSingleShot(true);
    m_nextTurn.setInterval(0);
    connect(&m_nextTurn, &QTimer::timeout, this, &TranscriptDelegate::renderPending);
}

TranscriptDelegate::~TranscriptDelegate() = default;

void TranscriptDelegate::clearCache()
{
    m_cache.clear();
    m_heights.clear();
    m_pending.clear();
    m_resized.clear();
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
    m_budget.allows(); // opens the turn
    m_nextTurn.start();
    TranscriptRowLayout *row
        = TranscriptRowLayout::build(index, style, previous, m_budget, &m_renderedChunks).release();
    const auto known = m_heights.constFind(index.row());
    if (known != m_heights.constEnd() && known->height != row->height) {
        m_heights.insert(index.row(), {row->revision, row->width, row->dark, row->height});
        m_resized.insert(index.row()); // told on the next turn, not while the view lays out
    }
    if (row->hasPending())
        m_pending.insert(index.row());
    else
        m_pending.remove(index.row());
    m_cache.insert(index.row(), row);
    return *row;
}

QRect TranscriptDelegate::wholeRect(const QModelIndex &index) const
{
    // QListView's rectangles are at most 32,767 pixels tall; its rows are as tall as they are.
    const QRect at = m_view->visualRect(index);
    const auto known = m_heights.constFind(index.row());
    return known == m_heights.constEnd() ? at
                                         : QRect(at.topLeft(), QSize(at.width(), known->height));
}

void TranscriptDelegate::renderPending()
{
    m_budget.close();
    QAbstractItemModel *model = m_view->model();
    const QSet<int> resized = std::exchange(m_resized, {});
    for (const int row : resized)
        Q_EMIT sizeHintChanged(model->index(row, 0));
    if (m_pending.isEmpty())
        return;
    const QRect viewport = m_view->viewport()->rect();
    // The rows on screen first.
    QList<int> rows = m_pending.values();
    const auto shows = [&](int row) {
        return wholeRect(model->index(row, 0)).intersects(viewport);
    };
    std::sort(rows.begin(), rows.end(), [&](int a, int b) {
        const bool aShows = shows(a);
        const bool bShows = shows(b);
        return aShows != bShows ? aShows : a < b;
    });
    for (const int row : rows) {
        if (!m_budget.allows())
            break;
        const QModelIndex index = model->index(row, 0);
        // Asking the view where a row is may lay it out, and lay rows out anew in the cache:
        // the row's layout is taken from the cache after, and nothing calls the view until it
        // is done with.
        const QRect at = index.isValid() ? wholeRect(index) : QRect();
        TranscriptRowLayout *layout = m_cache.object(row);
        if (!layout || !index.isValid()) {
            m_pending.remove(row); // forgotten: laid out anew when it is needed
            continue;
        }
        const bool heightChanged = layout->renderPending(
            m_budget, viewport.intersected(at).translated(-at.topLeft()), &m_renderedChunks);
        if (heightChanged)
            m_heights.insert(row, {layout->revision, layout->width, layout->dark, layout->height});
        if (!layout->hasPending())
            m_pending.remove(row);
        if (heightChanged)
            Q_EMIT sizeHintChanged(index);
        m_view->viewport()->update(at.intersected(viewport));
    }
    if (m_pending.isEmpty())
        Q_EMIT renderingFinished();
    else
        m_nextTurn.start();
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
    TranscriptPainter(
        painter, option, index, rendered(index), m_view->viewport()->rect(), m_thumbnails)
        .paint();
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

void TranscriptDelegate::setThumbnails(const Thumbnails *thumbnails)
{
    m_thumbnails = thumbnails;
    connect(thumbnails, &Thumbnails::ready, m_view->viewport(), [this] {
        m_view->viewport()->update();
    });
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
    case Hit::ShowAll:
        if (auto *transcript = qobject_cast<TranscriptModel *>(model))
            transcript->setShowAll(index.row());
        return true;
    case Hit::OpenAsText:
        Q_EMIT openAsTextRequested(index);
        return true;
    case Hit::SaveAs:
        Q_EMIT saveAsRequested(index);
        return true;
    case Hit::OpenTableAsCsv:
        Q_EMIT openTableAsCsvRequested(index, rendered(index).body.hiddenTable);
        return true;
    case Hit::Thumbnail:
        Q_EMIT imageActivated(link);
        return true;
    case Hit::None:
        Q_EMIT rowClicked(index);
        break;
    }
    return false;
}

} // namespace Sandcastle
