#pragma once

#include <QWidget>

class QComboBox;
class QLineEdit;
class QListView;
class QMenu;

namespace Sandcastle {

class ConversationListModel;

// The conversations sidebar: a search box (full text over every message), the list, and the
// actions on a conversation (open, rename in place with F2, export, delete after asking).
// Thin: the window does the work it asks for.
class ConversationsPane : public QWidget
{
    Q_OBJECT
public:
    explicit ConversationsPane(ConversationListModel *model, QWidget *parent = nullptr);

    QListView *view() const { return m_view; }
    QLineEdit *searchBox() const { return m_search; }
    // "All folders" and each folder of the person's that conversations work in (shown only
    // when there is one).
    QComboBox *folderFilter() const { return m_folders; }
    // Fills the folder filter again from the model (after the list changed).
    void refreshFolders();
    void setCurrent(const QString &conversationId);
    // Asks before deleting; emits deleteRequested() only on a yes.
    void confirmDelete(const QString &conversationId);

Q_SIGNALS:
    void openRequested(const QString &conversationId);
    void newRequested();
    void deleteRequested(const QString &conversationId);
    void exportRequested(const QString &conversationId, bool bundle);

private:
    void showMenu(const QPoint &position);

    ConversationListModel *m_model;
    QLineEdit *m_search = nullptr;
    QListView *m_view = nullptr;
    QComboBox *m_folders = nullptr;
};

} // namespace Sandcastle
