#include "gitstatus.h"

#include <sandbox/blockingjobs.h>

#include <QFutureWatcher>
#include <QProcess>
#include <QtConcurrent/QtConcurrentRun>

namespace Sandcastle {

GitStatus::GitStatus(QObject *parent)
    : QObject(parent)
    , m_watcher(new QFutureWatcher<Snapshot>(this))
{
    connect(m_watcher, &QFutureWatcher<Snapshot>::finished, this, [this] {
        const QString folder = std::exchange(m_running, QString());
        const Snapshot snapshot = m_watcher->result();
        if (!m_queued.isEmpty())
            start();
        Q_EMIT finished(folder, snapshot);
    });
}

GitStatus::~GitStatus() = default;

bool GitStatus::isRunning() const
{
    return !m_running.isEmpty();
}

void GitStatus::refresh(const QString &folder)
{
    m_queued = folder;
    if (m_running.isEmpty())
        start();
}

void GitStatus::start()
{
    m_running = std::exchange(m_queued, QString());
    m_watcher->setFuture(
        QtConcurrent::run(blockingJobs(), [folder = m_running] { return read(folder); }));
}

namespace {

// Runs git in `folder`; empty output and false when it failed.
bool runGit(const QString &folder, const QStringList &arguments, int timeoutMs, QByteArray *out)
{
    QProcess git;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("GIT_OPTIONAL_LOCKS"), QStringLiteral("0"));
    environment.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));
    git.setProcessEnvironment(environment);
    git.setWorkingDirectory(folder);
    git.setStandardInputFile(QProcess::nullDevice());
    git.start(QStringLiteral("git"),
              QStringList{QStringLiteral("--no-optional-locks")} + arguments);
    if (!git.waitForStarted(timeoutMs))
        return false;
    if (!git.waitForFinished(timeoutMs)) {
        git.kill();
        git.waitForFinished(1000);
        return false;
    }
    *out = git.readAllStandardOutput();
    return git.exitStatus() == QProcess::NormalExit && git.exitCode() == 0;
}

} // namespace

GitStatus::Snapshot GitStatus::read(const QString &folder, int timeoutMs)
{
    Snapshot snapshot;
    QByteArray prefix;
    if (!runGit(folder,
                {QStringLiteral("rev-parse"), QStringLiteral("--show-prefix")},
                timeoutMs,
                &prefix))
        return snapshot; // not a repository, or no git
    snapshot.isRepository = true;
    QByteArray porcelain;
    if (!runGit(folder,
                {QStringLiteral("-c"),
                 QStringLiteral("core.quotepath=off"),
                 QStringLiteral("status"),
                 QStringLiteral("--porcelain=v1"),
                 QStringLiteral("-z"),
                 QStringLiteral("--ignored=no"),
                 QStringLiteral("--"),
                 QStringLiteral(".")},
                timeoutMs,
                &porcelain)) {
        snapshot.error
            = QStringLiteral("git status failed or took longer than %1 s").arg(timeoutMs / 1000);
        return snapshot;
    }
    snapshot.changes = parse(porcelain, QString::fromUtf8(prefix.trimmed()));
    return snapshot;
}

QHash<QString, GitStatus::Change> GitStatus::parse(const QByteArray &porcelain,
                                                   const QString &prefix)
{
    QHash<QString, Change> changes;
    const QList<QByteArray> fields = porcelain.split('\0');
    for (qsizetype i = 0; i < fields.size(); ++i) {
        const QByteArray &field = fields.at(i);
        if (field.size() < 4 || field.at(2) != ' ')
            continue;
        const char x = field.at(0);
        const char y = field.at(1);
        const QString path = QString::fromUtf8(field.mid(3));
        if (x == 'R' || x == 'C')
            ++i; // the field after a rename or a copy is the path it came from
        Change change = Change::Modified;
        if (x == '?' && y == '?')
            change = Change::Untracked;
        else if (x == '!')
            continue;
        else if (x == 'U' || y == 'U' || (x == 'A' && y == 'A') || (x == 'D' && y == 'D'))
            change = Change::Conflicted;
        else if (x == 'D' || y == 'D')
            change = Change::Deleted;
        else if (x == 'R' || x == 'C')
            change = Change::Renamed;
        else if (x == 'A')
            change = Change::Added;
        if (!prefix.isEmpty() && !path.startsWith(prefix))
            continue;
        changes.insert(path.mid(prefix.size()), change);
    }
    return changes;
}

} // namespace Sandcastle
