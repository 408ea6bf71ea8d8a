#include "workspacemodel.h"

#include <QDir>
#include <QFont>

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
