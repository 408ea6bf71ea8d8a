// Packages and environments, measured side by side in one run:
//   - the default image built from Debian's packages with --no-cache (no registry: the base is
//     the local one build-image.sh made), against the same base with python3 alone;
//   - a project environment found again (a second conversation with the same requirements.txt
//     and apt.txt), against a bare `docker image inspect`;
//   - the first `import sklearn` in a new conversation's kernel, against the first run of
//     `pass` in another new one.
// Prints each figure with its baseline and ratio (benchreport.h).
#include "benchreport.h"

#include <sandbox/containerengine.h>
#include <sandbox/environmentbuild.h>
#include <sandbox/resources.h>
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
#include <optional>
#include <vector>

using namespace Sandcastle;

namespace {

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
           && file.write(bytes) == bytes.size();
}

// Seconds a `docker build --no-cache` of `context` takes, or a negative number on failure.
double buildSeconds(const SandboxConfig &config,
                    const QString &context,
                    const QStringList &extra,
                    const QString &tag)
{
    QProcess build;
    build.setProcessChannelMode(QProcess::MergedChannels);
    QElapsedTimer clock;
    clock.start();
    build.start(config.engine,
                QStringList{QStringLiteral("build"),
                            QStringLiteral("--no-cache"),
                            QStringLiteral("-q"),
                            QStringLiteral("-t"),
                            tag}
                    + extra + QStringList{context});
    if (!build.waitForFinished(30 * 60 * 1000) || build.exitCode() != 0) {
        std::fprintf(stderr,
                     "bench_packages: the build of %s failed:\n%s\n",
                     qPrintable(tag),
                     build.readAll().right(3000).constData());
        return -1;
    }
    return double(clock.elapsed()) / 1000.0;
}

std::optional<Result<EnvironmentImage>> runEnvironment(const EnvironmentRequest &request)
{
    EnvironmentBuild build(request);
    std::optional<Result<EnvironmentImage>> outcome;
    QEventLoop loop;
    QObject::connect(
        &build, &EnvironmentBuild::finished, &loop, [&](const Result<EnvironmentImage> &r) {
            outcome = r;
            loop.quit();
        });
    build.start();
    if (!outcome)
        loop.exec();
    return outcome;
}

