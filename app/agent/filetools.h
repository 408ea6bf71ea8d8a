#pragma once

#include <base/result.h>

#include <nlohmann/json.hpp>

#include <QString>

namespace Sandcastle::FileTools {

// The host-side tools on a conversation's workspace. Every path goes through PathGuard:
// absolute paths, '..' and symlinks are refused with an error result, never followed. Each
// returns the tool result JSON of architecture.md §5 (read_file adds `content`, list_files
// `entries`).

nlohmann::json writeFile(const QString &workspace, const QString &path, const QString &content);
nlohmann::json readFile(const QString &workspace, const QString &path, qint64 maxBytes);
nlohmann::json listFiles(const QString &workspace, const QString &path, int maxEntries = 500);

// Copies a file of the person's (dropped on the window) into the workspace's top folder, under
// its own name or, when that is taken, "name (2).ext"; never over an existing file or through
// a symlink. Returns the name it got.
Result<QString> upload(const QString &workspace, const QString &hostFile);

} // namespace Sandcastle::FileTools
