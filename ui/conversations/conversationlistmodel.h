#pragma once

#include <app/store/conversationstore.h>

#include <QAbstractListModel>

namespace Sandcastle {

// The stored conversations as a list, newest first; with a filter, the conversations whose
// messages match it (the store's full-text search), best match first (newest first when a word is
// so common that thousands match), each with a snippet. A conversation working in a folder of the
// person's names it; the list can show one folder's.
class ConversationListModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role {
        IdRole = Qt::UserRole + 1,
        UpdatedRole,
        SnippetRole,
        MessageCountRole,
        FolderRole, // the person's folder it works in; empty for one of Sandcastle's own
    };

    explicit ConversationListModel(ConversationStore *store, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    // Renames in the store (the title is edited in place).
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;

    void setFilter(const QString &text);
    QString filter() const { return m_filter; }
    // Only the conversations working in `folder` (empty: all).
    void setFolderFilter(const QString &folder);
    QString folderFilter() const { return m_folderFilter; }
    // The person's folders the stored conversations work in, sorted.
    QStringList folders() const { return m_folders; }
    // Reads the store again (after a message, a rename, a delete).
    void refresh();
    int rowOf(const QString &conversationId) const;
    QString idAt(int row) const;
    QString lastError() const { return m_lastError; }

private:
    struct Row
    {
        QString id;
        QString title;
        qint64 updatedMs = 0;
        int messageCount = 0;
        QString snippet;
        QString folder;
    };
    QList<Row> load();

    ConversationStore *m_store;
    QString m_filter;
    QString m_folderFilter;
    QStringList m_folders;
    QList<Row> m_rows;
    QString m_lastError;
};

} // namespace Sandcastle
