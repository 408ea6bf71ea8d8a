#include "workspacemodel.h"

#include <QDir>
#include <QFileInfo>
#include <QFont>
#include <QMimeData>

namespace Sandcastle {

void WorkspaceModel::setChangedFiles(const QStringList &relativePaths)
{
    QSet<QString> changed;
    const QDir root(rootPath());
    for (const QString &relative : relativePaths)
        changed.insert(QDir::cleanPath(root.filePath(relative)));
    const QSet<QString> touched = changed + m_changed;
    m_changed = changed;
    for (const QString &path : touched) {
        const QModelIndex i = index(path);
        if (i.isValid())
            Q_EMIT dataChanged(
                i, i.siblingAtColumn(columnCount() - 1), {Qt::FontRole, Qt::ToolTipRole});
    }
}

bool WorkspaceModel::isChanged(const QModelIndex &index) const
{
    return index.isValid() && m_changed.contains(QDir::cleanPath(filePath(index)));
}

Qt::ItemFlags WorkspaceModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags f = QFileSystemModel::flags(index);
    const QFileInfo info = fileInfo(index);
    if (!index.isValid() || info.isSymLink() || !info.isFile())
        f &= ~Qt::ItemIsDragEnabled;
    return f;
}

QMimeData *WorkspaceModel::mimeData(const QModelIndexList &indexes) const
{
    QModelIndexList files;
    for (const QModelIndex &index : indexes) {
        const QFileInfo info = fileInfo(index);
        if (index.column() == 0 && info.isFile() && !info.isSymLink())
            files << index;
    }
    return files.isEmpty() ? nullptr : QFileSystemModel::mimeData(files);
}

bool WorkspaceModel::insideRoot(const QModelIndex &index) const
{
    const QString root = QDir::cleanPath(rootPath());
    if (!index.isValid() || root == QLatin1String("."))
        return false;
    const QString path = QDir::cleanPath(filePath(index));
    return path == root
           || path.startsWith(root.endsWith(QLatin1Char('/')) ? root : root + QLatin1Char('/'));
}

bool WorkspaceModel::canFetchMore(const QModelIndex &parent) const
{
    return insideRoot(parent) && QFileSystemModel::canFetchMore(parent);
}

void WorkspaceModel::fetchMore(const QModelIndex &parent)
{
    if (insideRoot(parent))
        QFileSystemModel::fetchMore(parent);
}

QVariant WorkspaceModel::data(const QModelIndex &index, int role) const
{
    if ((role == Qt::FontRole || role == Qt::ToolTipRole) && index.column() == 0
        && isChanged(index)) {
        if (role == Qt::ToolTipRole)
            return tr("Made or changed by the last run");
        QFont font = QFileSystemModel::data(index, role).value<QFont>();
        font.setBold(true);
        return font;
    }
    return QFileSystemModel::data(index, role);
}

} // namespace Sandcastle
