// Sandbox latency, measured side by side in one run on the same image and flags:
//   - a small run (print(1)) through a warm session's kernel,
//   - the same through `docker exec <container> python3 -c 'print(1)'`,
//   - the same through a fresh `docker run --rm ... python3 -c 'print(1)'`,
//   - session start (container + kernel ready) against a bare `docker run --rm IMAGE true`.
// Prints medians and the ratios the sandbox issue sets as targets.
#include <sandbox/containerengine.h>
#include <sandbox/sandboxsession.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

using namespace Sandcastle;

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

double timeMs(const std::function<void()> &fn)
{
    QElapsedTimer clock;
    clock.start();
    fn();
    return double(clock.nsecsElapsed()) / 1e6;
}

bool waitFor(QObject *sender, const char *signal, int timeoutMs)
{
    QEventLoop loop;
    QObject::connect(sender, signal, &loop, SLOT(quit()));
    QTimer::singleShot(timeoutMs, &loop, [&loop] { loop.exit(1); });
    return loop.exec() == 0;
}

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

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const int warmRuns = argc > 1 ? QString::fromLocal8Bit(argv[1]).toInt() : 300;
    QTemporaryDir workspace;
    SandboxConfig config = SandboxConfig::fromEnvironment();
    config.workspace = workspace.path();
    const ContainerEngine engine(config.engine);
    const Result<QString> daemon = engine.checkDaemon();
    if (!daemon) {
        std::fprintf(stderr, "bench_sandbox: %s\n", qPrintable(daemon.error()));
        return 125;
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
    session.stop();

    const double w = median(warm), e = median(exec), r = median(run);
    const double s = median(startOnly), b = median(bare);
    std::printf("Sandbox latency (medians; %s, image %s)\n",
                qPrintable(config.engine),
                qPrintable(config.image));
    std::printf("  %-44s %9.3f ms  (n=%zu)\n", "print(1) through a warm session", w, warm.size());
    std::printf(
        "  %-44s %9.3f ms  (n=%zu)\n", "docker exec ... python3 -c 'print(1)'", e, exec.size());
    std::printf(
        "  %-44s %9.3f ms  (n=%zu)\n", "docker run --rm ... python3 -c 'print(1)'", r, run.size());
    std::printf("  %-44s %9.3f ms  (n=%zu)\n",
                "session start (container + kernel ready)",
                s,
                startOnly.size());
    std::printf("  %-44s %9.3f ms  (n=%zu)\n", "docker run --rm IMAGE true", b, bare.size());
    std::printf("Ratios (targets in brackets)\n");
    std::printf("  %-44s %9.1f x   [>= 10]\n", "docker exec / warm session", e / w);
    std::printf("  %-44s %9.1f x   [>= 50]\n", "docker run / warm session", r / w);
    std::printf("  %-44s %9.2f x   [<= 1.5]\n", "session start / bare docker run", s / b);
    std::printf("  %-44s %9.3f ms  [<= 5]\n", "warm session median", w);
    return 0;
}
