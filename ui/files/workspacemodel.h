#pragma once

#include "folderlisting.h"
#include "treemarks.h"

#include <app/gitstatus.h>

#include <QAbstractItemModel>
#include <QHash>
#include <QIcon>
#include <QSet>
#include <QTimer>

#include <deque>
#include <memory>
#include <optional>

class QFileSystemWatcher;

namespace Sandcastle {

// The project tree: a folder read lazily, one folder at a time off the UI thread (a folder of
// ten thousand files arrives as one insertion), kept up to date as files come and go. Entries a
// .gitignore ignores are grey, or left out when ignored files are hidden; `.git` and the
// root's `.sandcastle` are never shown. On top: the files the last run made (bold), those the
// agent changed in the last turn (italic), and git's status of each file against HEAD (a
// letter in the second column, the name coloured; a folder shows a dot when something below it
// changed, and names its deleted files in its tooltip).
class WorkspaceModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column { NameColumn, StatusColumn, ColumnCount };

    explicit WorkspaceModel(QObject *parent = nullptr);
    ~WorkspaceModel() override;

    // Shows `path` (its root is the invisible root: the view's root index stays invalid).
    QModelIndex setRootPath(const QString &path);
    QString rootPath() const { return m_rootPath; }

    // The index of an absolute path, when the folders on its way have been read.
    QModelIndex index(const QString &absolutePath) const;
    // The same for a path relative to the root; when a folder on the way has not been read
    // yet, starts reading it and returns an invalid index (ask again on directoryLoaded).
    QModelIndex reveal(const QString &relativePath);
    QString filePath(const QModelIndex &index) const;
    QString relativePath(const QModelIndex &index) const;
    bool isDir(const QModelIndex &index) const;
    bool isIgnored(const QModelIndex &index) const;
    bool isLoading() const { return m_loading > 0; }

    void setShowIgnored(bool show);
    bool showIgnored() const { return m_showIgnored; }
    // Sandcastle's own .sandcastle folder (run logs, environment state): hidden by default.
    void setShowInternal(bool show);
    bool showInternal() const { return m_showInternal; }

    // Paths relative to the root; each replaces the previous set.
    void setChangedFiles(const QStringList &relativePaths);
    bool isChanged(const QModelIndex &index) const;
    void setTurnChanges(const QStringList &relativePaths);
    bool isTurnChanged(const QModelIndex &index) const;
    void setGitStatus(const GitStatus::Snapshot &snapshot);
    // The change git reports for an entry (a folder: none; see hasGitChangesBelow).
    std::optional<GitStatus::Change> gitChange(const QModelIndex &index) const;
    bool hasGitChangesBelow(const QModelIndex &index) const;
    QStringList deletedIn(const QModelIndex &folder) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    // Dragging out hands over regular files only: a link the code planted (to ~/.ssh, say)
    // is not draggable, and never part of what is dropped on the desktop.
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QStringList mimeTypes() const override;
    QMimeData *mimeData(const QModelIndexList &indexes) const override;

Q_SIGNALS:
    // A folder's entries were read (its absolute path).
    void directoryLoaded(const QString &path);

private:
    TreeNode *nodeOf(const QModelIndex &index) const;
    QModelIndex indexOf(const TreeNode *node, int column = 0) const;
    TreeNode *find(const QString &relativePath) const;
    static TreeNode *child(const TreeNode *folder, const QString &name);
    void load(TreeNode *folder);
    void startListings();
    void applyReady();
    void apply(const std::shared_ptr<FolderListing::Listing> &listing);
    // The rows of `folder` not in `wanted` (by name and kind) go; returns those whose flags
    // changed.
    QList<TreeNode *> removeGone(TreeNode *folder, const QHash<QString, TreeNode *> &wanted);
    void insertNew(TreeNode *folder, std::vector<std::unique_ptr<TreeNode>> &wanted);
    void unwatch(const TreeNode *node);
    void refreshLater(const QString &absoluteFolder);
    void refreshAll(TreeNode *folder);
    void marksChanged(const QSet<QString> &relativePaths);

    QString m_rootPath;
    std::unique_ptr<TreeNode> m_root;
    quint64 m_generation = 0;
    int m_loading = 0; // folders asked for and not yet shown
    int m_listing = 0; // being read now
    std::deque<QString> m_toList;
    std::deque<std::shared_ptr<FolderListing::Listing>> m_ready;
    QTimer m_applyTimer;
    bool m_showIgnored = true;
    bool m_showInternal = false;
    QFileSystemWatcher *m_watcher = nullptr;
    QTimer m_refreshTimer;
    QSet<QString> m_refreshQueue; // relative folders
    TreeMarks m_marks;
    struct Icons
    {
        QIcon folder;
        QIcon file;
        QIcon ignoredFolder;
        QIcon ignoredFile;
    };
    // Made when the first entry is shown: the style's icons load the image plugins, which the
    // window's first frame (an empty folder, as often as not) does not need.
    const Icons &icons() const;
    mutable std::optional<Icons> m_icons;
};

} // namespace Sandcastle
