#pragma once

#include <QCache>
#include <QHash>

#include <QStyledItemDelegate>
#include <vector>

class QAbstractItemView;
class QTextDocument;

namespace Sandcastle {

// Paints the transcript's rows: messages rendered from Markdown (code blocks highlighted),
// reasoning behind a toggle, tool calls as collapsible cards with an "Open in editor" button,
// errors as banners with a Retry button. Rendered documents are cached by row and revision,
// so a repaint re-lays out only what changed.
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
    enum class Hit { None, Toggle, OpenInEditor, Retry, Link };
    Hit hitTest(const QModelIndex &index, const QPoint &pointInRow, QString *link = nullptr) const;
    // Where a clickable part is, relative to the row (for tests and keyboard focus).
    QRect partRect(const QModelIndex &index, Hit part) const;
    // Forgets what was rendered (rows reset or the look changed).
    void clearCache();

    // Where an answer's Markdown is cut into pieces rendered on their own: after a blank line
    // outside a code fence that is followed by a line continuing no indented block (a list
    // item's second paragraph, indented code). All but the last piece are complete: while
    // the answer streams, their text no longer changes and they are not rendered again.
    struct MarkdownChunk
    {
        qsizetype start;
        qsizetype end;
        bool complete;
    };
    static std::vector<MarkdownChunk> markdownChunks(const QString &text);
    // How many Markdown pieces were rendered (not reused) since the delegate was made.
    int renderedChunks() const { return m_renderedChunks; }

Q_SIGNALS:
    void openInEditorRequested(const QModelIndex &index);
    void retryRequested();
    void linkActivated(const QString &url);

protected:
    bool editorEvent(QEvent *event,
                     QAbstractItemModel *model,
                     const QStyleOptionViewItem &option,
                     const QModelIndex &index) override;

private:
    struct Rendered;
    struct Layout;
    // The rendered documents and the geometry of a row at the view's current width.
    const Rendered &rendered(const QModelIndex &index) const;
    int contentWidth() const;

    QAbstractItemView *m_view = nullptr;
    // Rendered documents of the rows last painted or measured (bounded), and the height of
    // every row (a few bytes each): a relayout of a long conversation, which asks every row
    // for its size, re-renders only the rows that changed.
    mutable QCache<int, Rendered> m_cache;
    struct Height
    {
        quint32 revision = 0;
        int width = 0;
        bool dark = false;
        int height = 0;
    };
    mutable QHash<int, Height> m_heights;
    mutable int m_renderedChunks = 0;
};

} // namespace Sandcastle
