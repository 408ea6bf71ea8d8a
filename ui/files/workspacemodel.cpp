#include "workspacemodel.h"

#include <sandbox/blockingjobs.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFileIconProvider>
#include <QFileSystemWatcher>
#include <QFutureWatcher>
#include <QMimeData>
#include <QThreadPool>
#include <QUrl>
#include <QtConcurrent/QtConcurrentRun>

namespace Sandcastle {

namespace {

// Folders are read by a pool of their own, at a lower priority than the window's thread: on a
// machine of two cores, eight readers at full priority take the window's core from it.
constexpr int MaxListings = 2;
constexpr qint64 ApplyBudgetMs = 8;

QThreadPool *listingJobs()
{
    return applicationPool("sandcastleFolderListings", MaxListings);
}

using ListingPtr = std::shared_ptr<FolderListing::Listing>;

QString keyOf(const TreeNode &node)
{
    return node.isDir ? node.name + QLatin1Char('/') : node.name;
}

} // namespace

const WorkspaceModel::Icons &WorkspaceModel::icons() const
{
    if (!m_icons) {
        QFileIconProvider provider;
        Icons made;
        made.folder = provider.icon(QAbstractFileIconProvider::Folder);
        made.file = provider.icon(QAbstractFileIconProvider::File);
        // Ignored entries: the icons as the style draws them disabled.
        for (const int side : {16, 24, 32, 48}) {
            made.ignoredFolder.addPixmap(made.folder.pixmap(QSize(side, side), QIcon::Disabled));
            made.ignoredFile.addPixmap(made.file.pixmap(QSize(side, side), QIcon::Disabled));
        }
        m_icons = made;
    }
    return *m_icons;
}

WorkspaceModel::WorkspaceModel(QObject *parent)
    : QAbstractItemModel(parent)
    , m_watcher(new QFileSystemWatcher(this))
{
    m_applyTimer.setSingleShot(true);
    m_applyTimer.setInterval(0);
    connect(&m_applyTimer, &QTimer::timeout, this, &WorkspaceModel::applyReady);
    m_refreshTimer.setSingleShot(true);
    m_refreshTimer.setInterval(150);
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, &WorkspaceModel::refreshLater);
    connect(&m_refreshTimer, &QTimer::timeout, this, [this] {
        const QSet<QString> queue = std::exchange(m_refreshQueue, {});
        for (const QString &relative : queue) {
            TreeNode *folder = find(relative);
            if (!folder || !folder->isDir || !folder->loaded)
                continue;
            if (folder->loading) { // its listing may predate the change: read it again after
                m_refreshQueue.insert(relative);
                m_refreshTimer.start();
            } else {
                load(folder);
            }
        }
    });
}

WorkspaceModel::~WorkspaceModel() = default;

QModelIndex WorkspaceModel::setRootPath(const QString &path)
{
    beginResetModel();
    ++m_generation;
    m_loading = 0;
    m_toList.clear();
    m_ready.clear();
    if (!m_watcher->directories().isEmpty())
        m_watcher->removePaths(m_watcher->directories());
    m_refreshQueue.clear();
    m_rootPath = QDir::cleanPath(path);
    m_root = std::make_unique<TreeNode>();
    m_root->isDir = true;
    m_marks.clear();
    endResetModel();
    load(m_root.get());
    return {};
}

TreeNode *WorkspaceModel::nodeOf(const QModelIndex &index) const
{
    return index.isValid() ? static_cast<TreeNode *>(index.internalPointer()) : m_root.get();
}

QModelIndex WorkspaceModel::indexOf(const TreeNode *node, int column) const
{
    if (!node || !node->parent)
        return {};
    return createIndex(node->row, column, const_cast<TreeNode *>(node));
}

TreeNode *WorkspaceModel::child(const TreeNode *folder, const QString &name)
{
    for (const std::unique_ptr<TreeNode> &entry : folder->children) {
        if (entry->name == name)
            return entry.get();
    }
    return nullptr;
}

TreeNode *WorkspaceModel::find(const QString &relativePath) const
{
    TreeNode *node = m_root.get();
    const QStringList parts = relativePath.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    for (const QString &part : parts) {
        if (!node)
            return nullptr;
        node = child(node, part);
    }
    return node;
}

QModelIndex WorkspaceModel::index(const QString &absolutePath) const
{
    const QString path = QDir::cleanPath(absolutePath);
    if (!m_root || (path != m_rootPath && !path.startsWith(m_rootPath + QLatin1Char('/'))))
        return {};
    return indexOf(find(path.mid(m_rootPath.size() + 1)));
}

