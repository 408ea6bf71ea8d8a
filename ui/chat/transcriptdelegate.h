#pragma once

#include "renderbudget.h"
#include "transcriptrowlayout.h"

#include <QCache>
#include <QHash>
#include <QSet>
#include <QStyledItemDelegate>
#include <QTimer>

class QAbstractItemView;

namespace Sandcastle {

class Thumbnails;

// Paints the transcript's rows: messages rendered from Markdown (code blocks highlighted),
// reasoning behind a toggle, tool calls as collapsible cards with an "Open in editor" button,
// errors as banners with a Retry button. Rows are laid out by TranscriptRowLayout (cached by
// row and revision, so a repaint re-lays out only what changed) and painted by
// TranscriptPainter; the delegate turns clicks into the signals below.
//
// No turn of the event loop renders more text than its RenderBudget (a frame's worth): what is
// left waits in its row, shown at an estimated height, and is rendered on the turns after
// (what is on screen first), the window answering input in between.
class TranscriptDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    explicit TranscriptDelegate(QAbstractItemView *view);
    ~TranscriptDelegate() override;

    void paint(QPainter *painter,
               const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    // What a point in a row (relative to the row's top left corner) would do when clicked.
    using Hit = TranscriptRowLayout::Part;
    Hit hitTest(const QModelIndex &index, const QPoint &pointInRow, QString *link = nullptr) const;
    // Where a clickable part is, relative to the row (for tests and keyboard focus).
    QRect partRect(const QModelIndex &index, Hit part) const;
    // Forgets what was rendered (rows reset or the look changed).
    void clearCache();
    // Where the pictures of the images runs made come from (repainted as each is read).
    void setThumbnails(const Thumbnails *thumbnails);

    // How many pieces were rendered (not reused) since the delegate was made.
    int renderedChunks() const { return m_renderedChunks; }
    // Whether pieces wait to be rendered.
    bool isRendering() const { return !m_pending.isEmpty(); }

Q_SIGNALS:
    // A click on a row, not on any of its parts (a checkpoint's badge opens its review).
    void rowClicked(const QModelIndex &index);
    void openInEditorRequested(const QModelIndex &index);
    // The ways through a long text's cut (the row's text, whole).
    void openAsTextRequested(const QModelIndex &index);
    void saveAsRequested(const QModelIndex &index);
    // `tableStart`: where the table's header row starts in the row's text.
    void openTableAsCsvRequested(const QModelIndex &index, qsizetype tableStart);
    // Every piece waiting to be rendered is.
    void renderingFinished();
    void retryRequested();
    void linkActivated(const QString &url);
    // A run's image in its card was clicked: its path in the workspace.
    void imageActivated(const QString &relativePath);

protected:
    bool editorEvent(QEvent *event,
                     QAbstractItemModel *model,
                     const QStyleOptionViewItem &option,
                     const QModelIndex &index) override;

private:
    // The row laid out at the view's current width and palette.
    const TranscriptRowLayout &rendered(const QModelIndex &index) const;
    int contentWidth() const;
    // Where a row is in the viewport, however tall.
    QRect wholeRect(const QModelIndex &index) const;
    // Renders waiting pieces for one turn's budget; again on the next turn while any wait.
    void renderPending();

    QAbstractItemView *m_view = nullptr;
    const Thumbnails *m_thumbnails = nullptr;
    // Rendered documents of the rows last painted or measured (bounded), and the height of
    // every row (a few bytes each): a relayout of a long conversation, which asks every row
    // for its size, re-renders only the rows that changed.
    mutable QCache<int, TranscriptRowLayout> m_cache;
    struct Height
    {
        quint32 revision = 0;
        int width = 0;
        bool dark = false;
        int height = 0;
    };
    mutable QHash<int, Height> m_heights;
    mutable int m_renderedChunks = 0;
    mutable RenderBudget m_budget;
    mutable QSet<int> m_pending; // rows with pieces left to render
    mutable QSet<int> m_resized; // rows laid out anew at another height than the view knows
    mutable QTimer m_nextTurn;
};

} // namespace Sandcastle
