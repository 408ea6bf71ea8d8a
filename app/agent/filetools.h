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
// read_file with a line range: lines startLine..endLine (1-based, inclusive; endLine <= 0 for
// the end of the file), each with its number ("  12\ttext"), at most maxBytes of them;
// `lines` says how many the file has.
nlohmann::json readLines(
    const QString &workspace, const QString &path, int startLine, int endLine, qint64 maxBytes);
// edit_file: replaces the one exact occurrence of oldText with newText. Changes nothing and says
// why when oldText is empty, not found, or found more than once; the file keeps its owner and
// mode. stdout shows the change as a unified diff.
nlohmann::json editFile(const QString &workspace,
                        const QString &path,
                        const QString &oldText,
                        const QString &newText);
// The largest file read_file's ranges and edit_file take whole.
constexpr qint64 LargestEdited = 8 * 1024 * 1024;

// Copies a file of the person's (dropped on the window) into the workspace's top folder, under
// its own name or, when that is taken, "name (2).ext"; never over an existing file or through
// a symlink. Returns the name it got.
Result<QString> upload(const QString &workspace, const QString &hostFile);
// Writes bytes the host made (an MCP tool's image) to a new file inside the workspace, through
// PathGuard, owned by the sandbox's user; never over an existing file or through a link.
Result<bool>
writeNewFile(const QString &workspace, const QString &relative, const QByteArray &bytes);

} // namespace Sandcastle::FileTools
