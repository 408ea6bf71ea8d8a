// Sandbox latency, measured side by side in one run on the same image and flags:
//   - a small run (print(1)) through a warm session's kernel,
//   - the same through `docker exec <container> python3 -c 'print(1)'`,
//   - the same through a fresh `docker run --rm ... python3 -c 'print(1)'`,
//   - session start (container + kernel ready) against a bare `docker run --rm IMAGE true`.
//   - output ingest: bytes per second from a producer in the container into the session's
//     listeners, against `docker exec` of the same producer read into nothing.
//   - a warm run in a workspace of 100,000 small files against the same run in an empty one
//     (`bench_sandbox big-workspace` measures only this).
// Prints each figure with its baseline and ratio (benchreport.h).
#include "benchreport.h"
#include "benchtiming.h"

#include <sandbox/containerengine.h>
#include <sandbox/sandboxsession.h>
#include <sandbox/workspacesnapshot.h>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

using namespace Sandcastle;

namespace {

// Writes `megabytes` MB of 'y' lines to stdout in 64 KiB writes.
QString producer(int megabytes)
{
    return QStringLiteral("import sys\n"
                          "b = (b'y' * 1023 + b'\\n') * 64\n"
                          "w = sys.stdout.buffer.write\n"
                          "for _ in range(%1 * 16):\n"
                          "    w(b)\n"
                          "sys.stdout.flush()\n")
        .arg(megabytes);
}

using Bench::timeMs;
using Bench::waitFor;

QStringList withoutDetach(QStringList args)
{
    // The session's own hardened `docker run` arguments, turned into a one-shot run.
    args.removeOne(QStringLiteral("--detach"));
    const qsizetype name = args.indexOf(QStringLiteral("--name"));
    if (name >= 0)
        args.remove(name, 2);
    args.insert(1, QStringLiteral("--rm"));
    args.removeLast(); // "infinity"
    args.removeLast(); // "sleep"
    return args;
}

// print(1) through two warm sessions, alternating: one on a workspace of 1000 folders of 100
// small files, one on an empty workspace. The files a run changed are found after every run,
// so this is what a big workspace costs each run.
bool bigWorkspaceRow(const SandboxConfig &base, int runs)
{
    QTemporaryDir big, empty;
    for (int d = 0; d < 1000; ++d) {
        const QString folder = big.filePath(QStringLiteral("d%1").arg(d));
        QDir().mkpath(folder);
        for (int f = 0; f < 100; ++f) {
            QFile file(folder + QStringLiteral("/f%1.txt").arg(f));
            if (!file.open(QIODevice::WriteOnly) || file.write("x\n") != 2) {
                std::fprintf(
                    stderr, "bench_sandbox: cannot write %s\n", qPrintable(file.fileName()));
                return false;
            }
        }
    }
    const double walkMs = timeMs([&] { WorkspaceSnapshot::take(big.path()); });
    SandboxConfig bigConfig = base, emptyConfig = base;
    bigConfig.workspace = big.path();
    emptyConfig.workspace = empty.path();
    SandboxSession bigSession(bigConfig), emptySession(emptyConfig);
    for (SandboxSession *session : {&bigSession, &emptySession}) {
        session->start();
        if (!waitFor(session, SIGNAL(ready()), 60000)) {
            std::fprintf(stderr, "bench_sandbox: the session did not start\n");
            return false;
        }
    }
    const auto once = [](SandboxSession &session) {
        return timeMs([&] {
            session.runPython(QStringLiteral("print(1)"));
            waitFor(&session, SIGNAL(finished(Sandcastle::ExecutionResult)), 30000);
        });
    };
    std::vector<double> inBig, inEmpty;
    for (int i = 0; i < runs + 10; ++i) {
        const double b = once(bigSession), e = once(emptySession);
        if (i >= 10) { // the first few warm the caches (and the watcher's first walk ends)
            inBig.push_back(b);
            inEmpty.push_back(e);
        }
    }
    bigSession.stop();
    emptySession.stop();
    const Bench::Stats sb = Bench::stats(inBig), se = Bench::stats(inEmpty);
    char note[160];
    std::snprintf(note,
                  sizeof note,
                  "one full walk of the 100,000 files (the fallback, twice per run): %.0f ms",
                  walkMs);
    Bench::record({"warm print(1) in a workspace of 100,000 files",
                   "ms",
                   sb,
                   "the same in an empty workspace",
                   se,
                   "100,000 files / empty",
                   sb.median / se.median,
                   "<= 1.2x",
                   sb.median / se.median <= 1.2,
                   note});
    return true;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QString first = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QString();
    const bool onlyBigWorkspace = first == QLatin1String("big-workspace");
    const int warmRuns = argc > 1 && !onlyBigWorkspace ? first.toInt() : 300;
    QTemporaryDir workspace;
    SandboxConfig config = SandboxConfig::fromEnvironment();
    config.workspace = workspace.path();
    // The ingest runs are larger than the 64 MB a run may print by default. As in the
    // application, the first 8 MB are kept and forwarded, and every byte is read, framed,
    // decoded and written to the run's log: the rate is of all of it.
    config.outputHardCapBytes = qint64(4) * 1024 * 1024 * 1024;
    config.timeoutMs = 300000;
    const ContainerEngine engine(config.engine);
    const Result<QString> daemon = engine.checkDaemon();
    if (!daemon) {
        std::fprintf(stderr, "bench_sandbox: %s\n", qPrintable(daemon.error()));
        return 125;
    }
    if (onlyBigWorkspace) {
        std::printf(
            "Sandbox (%s, image %s)\n", qPrintable(config.engine), qPrintable(config.image));
        return bigWorkspaceRow(config, 100) ? 0 : 1;
    }

    // Session start against a bare docker run, alternating so both see the same machine.
    std::vector<double> starts, bare;
    for (int i = 0; i < 5; ++i) {
        starts.push_back(timeMs([&] {
            SandboxSession session(config);
            session.start();
            waitFor(&session, SIGNAL(ready()), 60000);
            session.stop();
        }));
        bare.push_back(timeMs([&] {
            engine.run({QStringLiteral("run"),
                        QStringLiteral("--rm"),
                        QStringLiteral("--pull"),
                        QStringLiteral("never"),
                        config.image,
                        QStringLiteral("true")},
                       60000);
        }));
    }
    // the stop() above is part of each start sample's time; measure start alone too
    std::vector<double> startOnly;
    for (int i = 0; i < 5; ++i) {
        SandboxSession session(config);
        startOnly.push_back(timeMs([&] {
            session.start();
            waitFor(&session, SIGNAL(ready()), 60000);
        }));
    }

    SandboxSession session(config);
    session.start();
    if (!waitFor(&session, SIGNAL(ready()), 60000)) {
        std::fprintf(stderr, "bench_sandbox: the session did not start\n");
        return 125;
    }
    std::vector<double> warm;
    for (int i = 0; i < warmRuns + 10; ++i) {
        const double ms = timeMs([&] {
            session.runPython(QStringLiteral("print(1)"));
            waitFor(&session, SIGNAL(finished(Sandcastle::ExecutionResult)), 30000);
        });
        if (i >= 10) // the first few warm the caches
            warm.push_back(ms);
    }
    std::vector<double> exec;
    for (int i = 0; i < 20; ++i) {
        exec.push_back(timeMs([&] {
            engine.run({QStringLiteral("exec"),
                        session.containerName(),
                        QStringLiteral("python3"),
                        QStringLiteral("-c"),
                        QStringLiteral("print(1)")},
                       60000);
        }));
    }
    const QStringList oneShot
        = withoutDetach(
              config.runArguments(QStringLiteral("unused"), QCoreApplication::applicationPid()))
          + QStringList{
              QStringLiteral("python3"), QStringLiteral("-c"), QStringLiteral("print(1)")};
    std::vector<double> run;
    for (int i = 0; i < 10; ++i)
        run.push_back(timeMs([&] { engine.run(oneShot, 60000); }));
    // Output ingest: the runner alone (bytes counted by a listener, nothing shown).
    constexpr int kMegabytes = 100;
    std::vector<double> runnerRates, execRates;
    for (int i = 0; i < 3; ++i) {
        ExecutionResult result;
        const auto connection = QObject::connect(
            &session, &SandboxSession::finished, [&](const ExecutionResult &r) { result = r; });
        const double ms = timeMs([&] {
            session.runPython(producer(kMegabytes));
            waitFor(&session, SIGNAL(finished(Sandcastle::ExecutionResult)), 300000);
        });
        QObject::disconnect(connection);
        const qint64 logged = QFileInfo(workspace.filePath(result.logFile)).size();
        if (result.status != ExecutionResult::Status::Ok
            || logged < qint64(kMegabytes) * 1024 * 1024) {
            std::fprintf(stderr, "bench_sandbox: the run logged %lld bytes\n", logged);
            return 1;
        }
        runnerRates.push_back(double(logged) / 1e6 / (ms / 1000.0));
        // The same producer through docker exec, its output read and dropped.
        QProcess viaExec;
        viaExec.setProgram(engine.program());
        viaExec.setArguments({QStringLiteral("exec"),
                              session.containerName(),
                              QStringLiteral("python3"),
                              QStringLiteral("-c"),
                              producer(kMegabytes)});
        qint64 execBytes = 0;
        QObject::connect(&viaExec, &QProcess::readyReadStandardOutput, [&] {
            execBytes += viaExec.readAllStandardOutput().size();
        });
        const double execMs = timeMs([&] {
            viaExec.start();
            viaExec.waitForStarted(30000);
            QEventLoop loop;
            QObject::connect(&viaExec, &QProcess::finished, &loop, &QEventLoop::quit);
            loop.exec();
        });
        execRates.push_back(double(execBytes) / 1e6 / (execMs / 1000.0));
    }
    session.stop();

    const Bench::Stats w = Bench::stats(warm), e = Bench::stats(exec), r = Bench::stats(run);
    const Bench::Stats st = Bench::stats(startOnly), b = Bench::stats(bare);
    std::printf("Sandbox (%s, image %s)\n", qPrintable(config.engine), qPrintable(config.image));
    Bench::record({"warm run_python print(1) round trip",
                   "ms",
                   w,
                   "docker exec ... python3 -c 'print(1)'",
                   e,
                   "docker exec / warm session",
                   e.median / w.median,
                   "<= 5 ms median and >= 10x",
                   w.median <= 5 && e.median / w.median >= 10,
                   ""});
    Bench::record({"warm run_python print(1) round trip",
                   "ms",
                   w,
                   "docker run --rm ... python3 -c 'print(1)'",
                   r,
                   "docker run / warm session",
                   r.median / w.median,
                   ">= 50x",
                   r.median / w.median >= 50,
                   ""});
    Bench::record({"session start (container + kernel ready)",
                   "ms",
                   st,
                   "docker run --rm IMAGE true",
                   b,
                   "session start / docker run",
                   st.median / b.median,
                   "<= 1.5x",
                   st.median / b.median <= 1.5,
                   ""});
    const Bench::Stats rr = Bench::stats(runnerRates), er = Bench::stats(execRates);
    Bench::record({"output ingest, runner only (100 MB of lines)",
                   "MB/s",
                   rr,
                   "docker exec of the same producer, read into nothing",
                   er,
                   "runner / docker exec",
                   rr.median / er.median,
                   ">= 0.5x",
                   rr.median / er.median >= 0.5,
                   ""});
    return bigWorkspaceRow(config, 100) ? 0 : 1;
}
