// Putting files back as a recorded state has them: the seam of Checkpoints that writes into
// the workspace (undo and restore).
#include "checkpointfiles.h"
#include "checkpoints.h"
#include "shadowgit.h"

#include <QHash>
#include <QSet>

namespace Sandcastle {

Result<Checkpoint> Checkpoints::revert(const QString &source,
                                       const QStringList &paths,
                                       const QString &kind,
                                       const QString &label,
                                       const QString &undoes)
{
    const Result<QString> begun = beginStep(kind, label, -1, undoes);
    if (!begun)
        return Result<Checkpoint>::failure(begun.error());
    // The source's entries: which paths it has (mode, object) and which folders.
    const Result<ShadowGit::Output> tree = m_git->run(
        {QStringLiteral("ls-tree"), QStringLiteral("-r"), QStringLiteral("-z"), source});
    if (!tree)
        return Result<Checkpoint>::failure(tree.error());
    const QSet<QString> wanted(paths.cbegin(), paths.cend());
    QHash<QString, std::pair<int, QByteArray>> inSource; // path -> mode, object id
    QSet<QString> folders;
    for (const QByteArray &record : ShadowGit::records(tree.value().out)) {
        const qsizetype tab = record.indexOf('\t');
        const QList<QByteArray> head = record.left(tab).split(' ');
        const QString path = QString::fromUtf8(record.mid(tab + 1));
        for (qsizetype slash = path.indexOf(QLatin1Char('/')); slash >= 0;
             slash = path.indexOf(QLatin1Char('/'), slash + 1))
            folders.insert(path.left(slash));
        if (wanted.contains(path) && head.value(1) == "blob")
            inSource.insert(path, {head.value(0).toInt(nullptr, 8), head.value(2)});
    }
    QByteArray request;
    QStringList order;
    QStringList absent;
    for (const QString &path : paths) {
        const auto it = inSource.constFind(path);
        if (it == inSource.cend()) {
            absent << path;
        } else {
            request += it.value().second + '\n';
            order << path;
        }
    }
    QList<CheckpointFiles::Entry> present;
    if (!order.isEmpty()) {
        const Result<ShadowGit::Output> blobs
            = m_git->run({QStringLiteral("cat-file"), QStringLiteral("--batch")}, request);
        if (!blobs)
            return Result<Checkpoint>::failure(blobs.error());
        const QByteArray &out = blobs.value().out;
        qsizetype at = 0;
        for (const QString &path : order) {
            const qsizetype lineEnd = out.indexOf('\n', at);
            const QList<QByteArray> header = out.mid(at, lineEnd - at).split(' ');
            if (lineEnd < 0 || header.size() < 3)
                return Result<Checkpoint>::failure(
                    QStringLiteral("git cat-file: unexpected output"));
            const qsizetype size = header[2].toLongLong();
            present.append({path, inSource[path].first, out.mid(lineEnd + 1, size)});
            at = lineEnd + 1 + size + 1;
        }
    }
    const Result<QStringList> applied
        = CheckpointFiles::apply(m_workspace, present, absent, folders);
    // Recorded either way: what did change is a step too, and can be undone.
    Result<Checkpoint> ended = end();
    if (!applied)
        return Result<Checkpoint>::failure(applied.error());
    return ended;
}

} // namespace Sandcastle
