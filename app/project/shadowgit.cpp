#include "shadowgit.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>

namespace Sandcastle {

ShadowGit::ShadowGit(QString gitDir, QString workTree, QString indexFile)
    : m_gitDir(std::move(gitDir))
    , m_workTree(std::move(workTree))
    , m_indexFile(std::move(indexFile))
{}

Result<bool> ShadowGit::ensureRepository() const
{
    if (QFile::exists(m_gitDir + QStringLiteral("/HEAD")))
        return Result<bool>::ok(true);
    if (!QDir().mkpath(m_gitDir))
        return Result<bool>::failure(QStringLiteral("cannot create %1").arg(m_gitDir));
    const Result<Output> init = run({QStringLiteral("init"), QStringLiteral("--quiet")});
    if (!init)
        return Result<bool>::failure(init.error());
    // The repository's own configuration: the same snapshot on every machine, whatever the
    // person's global settings say.
    const QList<std::pair<const char *, const char *>> settings{
        {"core.autocrlf", "false"},
        {"core.safecrlf", "false"},
        {"core.filemode", "true"},
        {"core.symlinks", "true"},
        {"core.quotepath", "false"},
        {"core.untrackedCache", "true"},
        {"core.fsmonitor", "false"},
        {"core.hooksPath", "/dev/null"},
        {"gc.auto", "0"},
        {"advice.addEmbeddedRepo", "false"},
        {"commit.gpgSign", "false"},
        {"index.version", "4"},
    };
    for (const auto &[key, value] : settings) {
        const Result<Output> set
            = run({QStringLiteral("config"), QLatin1String(key), QLatin1String(value)});
        if (!set)
            return Result<bool>::failure(set.error());
    }
    // Sandcastle's own folder in the workspace is never part of a checkpoint.
    QFile exclude(m_gitDir + QStringLiteral("/info/exclude"));
    if (!QDir().mkpath(m_gitDir + QStringLiteral("/info"))
        || !exclude.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || exclude.write("/.sandcastle/\n") < 0)
        return Result<bool>::failure(QStringLiteral("cannot write %1").arg(exclude.fileName()));
    QFile description(m_gitDir + QStringLiteral("/description"));
    if (description.open(QIODevice::WriteOnly | QIODevice::Truncate))
        description.write(QFile::encodeName(m_workTree) + '\n');
    return Result<bool>::ok(true);
}

Result<ShadowGit::Output> ShadowGit::run(const QStringList &args,
                                         const QByteArray &input,
                                         bool allowFailure,
                                         int timeoutMs) const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    // Whatever git variables the person has set would point it at their repository.
    for (const QString &key : env.keys()) {
        if (key.startsWith(QLatin1String("GIT_")))
            env.remove(key);
    }
    env.insert(QStringLiteral("GIT_DIR"), m_gitDir);
    // A folder deleted while open: what is recorded can still be read (snapshots say it is gone).
    const bool haveTree = QFileInfo(m_workTree).isDir();
    if (haveTree)
        env.insert(QStringLiteral("GIT_WORK_TREE"), m_workTree);
    env.insert(QStringLiteral("GIT_INDEX_FILE"), m_indexFile);
    env.insert(QStringLiteral("GIT_CONFIG_NOSYSTEM"), QStringLiteral("1"));
    env.insert(QStringLiteral("GIT_CONFIG_GLOBAL"), QStringLiteral("/dev/null"));
    env.insert(QStringLiteral("GIT_TERMINAL_PROMPT"), QStringLiteral("0"));
    env.insert(QStringLiteral("GIT_AUTHOR_NAME"), QStringLiteral("Sandcastle"));
    env.insert(QStringLiteral("GIT_AUTHOR_EMAIL"), QStringLiteral("sandcastle@localhost"));
    env.insert(QStringLiteral("GIT_COMMITTER_NAME"), QStringLiteral("Sandcastle"));
    env.insert(QStringLiteral("GIT_COMMITTER_EMAIL"), QStringLiteral("sandcastle@localhost"));
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));

    QProcess git;
    git.setProcessEnvironment(env);
    git.setWorkingDirectory(haveTree ? m_workTree : m_gitDir);
    git.start(QStringLiteral("git"), args);
    if (!git.waitForStarted(10000))
        return Result<Output>::failure(
            QStringLiteral("git could not be started (%1); checkpoints need git installed")
                .arg(git.errorString()));
    if (!input.isEmpty())
        git.write(input);
    git.closeWriteChannel();
    if (!git.waitForFinished(timeoutMs)) {
        git.kill();
        git.waitForFinished(2000);
        return Result<Output>::failure(QStringLiteral("git %1 took longer than %2 s")
                                           .arg(args.value(0))
                                           .arg(timeoutMs / 1000));
    }
    Output output{git.readAllStandardOutput(), git.readAllStandardError(), git.exitCode()};
    if (git.exitStatus() != QProcess::NormalExit)
        return Result<Output>::failure(QStringLiteral("git %1 crashed").arg(args.value(0)));
    if (output.exitCode != 0 && !allowFailure)
        return Result<Output>::failure(
            QStringLiteral("git %1: %2")
                .arg(args.value(0), QString::fromLocal8Bit(output.err).trimmed()));
    return Result<Output>::ok(std::move(output));
}

Result<QString> ShadowGit::line(const QStringList &args, const QByteArray &input) const
{
    const Result<Output> output = run(args, input);
    if (!output)
        return Result<QString>::failure(output.error());
    const QByteArray &out = output.value().out;
    const qsizetype end = out.indexOf('\n');
    return Result<QString>::ok(QString::fromUtf8(end < 0 ? out : out.left(end)).trimmed());
}

QList<QByteArray> ShadowGit::records(const QByteArray &out)
{
    QList<QByteArray> parts = out.split('\0');
    if (!parts.isEmpty() && parts.last().isEmpty())
        parts.removeLast();
    return parts;
}

QByteArray ShadowGit::literal(const QString &path)
{
    return ":(literal)" + path.toUtf8();
}

} // namespace Sandcastle