QModelIndex WorkspaceModel::reveal(const QString &relativePath)
{
    TreeNode *node = m_root.get();
    if (!node)
        return {};
    const QStringList parts = relativePath.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    for (const QString &part : parts) {
        if (!node->isDir)
            return {};
        if (!node->loaded) {
            load(node);
            return {};
        }
        node = child(node, part);
        if (!node)
            return {};
    }
    return indexOf(node);
}

QString WorkspaceModel::relativePath(const QModelIndex &index) const
{
    const TreeNode *node = nodeOf(index);
    return node ? node->relativePath() : QString();
}

QString WorkspaceModel::filePath(const QModelIndex &index) const
{
    const QString relative = relativePath(index);
    return relative.isEmpty() ? m_rootPath : m_rootPath + QLatin1Char('/') + relative;
}

bool WorkspaceModel::isDir(const QModelIndex &index) const
{
    const TreeNode *node = nodeOf(index);
    return node && node->isDir;
}

bool WorkspaceModel::isIgnored(const QModelIndex &index) const
{
    const TreeNode *node = nodeOf(index);
    return node && node->ignored;
}

void WorkspaceModel::load(TreeNode *folder)
{
    if (folder->loading)
        return;
    folder->loading = true;
    ++m_loading;
    m_toList.push_back(folder->relativePath());
    startListings();
}

void WorkspaceModel::startListings()
{
    while (m_listing < MaxListings && !m_toList.empty()) {
        const QString relative = m_toList.front();
        m_toList.pop_front();
        const TreeNode *folder = find(relative);
        if (!folder || !folder->isDir) {
            --m_loading;
            continue;
        }
        ++m_listing;
        const quint64 generation = m_generation;
        auto *job = new QFutureWatcher<ListingPtr>(this);
        connect(job, &QFutureWatcher<ListingPtr>::finished, this, [this, job, generation] {
            job->deleteLater();
            --m_listing;
            if (generation == m_generation) {
                m_ready.push_back(job->result());
                if (!m_applyTimer.isActive())
                    m_applyTimer.start();
            }
            startListings();
        });
        job->setFuture(QtConcurrent::run(listingJobs(),
                                         &FolderListing::list,
                                         m_rootPath,
                                         relative,
                                         folder->parent ? folder->parent->rules : GitIgnore(),
                                         folder->ignored));
    }
}

void WorkspaceModel::applyReady()
{
    // A few folders per turn of the event loop, so that many read at once never stall it.
    QElapsedTimer clock;
    clock.start();
    while (!m_ready.empty() && clock.elapsed() < ApplyBudgetMs) {
        const ListingPtr listing = m_ready.front();
        m_ready.pop_front();
        --m_loading;
        apply(listing);
    }
    if (!m_ready.empty())
        m_applyTimer.start();
}

void WorkspaceModel::apply(const ListingPtr &listing)
{
    TreeNode *folder = find(listing->folder);
    if (!folder || !folder->isDir)
        return;
    folder->loading = false;
    folder->rules = listing->rules;
    const bool firstRead = !folder->loaded;
    folder->loaded = true;
    std::vector<std::unique_ptr<TreeNode>> wanted;
    wanted.reserve(listing->entries.size());
    QHash<QString, TreeNode *> byKey;
    byKey.reserve(qsizetype(listing->entries.size()));
    for (std::unique_ptr<TreeNode> &entry : listing->entries) {
        if ((entry->ignored && !m_showIgnored) || (entry->internal && !m_showInternal))
            continue;
        byKey.insert(keyOf(*entry), entry.get());
        wanted.push_back(std::move(entry));
    }
    const QList<TreeNode *> restyled = removeGone(folder, byKey);
    insertNew(folder, wanted);
    for (TreeNode *node : restyled) {
        Q_EMIT dataChanged(indexOf(node), indexOf(node, ColumnCount - 1));
        if (node->isDir && node->loaded)
            refreshAll(node); // what lies below it is now (not) ignored too
    }
    const QString absolute
        = listing->folder.isEmpty() ? m_rootPath : m_rootPath + QLatin1Char('/') + listing->folder;
    if (firstRead)
        m_watcher->addPath(absolute);
    Q_EMIT directoryLoaded(absolute);
}

namespace {

void renumber(TreeNode *folder, std::size_t from)
{
    for (std::size_t i = from; i < folder->children.size(); ++i)
        folder->children[i]->row = int(i);
}

} // namespace

