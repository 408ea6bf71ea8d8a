#pragma once

#include <base/gitignore.h>

#include <QString>

#include <memory>
#include <vector>

namespace Sandcastle {

// One entry of the project tree: a file or a folder, its place among its siblings, and for a
// folder the entries read so far. Made by FolderListing off the UI thread, then owned by the
// WorkspaceModel.
struct TreeNode
{
    QString name;
    TreeNode *parent = nullptr;
    int row = 0;
    bool isDir = false;
    bool isLink = false;
    bool ignored = false;  // by a .gitignore, or inside an ignored folder
    bool internal = false; // Sandcastle's own .sandcastle at the root (shown on request)
    // Folders only.
    bool loaded = false;
    bool loading = false;
    GitIgnore rules; // the rules that apply below this folder, its own .gitignore included
    std::vector<std::unique_ptr<TreeNode>> children;

    QString relativePath() const; // "" for the root
};

// Reading one folder of the tree, off the UI thread: its entries (never `.git`; `.sandcastle`
// at the root marked internal), each marked when a .gitignore ignores it, sorted as a person
// expects (folders first, then names in natural order, case aside).
namespace FolderListing {

struct Listing
{
    QString folder;  // relative to the root, "" for the root
    GitIgnore rules; // the rules below the folder, its .gitignore included
    std::vector<std::unique_ptr<TreeNode>> entries;
};

// `rules` are those of the folders above `folder`; `ignored`: the folder itself is ignored.
std::shared_ptr<Listing>
list(const QString &root, const QString &folder, const GitIgnore &rules, bool ignored);

// The order of siblings: negative when `a` comes first.
int compare(const TreeNode &a, const TreeNode &b);
int compareNames(const QString &a, const QString &b);

} // namespace FolderListing

} // namespace Sandcastle
