// A remote engine (scripts/remote-engine: a second Docker daemon that cannot see this
// machine's folders, reached over ssh:// on loopback), measured side by side in one run:
//   - a warm print(1) through a copy-mode session over ssh://, against
//     `docker -H ssh://… exec CONTAINER python3 -c 'print(1)'` and against the same warm run on
//     the local daemon;
//   - the upload of a workspace of 10,000 files and 100 MB (session start until ready), against
//     `docker run --detach` and `tar -c | docker -H ssh://… exec -i CONTAINER tar -x` of the
//     same folder;
//   - a run that changes 10 of those files, their sync back included, against a run and
//     `docker -H ssh://… exec CONTAINER tar -c` of the 10 files into `tar -x` here;
//   - a run that makes 100,000 files, all brought back, with the event loop's longest stall on
//     the way (tst_remoteengine holds the same with 20,000), against the same code through
//     `docker -H ssh://… exec` and `tar -c` of the folder into `tar -x` here.
// Usage: bench_remote SSH_HOST   (scripts/bench passes $SANDCASTLE_REMOTE_SSH)
#include "benchreport.h"
#include "benchtiming.h"

#include <support/eventloopstall.h>

#include <sandbox/containerengine.h>
#include <sandbox/sandboxsession.h>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

using namespace Sandcastle;

namespace {

using Bench::timeMs;
using Bench::waitFor;

SandboxConfig configOn(const QString &host, const QString &workspace, const QString &conversation)
{
    if (host.isEmpty())
        qunsetenv("DOCKER_HOST");
    else
        qputenv("DOCKER_HOST", host.toUtf8());
    SandboxConfig config = SandboxConfig::fromEnvironment();
    config.workspace = workspace;
    config.conversationId = conversation;
    return config;
}

std::unique_ptr<SandboxSession> startedSession(const SandboxConfig &config)
{
    auto session = std::make_unique<SandboxSession>(config);
    session->start();
    if (!waitFor(session.get(), SIGNAL(ready()), 300000))
        return nullptr;
    return session;
}

ExecutionResult runOnce(SandboxSession &session, const QString &code)
{
    ExecutionResult result;
    const auto connection = QObject::connect(
        &session, &SandboxSession::finished, [&](const ExecutionResult &r) { result = r; });
    session.runPython(code);
    waitFor(&session, SIGNAL(finished(Sandcastle::ExecutionResult)), 300000);
    QObject::disconnect(connection);
    return result;
}

std::vector<double> warmRuns(SandboxSession &session, int runs)
{
    std::vector<double> times;
    for (int i = 0; i < runs + 10; ++i) {
        const double ms = timeMs([&] { runOnce(session, QStringLiteral("print(1)")); });
        if (i >= 10)
            times.push_back(ms);
    }
    return times;
}

// 10,000 files in 100 folders, 100 MB in all (10 KB each, not compressible).
bool makeWorkspace(const QString &root)
{
    QFile random(QStringLiteral("/dev/urandom"));
    if (!random.open(QIODevice::ReadOnly))
        return false;
    for (int d = 0; d < 100; ++d) {
        const QString folder = root + QStringLiteral("/d%1").arg(d);
        QDir().mkpath(folder);
        for (int f = 0; f < 100; ++f) {
            QFile file(folder + QStringLiteral("/f%1.bin").arg(f));
            if (!file.open(QIODevice::WriteOnly) || file.write(random.read(10 * 1024)) != 10 * 1024)
                return false;
        }
    }
    return true;
}

// A docker process that will talk to `host`.
void onHost(QProcess &docker, const QString &host)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DOCKER_HOST"), host);
    docker.setProcessEnvironment(env);
}

// `docker -H host` with these arguments, waited for.
int docker(const QString &host, const QStringList &arguments, QByteArray *out = nullptr)
{
    QProcess process;
    onHost(process, host);
    process.start(QStringLiteral("docker"), arguments);
    process.waitForFinished(600000);
    if (out)
        *out = process.readAllStandardOutput().trimmed();
    return process.exitCode();
}

