#pragma once

#include <base/result.h>

#include <QByteArray>
#include <QString>

#include <optional>
#include <utility>

namespace Sandcastle::PathGuard {

// The host side of the workspace boundary. Code in the container can write anything into its
// workspace, symlinks included; whatever the host reads or writes there goes through these,
// so that a link planted to ~/.ssh or /etc/passwd is refused, never followed.

// A workspace-relative path as normalised components joined by '/': refuses empty, absolute,
// '..' and NUL.
Result<QString> checkRelative(const QString &relative);

// Opens root/relative with `flags` without following a symlink at any component below the
// root (each one is opened with O_NOFOLLOW relative to the one before). createDirs makes
// missing folders on the way (and the last one, when `flags` asks for O_DIRECTORY). Returns a file
// descriptor the caller closes. When owner (uid, gid) is given, folders and a file this call
// creates get that owner: root on the host writes files that the sandbox user (1000) must be able
// to change.
Result<int> openInside(const QString &root,
                       const QString &relative,
                       int flags,
                       bool createDirs = false,
                       std::optional<std::pair<unsigned, unsigned>> owner = std::nullopt);

// Reads at most maxBytes of a regular file inside the workspace.
Result<QByteArray>
readFile(const QString &root, const QString &relative, qint64 maxBytes, bool *truncated = nullptr);

} // namespace Sandcastle::PathGuard
