#pragma once

#include <QHash>
#include <QObject>
#include <QString>

#include <memory>

template<typename T>
class QFutureWatcher;

namespace Sandcastle {

// What `git status` says of a folder's files against HEAD, read without ever writing to the
// repository: git runs with GIT_OPTIONAL_LOCKS=0 and --no-optional-locks, so it refreshes its
// index in memory only and the person's .git stays byte for byte as it was. The command runs
// on a worker thread; a refresh asked for while one runs is run once after it.
class GitStatus : public QObject
{
    Q_OBJECT
public:
    enum class Change { Modified, Added, Deleted, Renamed, Untracked, Conflicted };
    struct Snapshot
    {
        bool isRepository = false;
        // Paths relative to the folder asked about, '/'-separated; an untracked folder that
        // git did not list file by file ends with '/'.
        QHash<QString, Change> changes;
        QString error; // why there is no snapshot (git missing, too slow), when it failed
    };

    explicit GitStatus(QObject *parent = nullptr);
    ~GitStatus() override;

    // Starts reading `folder` (or queues one more read after the running one).
    void refresh(const QString &folder);
    bool isRunning() const;

    // Runs git in `folder` and waits for it (the worker's part; public for tests).
    static Snapshot read(const QString &folder, int timeoutMs = 20000);
    // `git status --porcelain=v1 -z` output, paths taken relative to `prefix` (the folder's
    // place in the repository, "" or "sub/dir/"); paths outside it are left out.
    static QHash<QString, Change> parse(const QByteArray &porcelain, const QString &prefix);

Q_SIGNALS:
    void finished(const QString &folder, const Sandcastle::GitStatus::Snapshot &snapshot);

private:
    void start();

    QFutureWatcher<Snapshot> *m_watcher = nullptr;
    QString m_running;
    QString m_queued;
};

} // namespace Sandcastle
