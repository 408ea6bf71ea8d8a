#pragma once

#include <functional>

#include <sys/stat.h>

namespace Sandcastle {

// The entries of one workspace folder, open on `dirFd` (closed at the end), each with its own
// lstat (a symlink is itself, never what it points to). ".", ".." and, at the workspace's root,
// the private ".sandcastle" are left out. `visit` gets the folder's descriptor too, to open a
// subfolder relative to it. Names are bytes: one that is not UTF-8 is still visited.
void forEachWorkspaceEntry(
    int dirFd,
    bool atRoot,
    const std::function<void(int dirFd, const char *name, const struct stat &st)> &visit);

} // namespace Sandcastle
