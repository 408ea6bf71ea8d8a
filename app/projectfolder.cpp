#include "projectfolder.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <sys/stat.h>
#include <unistd.h>

namespace Sandcastle {

namespace {

// Whether `inner` is `outer` or lies below it (both absolute and clean).
bool isWithin(const QString &inner, const QString &outer)
{
    return inner == outer
           || inner.startsWith(outer.endsWith(QLatin1Char('/')) ? outer : outer + QLatin1Char('/'));
}

QString resolved(const QString &path)
{
    const QString canonical = QFileInfo(path).canonicalFilePath();
    return canonical.isEmpty() ? QDir::cleanPath(QDir(path).absolutePath()) : canonical;
}

} // namespace

Result<ProjectFolder>
ProjectFolder::check(const QString &folder, const QString &home, const QString &dataDir)
{
    const auto refuse = [&](const QString &why) {
        return Result<ProjectFolder>::failure(
            QStringLiteral("Cannot open %1: %2").arg(QDir::toNativeSeparators(folder), why));
    };
    if (folder.trimmed().isEmpty())
        return refuse(QStringLiteral("no folder was given"));
    const QFileInfo info(folder);
    if (!info.exists())
        return refuse(QStringLiteral("it does not exist"));
    if (!info.isDir())
        return refuse(QStringLiteral("it is not a folder"));
    const QString path = resolved(folder);
    if (::access(QFile::encodeName(path).constData(), R_OK | X_OK) != 0)
        return refuse(QStringLiteral("it cannot be read (permission denied)"));
    if (path == QLatin1String("/"))
        return refuse(QStringLiteral("it is the root of the file system; open a project folder"));
    if (!home.isEmpty() && path == resolved(home))
        return refuse(QStringLiteral("it is your home folder itself; open a project folder "
                                     "inside it"));
    for (const char *secret : {".ssh", ".gnupg"}) {
        if (QFileInfo::exists(QDir(path).filePath(QLatin1String(secret))))
            return refuse(QStringLiteral("it holds %1, and keys are never shown to a sandbox")
                              .arg(QLatin1String(secret)));
    }
    if (!dataDir.isEmpty() && isWithin(resolved(dataDir), path))
        return refuse(QStringLiteral("it holds Sandcastle's own data folder (%1)")
                          .arg(QDir::toNativeSeparators(resolved(dataDir))));
    struct stat st
    {
    };
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return refuse(QStringLiteral("it cannot be read"));
    ProjectFolder out;
    out.path = path;
    out.ownerId = st.st_uid;
    out.writable = ::access(QFile::encodeName(path).constData(), W_OK) == 0;
    return Result<ProjectFolder>::ok(out);
}

} // namespace Sandcastle
