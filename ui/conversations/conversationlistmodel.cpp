#include "conversationlistmodel.h"

#include <QDateTime>
#include <QFileInfo>
#include <QSet>

namespace Sandcastle {

ConversationListModel::ConversationListModel(ConversationStore *store, QObject *parent)
    : QAbstractListModel(parent)
    , m_store(store)
{
    refresh();
}

int ConversationListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant ConversationListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() < 0 || index.row() >= m_rows.size())
        return {};
    const Row &row = m_rows.at(index.row());
    switch (role) {
    case Qt::EditRole:
        return row.title;
    case Qt::DisplayRole: {
        QString text = row.title;
        if (!row.folder.isEmpty())
            text += QLatin1Char('\n') + tr("in %1").arg(QFileInfo(row.folder).fileName());
        if (!row.snippet.isEmpty())
            text += QLatin1Char('\n') + row.snippet;
        return text;
    }
    case Qt::ToolTipRole: {
        QString tip = tr("%1\nlast change %2 · %n message(s)", nullptr, row.messageCount)
                          .arg(row.title,
                               QLocale().toString(QDateTime::fromMSecsSinceEpoch(row.updatedMs),
                                                  QLocale::ShortFormat));
        if (!row.folder.isEmpty())
            tip += QLatin1Char('\n') + tr("works in %1").arg(row.folder);
        return tip;
    }
    case FolderRole:
        return row.folder;
    case IdRole:
        return row.id;
    case UpdatedRole:
        return row.updatedMs;
    case SnippetRole:
        return row.snippet;
    case MessageCountRole:
        return row.messageCount;
    default:
        return {};
    }
}

QHash<int, QByteArray> ConversationListModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert(IdRole, "conversationId");
    names.insert(UpdatedRole, "updated");
    names.insert(SnippetRole, "snippet");
    names.insert(MessageCountRole, "messageCount");
    names.insert(FolderRole, "folder");
    return names;
}

Qt::ItemFlags ConversationListModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags f = QAbstractListModel::flags(index);
    if (index.isValid())
        f |= Qt::ItemIsEditable;
    return f;
}

bool ConversationListModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (!index.isValid() || role != Qt::EditRole || index.row() >= m_rows.size() || !m_store)
        return false;
    const QString title = value.toString().trimmed();
    const Result<bool> renamed = m_store->rename(m_rows.at(index.row()).id, title);
    if (!renamed) {
        m_lastError = renamed.error();
        return false;
    }
    m_rows[index.row()].title = title;
    Q_EMIT dataChanged(index, index);
    return true;
}

void ConversationListModel::setFilter(const QString &text)
{
    if (text.trimmed() == m_filter)
        return;
    m_filter = text.trimmed();
    refresh();
}

void ConversationListModel::setFolderFilter(const QString &folder)
{
    if (folder == m_folderFilter)
        return;
    m_folderFilter = folder;
    refresh();
}

void ConversationListModel::refresh()
{
    const QList<Row> rows = load();
    beginResetModel();
    m_rows = rows;
    endResetModel();
}

QList<ConversationListModel::Row> ConversationListModel::load()
{
    m_lastError.clear();
    QList<Row> rows;
    if (!m_store || !m_store->isOpen())
        return rows;
    const Result<QList<ConversationInfo>> all = m_store->list();
    if (!all) {
        m_lastError = all.error();
        return rows;
    }
    const auto folderOf = [](const ConversationInfo &c) {
        return c.ownsWorkspace ? QString() : c.workspace;
    };
    QSet<QString> folders;
    for (const ConversationInfo &c : all.value()) {
        if (!folderOf(c).isEmpty())
            folders.insert(folderOf(c));
    }
    m_folders = QStringList(folders.cbegin(), folders.cend());
    m_folders.sort();
    const auto keep = [this, folderOf](const ConversationInfo &c) {
        return m_folderFilter.isEmpty() || folderOf(c) == m_folderFilter;
    };
    if (m_filter.isEmpty()) {
        for (const ConversationInfo &c : all.value()) {
            if (keep(c))
                rows << Row{c.id, c.title, c.updatedMs, c.messageCount, QString(), folderOf(c)};
        }
        return rows;
    }
    QHash<QString, ConversationInfo> byId;
    for (const ConversationInfo &c : all.value())
        byId.insert(c.id, c);
    const Result<QList<SearchHit>> hits = m_store->search(m_filter, 200);
    if (!hits) {
        m_lastError = hits.error();
        return rows;
    }
    QSet<QString> seen;
    for (const SearchHit &hit : hits.value()) {
        if (seen.contains(hit.conversationId) || !byId.contains(hit.conversationId)
            || !keep(byId[hit.conversationId]))
            continue;
        seen.insert(hit.conversationId);
        const ConversationInfo &c = byId[hit.conversationId];
        rows << Row{
            c.id, c.title, c.updatedMs, c.messageCount, hit.snippet.simplified(), folderOf(c)};
    }
    // A title that matches counts too, even when no message does.
    for (const ConversationInfo &c : all.value()) {
        if (!seen.contains(c.id) && keep(c) && c.title.contains(m_filter, Qt::CaseInsensitive))
            rows << Row{c.id, c.title, c.updatedMs, c.messageCount, QString(), folderOf(c)};
    }
    return rows;
}

int ConversationListModel::rowOf(const QString &conversationId) const
{
    for (qsizetype i = 0; i < m_rows.size(); ++i) {
        if (m_rows.at(i).id == conversationId)
            return int(i);
    }
    return -1;
}

QString ConversationListModel::idAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? m_rows.at(row).id : QString();
}

} // namespace Sandcastle