// A folder through a tar pipe between here and a container on `host`, waited for:
//   In:  `tar -c -C FOLDER PATHS | docker exec -i CONTAINER tar -x -C INTO`
//   Out: `docker exec CONTAINER tar -c -C FOLDER PATHS | tar -x -C INTO`
enum class Way { In, Out };
void tarPipe(Way way,
             const QString &host,
             const QString &container,
             const QString &folder,
             const QStringList &paths,
             const QString &into)
{
    QProcess from;
    QProcess to;
    onHost(way == Way::In ? to : from, host);
    from.setStandardOutputProcess(&to);
    const QStringList create
        = QStringList{QStringLiteral("tar"), QStringLiteral("-c"), QStringLiteral("-C"), folder}
          + paths;
    const QStringList extract{
        QStringLiteral("tar"), QStringLiteral("-x"), QStringLiteral("-C"), into};
    if (way == Way::In) {
        from.start(create.first(), create.mid(1));
        to.start(QStringLiteral("docker"),
                 QStringList{QStringLiteral("exec"), QStringLiteral("-i"), container} + extract);
    } else {
        from.start(QStringLiteral("docker"),
                   QStringList{QStringLiteral("exec"), container} + create);
        to.start(extract.first(), extract.mid(1));
    }
    from.waitForFinished(900000);
    to.waitForFinished(900000);
}

// `docker -H host run --detach --rm --network none OPTIONS IMAGE sleep 900`: the container's id.
QString startIdle(const QString &host, const QString &image, const QStringList &options = {})
{
    QByteArray id;
    docker(host,
           QStringList{QStringLiteral("run"),
                       QStringLiteral("--detach"),
                       QStringLiteral("--rm"),
                       QStringLiteral("--network"),
                       QStringLiteral("none")}
               + options + QStringList{image, QStringLiteral("sleep"), QStringLiteral("900")},
           &id);
    return QString::fromUtf8(id);
}

// The plain way to get a container with a folder in it over the same connection: `docker run
// --detach` and a tar pipe into it.
double runAndTarMs(const QString &host, const QString &image, const QString &folder)
{
    QString id;
    const double ms = timeMs([&] {
        id = startIdle(host, image);
        tarPipe(Way::In, host, id, folder, {QStringLiteral(".")}, QStringLiteral("/tmp"));
    });
    docker(host, {QStringLiteral("rm"), QStringLiteral("--force"), id});
    return ms;
}

// The plain way to bring 10 files out of a container over the same connection.
double tenOutMs(const QString &host, const QString &container, const QString &into)
{
    QStringList paths;
    for (int f = 0; f < 10; ++f)
        paths << QStringLiteral("d7/f%1.bin").arg(f);
    return timeMs(
        [&] { tarPipe(Way::Out, host, container, QStringLiteral("/workspace"), paths, into); });
}

// The Python that makes 100,000 files in 100 folders (as tst_remoteengine's smaller run).
QString makeManyFiles()
{
    return QStringLiteral("import os\n"
                          "for d in range(100):\n"
                          "    os.makedirs('many/%d' % d)\n"
                          "    for f in range(1000):\n"
                          "        open('many/%d/%d.txt' % (d, f), 'w').write(str(f))\n");
}

// The plain way to make them and bring them here: a container with a volume of its own (the
// session's workspace is a volume too), the code through `docker exec`, the folder through
// `docker exec … tar -c | tar -x`.
double manyThePlainWay(const QString &host, const QString &image, const QString &into)
{
    const QString volume
        = QStringLiteral("bench-remote-plain-%1").arg(QCoreApplication::applicationPid());
    const QString container = startIdle(host,
                                        image,
                                        {QStringLiteral("--user"),
                                         QStringLiteral("0"),
                                         QStringLiteral("--volume"),
                                         volume + QStringLiteral(":/w")});
    const double ms = timeMs([&] {
        docker(host,
               {QStringLiteral("exec"),
                QStringLiteral("--workdir"),
                QStringLiteral("/w"),
                container,
                QStringLiteral("python3"),
                QStringLiteral("-c"),
                makeManyFiles()});
        tarPipe(Way::Out, host, container, QStringLiteral("/w"), {QStringLiteral("many")}, into);
    });
    docker(host, {QStringLiteral("rm"), QStringLiteral("--force"), container});
    docker(host,
           {QStringLiteral("volume"), QStringLiteral("rm"), QStringLiteral("--force"), volume});
    return ms;
}

