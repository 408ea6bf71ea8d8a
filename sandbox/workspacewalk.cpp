#include "workspacewalk.h"

#include <cstring>

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

namespace Sandcastle {

void forEachWorkspaceEntry(
    int dirFd,
    bool atRoot,
    const std::function<void(int dirFd, const char *name, const struct stat &st)> &visit)
{
    DIR *dir = ::fdopendir(dirFd);
    if (!dir) {
        ::close(dirFd);
        return;
    }
    while (const dirent *entry = ::readdir(dir)) {
        const char *name = entry->d_name;
        if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0
            || (atRoot && std::strcmp(name, ".sandcastle") == 0))
            continue;
        struct stat st
        {
        };
        if (::fstatat(::dirfd(dir), name, &st, AT_SYMLINK_NOFOLLOW) == 0)
            visit(::dirfd(dir), name, st);
    }
    ::closedir(dir);
}

} // namespace Sandcastle
