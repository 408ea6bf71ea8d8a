#include "fileledger.h"

#include <QDir>
#include <QFile>

#include <sys/stat.h>

namespace Sandcastle {

FileLedger::Stamp FileLedger::stampOf(const QString &workspace, const QString &relative)
{
    struct stat st
    {
    };
    if (::lstat(QFile::encodeName(QDir(workspace).filePath(relative)).constData(), &st) != 0)
        return {};
    return {qint64(st.st_size), qint64(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

void FileLedger::note(const QString &workspace, const QString &relative)
{
    m_stamps.insert(relative, stampOf(workspace, relative));
}

QString FileLedger::changedSince(const QString &workspace, const QString &relative) const
{
    const auto it = m_stamps.constFind(relative);
    if (it == m_stamps.cend())
        return {};
    const Stamp now = stampOf(workspace, relative);
    if (now == *it)
        return {};
    if (now.size < 0)
        return QStringLiteral("%1 was deleted since you last read it").arg(relative);
    return QStringLiteral("%1 changed on disk since you last read it (%2 bytes then, %3 now): "
                          "read it again before editing it")
        .arg(relative)
        .arg(it->size)
        .arg(now.size);
}

} // namespace Sandcastle