QList<TreeNode *> WorkspaceModel::removeGone(TreeNode *folder,
                                             const QHash<QString, TreeNode *> &wanted)
{
    // In runs from the end; what stays keeps its subtree and takes the flags read now.
    const QModelIndex parent = indexOf(folder);
    std::vector<std::unique_ptr<TreeNode>> &children = folder->children;
    QList<TreeNode *> restyled;
    for (int last = int(children.size()) - 1; last >= 0;) {
        if (const TreeNode *kept = wanted.value(keyOf(*children[std::size_t(last)]))) {
            TreeNode &old = *children[std::size_t(last)];
            if (old.ignored != kept->ignored || old.isLink != kept->isLink) {
                old.ignored = kept->ignored;
                old.isLink = kept->isLink;
                restyled << &old;
            }
            --last;
            continue;
        }
        int first = last;
        while (first > 0 && !wanted.contains(keyOf(*children[std::size_t(first - 1)])))
            --first;
        beginRemoveRows(parent, first, last);
        for (int i = first; i <= last; ++i)
            unwatch(children[std::size_t(i)].get());
        children.erase(children.begin() + first, children.begin() + last + 1);
        renumber(folder, std::size_t(first));
        endRemoveRows();
        last = first - 1;
    }
    return restyled;
}

void WorkspaceModel::insertNew(TreeNode *folder, std::vector<std::unique_ptr<TreeNode>> &wanted)
{
    // In runs, where each belongs among what stayed (both in the same order); a folder read for
    // the first time is one insertion.
    const QModelIndex parent = indexOf(folder);
    std::vector<std::unique_ptr<TreeNode>> &children = folder->children;
    std::size_t at = 0;
    for (std::size_t w = 0; w < wanted.size();) {
        if (at < children.size() && keyOf(*children[at]) == keyOf(*wanted[w])) {
            ++at;
            ++w;
            continue;
        }
        std::size_t end = w;
        const QString next = at < children.size() ? keyOf(*children[at]) : QString();
        while (end < wanted.size() && (next.isNull() || keyOf(*wanted[end]) != next))
            ++end;
        beginInsertRows(parent, int(at), int(at + (end - w)) - 1);
        for (std::size_t i = w; i < end; ++i)
            wanted[i]->parent = folder;
        children.insert(children.begin() + std::ptrdiff_t(at),
                        std::make_move_iterator(wanted.begin() + std::ptrdiff_t(w)),
                        std::make_move_iterator(wanted.begin() + std::ptrdiff_t(end)));
        renumber(folder, at);
        endInsertRows();
        at += end - w;
        w = end;
    }
}

void WorkspaceModel::unwatch(const TreeNode *node)
{
    if (!node->isDir || !node->loaded)
        return;
    m_watcher->removePath(m_rootPath + QLatin1Char('/') + node->relativePath());
    for (const std::unique_ptr<TreeNode> &entry : node->children)
        unwatch(entry.get());
}

void WorkspaceModel::refreshLater(const QString &absoluteFolder)
{
    const QString path = QDir::cleanPath(absoluteFolder);
    if (path == m_rootPath)
        m_refreshQueue.insert(QString());
    else if (path.startsWith(m_rootPath + QLatin1Char('/')))
        m_refreshQueue.insert(path.mid(m_rootPath.size() + 1));
    else
        return;
    m_refreshTimer.start();
}

void WorkspaceModel::refreshAll(TreeNode *folder)
{
    if (!folder->isDir || !folder->loaded)
        return;
    load(folder);
    for (const std::unique_ptr<TreeNode> &entry : folder->children)
        refreshAll(entry.get());
}

void WorkspaceModel::setShowIgnored(bool show)
{
    if (show == m_showIgnored)
        return;
    m_showIgnored = show;
    if (m_root)
        refreshAll(m_root.get());
}

void WorkspaceModel::setShowInternal(bool show)
{
    if (show == m_showInternal)
        return;
    m_showInternal = show;
    if (m_root)
        refreshAll(m_root.get());
}

void WorkspaceModel::marksChanged(const QSet<QString> &relativePaths)
{
    for (const QString &path : relativePaths) {
        if (const TreeNode *node = find(path); node && node->parent)
            Q_EMIT dataChanged(indexOf(node), indexOf(node, ColumnCount - 1));
    }
}

void WorkspaceModel::setChangedFiles(const QStringList &relativePaths)
{
    marksChanged(m_marks.setRunChanges(relativePaths));
}

bool WorkspaceModel::isChanged(const QModelIndex &index) const
{
    return index.isValid() && m_marks.isRunChange(relativePath(index));
}

void WorkspaceModel::setTurnChanges(const QStringList &relativePaths)
{
    marksChanged(m_marks.setTurnChanges(relativePaths));
}

bool WorkspaceModel::isTurnChanged(const QModelIndex &index) const
{
    return index.isValid() && m_marks.isTurnChange(relativePath(index));
}

void WorkspaceModel::setGitStatus(const GitStatus::Snapshot &snapshot)
{
    m_marks.setGitStatus(snapshot);
    // Every row read so far may have changed.
    QList<const TreeNode *> folders{m_root.get()};
    while (!folders.isEmpty()) {
        const TreeNode *folder = folders.takeLast();
        if (!folder || folder->children.empty())
            continue;
        const QModelIndex parent = indexOf(folder);
        Q_EMIT dataChanged(index(0, 0, parent),
                           index(int(folder->children.size()) - 1, ColumnCount - 1, parent));
        for (const std::unique_ptr<TreeNode> &entry : folder->children) {
            if (entry->isDir && entry->loaded)
                folders << entry.get();
        }
    }
}