bool manyCameBack(const QString &root)
{
    QFile last(root + QStringLiteral("/many/99/999.txt"));
    return last.open(QIODevice::ReadOnly) && last.readAll() == "999"
           && QDir(root + QStringLiteral("/many/42")).entryList(QDir::Files).size() == 1000;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_remote ssh://USER@HOST (scripts/remote-engine env)\n");
        return 2;
    }
    const QString ssh = QString::fromLocal8Bit(argv[1]);
    QTemporaryDir empty, local, big;
    const QString pid = QString::number(QCoreApplication::applicationPid());

    // Warm print(1): over ssh://, the local daemon, and docker exec over ssh://.
    auto remote
        = startedSession(configOn(ssh, empty.path(), QStringLiteral("bench-remote-") + pid));
    if (!remote) {
        std::fprintf(stderr, "bench_remote: no session on %s\n", qPrintable(ssh));
        return 125;
    }
    const std::vector<double> overSsh = warmRuns(*remote, 200);
    std::vector<double> viaExec;
    for (int i = 0; i < 10; ++i)
        viaExec.push_back(timeMs([&] {
            docker(ssh,
                   {QStringLiteral("exec"),
                    remote->containerName(),
                    QStringLiteral("python3"),
                    QStringLiteral("-c"),
                    QStringLiteral("print(1)")});
        }));
    remote->stop();
    auto here = startedSession(configOn(QString(), local.path(), QString()));
    if (!here) {
        std::fprintf(stderr, "bench_remote: no session on the local daemon\n");
        return 125;
    }
    const std::vector<double> locally = warmRuns(*here, 200);
    here->stop();

    // Upload: 10,000 files, 100 MB, session start until the kernel is ready.
    if (!makeWorkspace(big.path())) {
        std::fprintf(stderr, "bench_remote: cannot write the workspace\n");
        return 1;
    }
    const SandboxConfig bigConfig
        = configOn(ssh, big.path(), QStringLiteral("bench-remote-big-") + pid);
    std::vector<double> uploads;
    std::vector<double> pipes;
    for (int i = 0; i < 3; ++i) {
        // A new volume each time: everything goes up.
        SandboxConfig config = bigConfig;
        config.conversationId += QStringLiteral("-%1").arg(i);
        std::unique_ptr<SandboxSession> session;
        uploads.push_back(timeMs([&] { session = startedSession(config); }));
        if (!session) {
            std::fprintf(stderr, "bench_remote: the big workspace did not go up\n");
            return 1;
        }
        session->stop();
        docker(ssh,
               {QStringLiteral("volume"),
                QStringLiteral("rm"),
                QStringLiteral("--force"),
                config.workspaceVolume()});
        pipes.push_back(runAndTarMs(ssh, config.image, big.path()));
    }

    // Sync back: a run that rewrites 10 of the 10,000 files, against one that changes nothing.
    auto session = startedSession(bigConfig);
    if (!session) {
        std::fprintf(stderr, "bench_remote: no session on the big workspace\n");
        return 1;
    }
    std::vector<double> tenBack;
    std::vector<double> plainBack;
    QTemporaryDir elsewhere;
    for (int i = 0; i < 23; ++i) {
        const double changed = timeMs([&] {
            runOnce(*session,
                    QStringLiteral("for f in range(10):\n"
                                   "    open('d7/f%d.bin' % f, 'wb').write(bytes([%1]) * 10240)\n")
                        .arg(i % 256));
        });
        // The plain way: the same run's cost (one changing nothing), then the ten files fetched.
        const double run = timeMs([&] { runOnce(*session, QStringLiteral("x = %1").arg(i)); });
        const double fetch = tenOutMs(ssh, session->containerName(), elsewhere.path());
        if (i >= 3) {
            tenBack.push_back(changed);
            plainBack.push_back(run + fetch);
        }
    }
    const ExecutionResult check
        = runOnce(*session, QStringLiteral("print(open('d7/f3.bin','rb').read(1)[0])"));
    session->stop();
    docker(ssh,
           {QStringLiteral("volume"),
            QStringLiteral("rm"),
            QStringLiteral("--force"),
            bigConfig.workspaceVolume()});
    QFile back(big.filePath(QStringLiteral("d7/f3.bin")));
    back.open(QIODevice::ReadOnly);
    const QByteArray first = back.read(1);
    if (check.stdoutText.trimmed() != QString::number(22 % 256) || first.size() != 1
        || quint8(first.at(0)) != 22) {
        std::fprintf(stderr, "bench_remote: the changed files did not come back\n");
        return 1;
    }

    // A run that makes 100,000 files, all brought back: once each way (a minute or more).
    QTemporaryDir manyHere, manyPlain;
    const SandboxConfig manyConfig
        = configOn(ssh, manyHere.path(), QStringLiteral("bench-remote-many-") + pid);
    auto many = startedSession(manyConfig);
    if (!many) {
        std::fprintf(stderr, "bench_remote: no session for the 100,000 files\n");
        return 1;
    }
    ExecutionResult manyResult;
    bool manyDone = false;
    QObject::connect(many.get(), &SandboxSession::finished, [&](const ExecutionResult &r) {
        manyResult = r;
        manyDone = true;
    });
    QElapsedTimer manyClock;
    manyClock.start();
    many->runPython(makeManyFiles(), 15 * 60 * 1000);
    const qint64 manyStall
        = Sandcastle::Testing::longestStallUntil([&] { return manyDone; }, 16 * 60 * 1000);
    const double manyMs = double(manyClock.nsecsElapsed()) / 1e6;
    many->stop();
    docker(ssh,
           {QStringLiteral("volume"),
            QStringLiteral("rm"),
            QStringLiteral("--force"),
            manyConfig.workspaceVolume()});
    if (!manyResult.isOk() || !manyCameBack(manyHere.path())) {
        std::fprintf(stderr,
                     "bench_remote: the 100,000 files did not come back: %s\n",
                     qPrintable(manyResult.error));
        return 1;
    }
    const double manyPlainMs = manyThePlainWay(ssh, manyConfig.image, manyPlain.path());
    if (!manyCameBack(manyPlain.path())) {
        std::fprintf(stderr, "bench_remote: the plain way did not bring the 100,000 files\n");
        return 1;
    }

    const Bench::Stats s = Bench::stats(overSsh), e = Bench::stats(viaExec),
                       l = Bench::stats(locally);
    std::printf("Remote engine (%s, copy mode)\n", qPrintable(ssh));
    Bench::record({"warm print(1) over ssh:// (copy mode)",
                   "ms",
                   s,
                   "docker -H ssh://… exec … python3 -c 'print(1)'",
                   e,
                   "docker exec over ssh / warm session",
                   e.median / s.median,
                   ">= 10x",
                   e.median / s.median >= 10,
                   ""});
    Bench::record({"warm print(1) over ssh:// (copy mode)",
                   "ms",
                   s,
                   "the same on the local daemon (bind mount)",
                   l,
                   "ssh / local",
                   s.median / l.median,
                   "<= 3x",
                   s.median / l.median <= 3,
                   "one ssh connection kept open; the kernel reports what changed"});
    const Bench::Stats u = Bench::stats(uploads), p = Bench::stats(pipes);
    Bench::record(
        {"upload of 10,000 files, 100 MB (session start over ssh://)",
         "ms",
         u,
         "docker -H ssh://… run -d, then tar -c | docker exec -i … tar -x",
         p,
         "session start / run + tar pipe",
         u.median / p.median,
         "<= 1.5x",
         u.median / p.median <= 1.5,
         "both start a container; the session also starts the kernel and lists the volume"});
    const Bench::Stats t = Bench::stats(tenBack), n = Bench::stats(plainBack);
    Bench::record({"a run changing 10 of 10,000 files, back over ssh://",
                   "ms",
                   t,
                   "a run, then docker -H ssh://… exec … tar -c 10 files | tar -x",
                   n,
                   "session / run + docker exec tar",
                   t.median / n.median,
                   "<= 1.5x",
                   t.median / n.median <= 1.5,
                   "the files written here through PathGuard's rules"});
    const Bench::Stats m = Bench::stats({manyMs}), mp = Bench::stats({manyPlainMs});
    const bool manyHeld = m.median / mp.median <= 1.5 && manyStall < 1000;
    Bench::record(
        {"a run making 100,000 files, all back over ssh://",
         "ms",
         m,
         "docker -H ssh://… exec … python3, then exec … tar -c | tar -x",
         mp,
         "session / exec + tar pipe",
         m.median / mp.median,
         "<= 1.5x, stall < 1 s",
         manyHeld,
         QStringLiteral("the event loop's longest stall %1 ms").arg(manyStall).toStdString()});
    return 0;
}
