#pragma once

#include <QDirIterator>
#include <QFile>
#include <QString>

#include <unistd.h>

namespace Sandcastle::Testing {

// Makes a folder the tests made into a person's folder, as on a desktop: when the tests run as
// root (CI), everything in it is handed to 1000:1000; a folder owned by root would be mounted
// read-only (SandboxConfig::folderAccess()). False if a chown failed.
inline bool handToPerson(const QString &folder)
{
    if (::getuid() != 0)
        return true;
    bool ok = ::lchown(QFile::encodeName(folder).constData(), 1000, 1000) == 0;
    QDirIterator it(folder,
                    QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        ok = ::lchown(QFile::encodeName(it.next()).constData(), 1000, 1000) == 0 && ok;
    return ok;
}

} // namespace Sandcastle::Testing
