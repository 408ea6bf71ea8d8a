#pragma once

#include <base/result.h>

#include <nlohmann/json.hpp>

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace Sandcastle {

class ShadowGit;

// One file a step changed, with its line counts (binary files have none).
struct CheckpointChange
{
    QString path;
    char status = 'M'; // 'A' created, 'M' modified (content or mode), 'D' deleted, 'T' type
    int added = 0;
    int removed = 0;
    bool binary = false;
};

// A file left out of a checkpoint because of its size (it is never restored or deleted).
struct SkippedFile
{
    QString path;
    qint64 size = 0;
};

// One recorded step: the workspace before and after an agent turn, a person's run, or an undo.
struct Checkpoint
{
    int number = 0; // 1-based, in the conversation's order
    QString id;     // the commit of the state after the step
    QString before; // the commit of the state before it
    QString kind;   // "turn", "run", "undo" or "restore"
    QString label;  // what the step was: the prompt's first line, "Undo turn 2", ...
    int turn = -1;  // kind "turn": the index of the agent turn (0 for the first prompt)
    qint64 timeMs = 0;
    QList<SkippedFile> skipped; // left out of the state after (size cap)
    QString undoes;             // kind "undo": the id of the step it took back
};

// Checkpoints of a workspace folder, per conversation, in a shadow git repository under the
// data folder: `begin()` before a step records the state, `end()` after it records the state
// again and makes the pair a step that can be reviewed (changes(), diff()), undone (undo()) or
// returned to (restore()). Ignored files (.gitignore) and files over the size cap are left out;
// the person's .git is never read or written. Blocking: call from a worker thread.
class Checkpoints
{
public:
    static constexpr qint64 DefaultMaxFileBytes = qint64(50) * 1024 * 1024;

    Checkpoints(const QString &dataDir,
                const QString &workspace,
                const QString &conversationId,
                qint64 maxFileBytes = DefaultMaxFileBytes);
    ~Checkpoints();
    Checkpoints(const Checkpoints &) = delete;
    Checkpoints &operator=(const Checkpoints &) = delete;

    // The shadow repository of a folder: one per folder, shared by its conversations.
    static QString repositoryFor(const QString &dataDir, const QString &workspace);

    // Reads the folder into the repository without recording a step, so that the first
    // begin() only looks at what changed since (a big folder's first read takes a while).
    Result<bool> prepare();
    // Records the state before a step; returns its commit.
    Result<QString> begin(const QString &kind, const QString &label, int turn = -1);
    // Records the state after the step begun last, which becomes a Checkpoint.
    Result<Checkpoint> end();
    // Every step of the conversation, oldest first.
    Result<QList<Checkpoint>> list() const;
    // A step by number ("2"), or by its id or an unambiguous prefix of it.
    Result<Checkpoint> find(const QString &which) const;

    // The files that differ between two recorded states, sorted by path; paths skipped in
    // either are not among them.
    Result<QList<CheckpointChange>> changes(const Checkpoint &step) const;
    Result<QList<CheckpointChange>> changes(const QString &from, const QString &to) const;
    // A unified diff between two states, of one file or (empty path) of all.
    Result<QByteArray> diff(const QString &from, const QString &to, const QString &path = {}) const;

    // What undoing `step` would do, and what it would overwrite: files changed after the last
    // step by someone else (the person), and files a later step changed too.
    struct UndoPlan
    {
        QList<CheckpointChange> files;
        QStringList editedSince;
        QStringList changedLater;
    };
    Result<UndoPlan> planUndo(const Checkpoint &step);
    // Puts the files `step` changed back as they were before it (content, mode, created files
    // removed, deleted ones back). Itself recorded as a step of kind "undo", so it can be undone.
    Result<Checkpoint> undo(const Checkpoint &step);
    // Puts the whole workspace back to a recorded state (files created since are removed);
    // recorded as a step of kind "restore".
    Result<Checkpoint> restore(const QString &state, const QString &label);
    // The files that differ between the last recorded state and the folder now.
    Result<QStringList> editedSinceLast();

    QString repository() const;
    // Drops the conversation's steps (its ref and index); the repository goes with the last
    // conversation that used it. For a deleted conversation.
    Result<bool> forget();

private:
    struct Snapshot
    {
        QString tree;
        QList<SkippedFile> skipped;
    };
    Result<Snapshot> snapshot();
    // The conversation's last commit, its first parent and its metadata (empty: none yet).
    struct Head
    {
        QString id;
        QString parent;
        nlohmann::json meta = nlohmann::json::object();
    };
    Result<Head> head() const;
    // The commit of the last state recorded (empty: none yet).
    Result<QString> lastState() const;
    static Checkpoint
    stepFrom(const QString &id, const QString &parent, const nlohmann::json &meta);
    Result<QString>
    beginStep(const QString &kind, const QString &label, int turn, const QString &undoes);
    Result<QString> commit(const QString &tree,
                           const QString &parent,
                           const QString &label,
                           const QString &metadata);
    Result<Checkpoint> revert(const QString &source,
                              const QStringList &paths,
                              const QString &kind,
                              const QString &label,
                              const QString &undoes);

    QString m_workspace;
    QString m_ref;
    qint64 m_maxFileBytes;
    ShadowGit *m_git;
};

} // namespace Sandcastle

Q_DECLARE_METATYPE(Sandcastle::Checkpoint)
