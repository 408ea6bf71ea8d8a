#pragma once

#include <base/result.h>

#include <QString>

namespace Sandcastle {

// A folder of the person's to work in (File → Open Folder…, --workspace DIR), checked before it
// is mounted into a sandbox. Refused, with the reason: one that does not exist, is not a folder
// or cannot be read; the root of the file system; the home folder itself; a folder holding
// .ssh or .gnupg (keys are never mounted); a folder holding Sandcastle's own data folder.
struct ProjectFolder
{
    QString path;          // absolute, links resolved
    bool writable = false; // false on a read-only mount or without write permission
    uint ownerId = 0;      // the folder's owner (the code runs as this uid; never as 0)

    // `home` and `dataDir` are the person's home folder and Sandcastle's data folder.
    static Result<ProjectFolder>
    check(const QString &folder, const QString &home, const QString &dataDir);
};

} // namespace Sandcastle
