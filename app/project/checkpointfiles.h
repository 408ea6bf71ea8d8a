#pragma once

#include <base/result.h>

#include <QByteArray>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

namespace Sandcastle::CheckpointFiles {

// A file as a recorded state has it.
struct Entry
{
    QString path;
    int mode = 0100644; // git's: 0100644, 0100755 or 0120000 (a symlink, content its target)
    QByteArray content;
};

// Makes the workspace hold `present` as given and none of `absent`, through PathGuard (no
// component followed through a link the code planted). A file keeps its owner; a new one gets
// its folder's (when this process is root); permission bits other than "executable" are kept.
// Folders left empty by a removal are removed when `keptFolders` does not name them. Goes on
// past a file it cannot write; returns the paths it changed, or every failure in one message.
Result<QStringList> apply(const QString &workspace,
                          const QList<Entry> &present,
                          const QStringList &absent,
                          const QSet<QString> &keptFolders);

} // namespace Sandcastle::CheckpointFiles