// Milliseconds from asking a new session for `code` to its result (container start included
// in neither: the session is ready first).
double firstRunMs(const SandboxConfig &config, const QString &code)
{
    SandboxSession session(config);
    QEventLoop loop;
    QObject::connect(&session, &SandboxSession::ready, &loop, &QEventLoop::quit);
    session.start();
    loop.exec();
    std::optional<ExecutionResult> result;
    QObject::connect(&session, &SandboxSession::finished, &loop, [&](const ExecutionResult &r) {
        result = r;
        loop.quit();
    });
    QElapsedTimer clock;
    clock.start();
    session.runPython(code);
    loop.exec();
    const double ms = double(clock.nsecsElapsed()) / 1e6;
    session.stop();
    return result && result->isOk() ? ms : -1;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    initSandboxResources();
    const SandboxConfig config = SandboxConfig::fromEnvironment();
    const ContainerEngine engine(config.engine);
    const QString base = [&] {
        for (const QString &candidate :
             {QStringLiteral("debian:bookworm-slim"), QStringLiteral("sandcastle-base:bookworm")})
            if (engine.imageExists(candidate).value())
                return candidate;
        return QString();
    }();
    if (base.isEmpty()) {
        std::fprintf(stderr, "bench_packages: no base image (run scripts/setup first)\n");
        return 1;
    }

    // 1. The default image from scratch, and python3 alone on the same base.
    QTemporaryDir context;
    if (!writeSandboxImageFiles(context.path())) {
        std::fprintf(stderr, "bench_packages: cannot write the image's build files\n");
        return 1;
    }
    QTemporaryDir bare;
    writeFile(
        bare.filePath(QStringLiteral("Dockerfile")),
        "ARG BASE\nFROM ${BASE}\nRUN apt-get update && apt-get install -y --no-install-recommends "
        "python3 && rm -rf /var/lib/apt/lists/*\n");
    const QStringList baseArg{QStringLiteral("--build-arg"), QStringLiteral("BASE=") + base};
    const double stack
        = buildSeconds(config, context.path(), baseArg, QStringLiteral("sandcastle-bench:stack"));
    const double python
        = buildSeconds(config, bare.path(), baseArg, QStringLiteral("sandcastle-bench:python3"));
    if (stack < 0 || python < 0)
        return 1;
    const auto sizeMb = [&](const QString &image) {
        return QString::fromUtf8(engine
                                     .run({QStringLiteral("image"),
                                           QStringLiteral("inspect"),
                                           QStringLiteral("--format"),
                                           QStringLiteral("{{.Size}}"),
                                           image})
                                     .stdoutData)
                   .trimmed()
                   .toLongLong()
               / 1000000;
    };
    const qint64 stackMb = sizeMb(QStringLiteral("sandcastle-bench:stack"));
    const qint64 pythonMb = sizeMb(QStringLiteral("sandcastle-bench:python3"));
    engine.run({QStringLiteral("image"),
                QStringLiteral("rm"),
                QStringLiteral("sandcastle-bench:stack"),
                QStringLiteral("sandcastle-bench:python3")});
    Bench::Row image;
    image.figure = "default image build, Debian packages, --no-cache";
    image.unit = "s";
    image.value = Bench::single(stack);
    image.baseline = "python3 alone on the same base";
    image.baselineValue = Bench::single(python);
    image.ratioLabel = "data stack / python3 alone";
    image.ratio = stack / std::max(python, 0.001);
    image.target = "<= 300 s and <= 1000 MB";
    image.met = stack <= 300 && stackMb <= 1000;
    image.note = "image " + std::to_string(stackMb) + " MB (python3 alone "
                 + std::to_string(pythonMb) + " MB)";
    Bench::record(image);

    // 2. A project environment found again.
    QTemporaryDir project;
    writeFile(project.filePath(QStringLiteral("apt.txt")), "jq\n");
    EnvironmentRequest request;
    request.engine = config.engine;
    request.baseImage = config.image;
    request.workspace = project.path();
    request.spec = EnvironmentSpec::read(project.path()).value();
    request.timeoutMs = 10 * 60 * 1000;
    const auto built = runEnvironment(request);
    if (!built || !*built) {
        std::fprintf(stderr,
                     "bench_packages: the environment build failed: %s\n",
                     built ? qPrintable(built->error()) : "no end");
        return 1;
    }
    const QString tag = built->value().tag;
    std::vector<double> reuse;
    std::vector<double> inspect;
    for (int i = 0; i < 20; ++i) {
        QElapsedTimer clock;
        clock.start();
        const auto again = runEnvironment(request);
        reuse.push_back(double(clock.nsecsElapsed()) / 1e6);
        if (!again || !*again || again->value().origin != EnvironmentImage::Origin::Reused) {
            std::fprintf(stderr, "bench_packages: the environment was not found again\n");
            return 1;
        }
        clock.restart();
        engine.run({QStringLiteral("image"), QStringLiteral("inspect"), tag});
        inspect.push_back(double(clock.nsecsElapsed()) / 1e6);
    }
    engine.run({QStringLiteral("image"), QStringLiteral("rm"), tag});
    Bench::Row env;
    env.figure = "project environment found again (same files)";
    env.unit = "ms";
    env.value = Bench::stats(reuse);
    env.baseline = "docker image inspect of it";
    env.baselineValue = Bench::stats(inspect);
    env.ratioLabel = "lookup / inspect";
    env.ratio = env.value.median / std::max(env.baselineValue.median, 0.001);
    env.target = "<= 1000 ms (p95)";
    env.met = env.value.p95 <= 1000;
    env.note = "first build of apt.txt \"jq\": " + std::to_string(built->value().elapsedMs / 1000)
               + " s";
    Bench::record(env);

    // 3. The first import of scikit-learn in a new conversation.
    QTemporaryDir workspace;
    SandboxConfig session = config;
    session.workspace = workspace.path();
    session.conversationId = QStringLiteral("bench-packages");
    std::vector<double> sklearn;
    std::vector<double> pass;
    for (int i = 0; i < 5; ++i) {
        const double a = firstRunMs(session, QStringLiteral("import sklearn.linear_model"));
        const double b = firstRunMs(session, QStringLiteral("pass"));
        if (a < 0 || b < 0) {
            std::fprintf(stderr, "bench_packages: a first run failed\n");
            return 1;
        }
        sklearn.push_back(a);
        pass.push_back(b);
    }
    Bench::Row first;
    first.figure = "first import sklearn in a new conversation";
    first.unit = "ms";
    first.value = Bench::stats(sklearn);
    first.baseline = "first run of pass in a new conversation";
    first.baselineValue = Bench::stats(pass);
    first.ratioLabel = "import sklearn / pass";
    first.ratio = first.value.median / std::max(first.baselineValue.median, 0.001);
    first.target = "<= 2000 ms (median)";
    first.met = first.value.median <= 2000;
    first.note = "pre-importing in the background is the performance issue's";
    Bench::record(first);
    return 0;
}
