#pragma once

#include <base/result.h>

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace Sandcastle {

// The `git` command on a shadow repository: its GIT_DIR in Sandcastle's data folder, its work
// tree the person's folder. Nothing of the person's git setup is read or written: not their
// .git (git never descends into a folder named .git, and GIT_DIR points elsewhere), not their
// global or system configuration, not their hooks. Blocking: used on worker threads.
class ShadowGit
{
public:
    // `gitDir`: the shadow repository (made by ensureRepository()); `workTree`: the folder;
    // `indexFile`: the index this user of the repository keeps (one per conversation, so that
    // two conversations on one folder do not share a staging area).
    ShadowGit(QString gitDir, QString workTree, QString indexFile);

    const QString &gitDir() const { return m_gitDir; }
    const QString &workTree() const { return m_workTree; }
    const QString &indexFile() const { return m_indexFile; }

    // Creates the repository when it is not there yet: objects, refs, and a configuration of
    // its own (no CRLF conversion, symlinks and executable bits kept, no automatic gc).
    Result<bool> ensureRepository() const;

    struct Output
    {
        QByteArray out;
        QByteArray err;
        int exitCode = -1;
    };
    // Runs `git args` in the work tree with `input` on stdin; fails when git cannot be started,
    // takes longer than `timeoutMs`, or (unless `allowFailure`) exits with a non-zero code (the
    // error then carries git's own message).
    Result<Output> run(const QStringList &args,
                       const QByteArray &input = QByteArray(),
                       bool allowFailure = false,
                       int timeoutMs = 120000) const;
    // Like run(), for the trimmed first line of what git printed (an object id, say).
    Result<QString> line(const QStringList &args, const QByteArray &input = QByteArray()) const;

    // The NUL-separated records of git's -z output.
    static QList<QByteArray> records(const QByteArray &out);
    // A path as a literal pathspec (no wildcards, no magic) for --pathspec-from-file.
    static QByteArray literal(const QString &path);

private:
    QString m_gitDir;
    QString m_workTree;
    QString m_indexFile;
};

} // namespace Sandcastle