std::optional<GitStatus::Change> WorkspaceModel::gitChange(const QModelIndex &index) const
{
    if (!index.isValid())
        return std::nullopt;
    return m_marks.gitChange(relativePath(index), isDir(index));
}

bool WorkspaceModel::hasGitChangesBelow(const QModelIndex &index) const
{
    return index.isValid() && isDir(index) && m_marks.hasGitChangesBelow(relativePath(index));
}

QStringList WorkspaceModel::deletedIn(const QModelIndex &folder) const
{
    return m_marks.deletedIn(relativePath(folder));
}

QModelIndex WorkspaceModel::index(int row, int column, const QModelIndex &parent) const
{
    const TreeNode *folder = nodeOf(parent);
    if (!folder || row < 0 || column < 0 || column >= ColumnCount
        || std::size_t(row) >= folder->children.size() || parent.column() > 0)
        return {};
    return createIndex(row, column, folder->children[std::size_t(row)].get());
}

QModelIndex WorkspaceModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    return indexOf(nodeOf(child)->parent);
}

int WorkspaceModel::rowCount(const QModelIndex &parent) const
{
    const TreeNode *folder = nodeOf(parent);
    return folder && parent.column() <= 0 ? int(folder->children.size()) : 0;
}

int WorkspaceModel::columnCount(const QModelIndex &parent) const
{
    return parent.column() > 0 ? 0 : ColumnCount;
}

bool WorkspaceModel::hasChildren(const QModelIndex &parent) const
{
    const TreeNode *folder = nodeOf(parent);
    if (!folder || !folder->isDir || parent.column() > 0)
        return false;
    return !folder->loaded || !folder->children.empty();
}

bool WorkspaceModel::canFetchMore(const QModelIndex &parent) const
{
    const TreeNode *folder = nodeOf(parent);
    return folder && folder->isDir && !folder->loaded && !folder->loading && parent.column() <= 0;
}

void WorkspaceModel::fetchMore(const QModelIndex &parent)
{
    if (canFetchMore(parent))
        load(nodeOf(parent));
}

QVariant WorkspaceModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    const TreeNode *node = nodeOf(index);
    const bool marked = !m_marks.isEmpty();
    const QString path = marked || role == Qt::ToolTipRole ? node->relativePath() : QString();
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        if (index.column() == StatusColumn)
            return marked ? m_marks.statusText(path, node->isDir) : QVariant();
        return node->name;
    case Qt::DecorationRole:
        if (index.column() != NameColumn)
            return {};
        if (node->ignored)
            return node->isDir ? icons().ignoredFolder : icons().ignoredFile;
        return node->isDir ? icons().folder : icons().file;
    case Qt::FontRole:
        return marked && index.column() == NameColumn ? m_marks.font(path) : QVariant();
    case Qt::ForegroundRole:
        if (index.column() == StatusColumn)
            return marked ? m_marks.statusColour(path, node->isDir) : QVariant();
        return m_marks.nameColour(path, node->isDir, node->ignored);
    case Qt::TextAlignmentRole:
        return index.column() == StatusColumn ? QVariant(int(Qt::AlignCenter)) : QVariant();
    case Qt::ToolTipRole:
        return (QStringList{path} + m_marks.tooltip(path, node->isDir, node->ignored))
            .join(QLatin1Char('\n'));
    default:
        return {};
    }
}

QVariant WorkspaceModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == NameColumn ? tr("Name") : tr("Git");
}

Qt::ItemFlags WorkspaceModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    const TreeNode *node = nodeOf(index);
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (!node->isDir)
        f |= Qt::ItemNeverHasChildren;
    if (!node->isDir && !node->isLink)
        f |= Qt::ItemIsDragEnabled;
    return f;
}

QStringList WorkspaceModel::mimeTypes() const
{
    return {QStringLiteral("text/uri-list")};
}

QMimeData *WorkspaceModel::mimeData(const QModelIndexList &indexes) const
{
    QList<QUrl> urls;
    for (const QModelIndex &index : indexes) {
        const TreeNode *node = index.isValid() ? nodeOf(index) : nullptr;
        if (node && index.column() == NameColumn && !node->isDir && !node->isLink)
            urls << QUrl::fromLocalFile(filePath(index));
    }
    if (urls.isEmpty())
        return nullptr;
    auto *data = new QMimeData;
    data->setUrls(urls);
    return data;
}

} // namespace Sandcastle
