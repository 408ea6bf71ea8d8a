#pragma once

#include <nlohmann/json.hpp>

#include <QString>

#include <functional>

namespace Sandcastle::FileSearch {

// Walks a workspace as a person's project is walked: `.git/` and Sandcastle's `.sandcastle/`
// are never entered, what the tree's .gitignore files ignore is left out (ignored folders are
// not entered: each is reported once, as a folder), symbolic links are named but never
// followed. Paths are relative, '/'-separated; folders come before their contents, entries of
// a folder in name order. `visit` returns false to stop the walk.
struct Entry
{
    QString path;
    bool isDir = false;
    bool isLink = false;
    bool ignored = false; // only folders: left out by .gitignore, not entered
    qint64 size = 0;
};
void walk(const QString &workspace, const std::function<bool(const Entry &)> &visit);
// The same below one folder (relative, checked by the caller), the rules of the folders above it
// applied.
void walk(const QString &workspace,
          const QString &folder,
          const std::function<bool(const Entry &)> &visit);

// search_files: the lines matching a regular expression, as `path:line: text`, over the files
// `glob` selects (a .gitignore pattern: "*.py" at any depth, "src/**/*.py"; empty: all). At
// most maxResults lines are shown, the rest counted; binary files and files over 2 MB are
// skipped and counted. Returns the tool result JSON (`matches`: how many there were).
nlohmann::json searchFiles(const QString &workspace,
                           const QString &pattern,
                           const QString &glob,
                           int maxResults = 100);

} // namespace Sandcastle::FileSearch
