#pragma once

#include <QFileSystemModel>
#include <QSet>

namespace Sandcastle {

// The workspace tree, with the files the last run created or changed in bold.
class WorkspaceModel : public QFileSystemModel
{
    Q_OBJECT
public:
    using QFileSystemModel::QFileSystemModel;

    // Paths relative to the root path; replaces the previous run's.
    void setChangedFiles(const QStringList &relativePaths);
    bool isChanged(const QModelIndex &index) const;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    // Dragging out hands over regular files only: a link the code planted (to ~/.ssh, say)
    // is not draggable, and never part of what is dropped on the desktop.
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QMimeData *mimeData(const QModelIndexList &indexes) const override;
    // Only folders inside the workspace are listed: the tree shows nothing else, and a walk of
    // the whole model (QAbstractItemModelTester's, say) must not read the person's disk.
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

private:
    bool insideRoot(const QModelIndex &index) const;

    QSet<QString> m_changed; // absolute paths
};

} // namespace Sandcastle
