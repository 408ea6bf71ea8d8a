#include "imagetransfer.h"

#include "daemonendpoint.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QProcessEnvironment>

namespace Sandcastle {

namespace {

constexpr int kStepMs = 250;
constexpr qint64 kMaxBuffered = 8LL << 20;

void startLocal(QProcess &process, const SandboxConfig &config, const QStringList &arguments)
{
    QProcessEnvironment env;
    for (const QString &entry : ImageTransfer::localEnvironment())
        env.insert(entry.section(QLatin1Char('='), 0, 0), entry.section(QLatin1Char('='), 1));
    process.setProcessEnvironment(env);
    process.start(config.engine, arguments);
}

QString lastWords(QProcess &process)
{
    return QString::fromUtf8(process.readAllStandardError())
        .trimmed()
        .section(QLatin1Char('\n'), -1)
        .left(400);
}

QString readInputs(QProcess &process)
{
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished(1000);
        return {};
    }
    return process.exitCode() == 0 ? QString::fromUtf8(process.readAllStandardOutput()).trimmed()
                                   : QString();
}

// After the last byte of the save: both ended well, or why not.
Result<bool> finishLoad(const SandboxConfig &config, QProcess &save, QProcess &load)
{
    save.waitForFinished(10000);
    if (save.exitStatus() != QProcess::NormalExit || save.exitCode() != 0) {
        load.kill();
        load.waitForFinished(2000);
        return Result<bool>::failure(
            QStringLiteral("%1 save failed: %2").arg(config.engine, lastWords(save)));
    }
    while (load.bytesToWrite() > 0 && load.state() == QProcess::Running)
        load.waitForBytesWritten(kStepMs);
    load.closeWriteChannel();
    if (!load.waitForFinished(600000)) {
        load.kill();
        load.waitForFinished(2000);
        return Result<bool>::failure(
            QStringLiteral("the remote engine took more than ten minutes to load the image"));
    }
    if (load.exitStatus() != QProcess::NormalExit || load.exitCode() != 0)
        return Result<bool>::failure(
            QStringLiteral("%1 load failed: %2").arg(config.engine, lastWords(load)));
    return Result<bool>::ok(true);
}

// Copies `save`'s stream into `load` with progress, then waits for both to end well.
Result<bool> pump(const SandboxConfig &config,
                  QProcess &save,
                  QProcess &load,
                  ImageTransfer::Progress &state,
                  const ImageTransfer::ProgressFn &progress)
{
    QElapsedTimer since;
    since.start();
    for (;;) {
        save.waitForReadyRead(kStepMs);
        const QByteArray chunk = save.readAllStandardOutput();
        if (!chunk.isEmpty()) {
            load.write(chunk);
            state.sentBytes += chunk.size();
            while (load.bytesToWrite() > kMaxBuffered && load.state() == QProcess::Running)
                load.waitForBytesWritten(kStepMs);
        }
        if (load.state() != QProcess::Running) {
            const QString broken
                = QStringLiteral("the remote engine stopped reading: ") + lastWords(load);
            save.kill();
            save.waitForFinished(2000);
            return Result<bool>::failure(broken);
        }
        if (since.elapsed() >= kStepMs && progress) {
            progress(state);
            since.restart();
        }
        if (chunk.isEmpty() && save.state() != QProcess::Running)
            break;
    }
    return finishLoad(config, save, load);
}

} // namespace

QStringList ImageTransfer::localEnvironment()
{
    QStringList env;
    const QStringList all = QProcessEnvironment::systemEnvironment().toStringList();
    for (const QString &entry : all) {
        const QString key = entry.section(QLatin1Char('='), 0, 0);
        if (key != QLatin1String("DOCKER_HOST") && key != QLatin1String("DOCKER_CONTEXT")
            && key != QLatin1String("CONTAINER_HOST")
            && key != QLatin1String("CONTAINER_CONNECTION"))
            env << entry;
    }
    return env;
}

QString ImageTransfer::inputsOf(const SandboxConfig &config, bool remote)
{
    const QStringList inspect{
        QStringLiteral("image"),
        QStringLiteral("inspect"),
        QStringLiteral("--format"),
        QStringLiteral("{{index .Config.Labels \"org.sandcastle.inputs\"}}|{{.Id}}"),
        config.image};
    QProcess process;
    if (remote)
        process.start(config.engine, config.engineArguments(inspect));
    else
        startLocal(process, config, inspect);
    return readInputs(process);
}

Result<bool>
ImageTransfer::send(const SandboxConfig &config, const ProgressFn &progress, bool *alreadyThere)
{
    if (alreadyThere)
        *alreadyThere = false;
    const QString here = inputsOf(config, false);
    if (here.isEmpty())
        return Result<bool>::failure(
            QStringLiteral(
                "%1 is not on this machine's %2 either: build it with 'sandcastle image build' "
                "without a remote engine first")
                .arg(config.image, config.engine));
    if (inputsOf(config, true) == here) {
        if (alreadyThere)
            *alreadyThere = true;
        return Result<bool>::ok(true);
    }
    Progress state;
    {
        QProcess size;
        startLocal(size,
                   config,
                   {QStringLiteral("image"),
                    QStringLiteral("inspect"),
                    QStringLiteral("--format"),
                    QStringLiteral("{{.Size}}"),
                    config.image});
        state.totalBytes = readInputs(size).toLongLong();
    }
    QProcess save;
    QProcess load;
    startLocal(save, config, {QStringLiteral("save"), config.image});
    load.start(config.engine,
               config.engineArguments({QStringLiteral("load"), QStringLiteral("--quiet")}));
    if (!save.waitForStarted(30000) || !load.waitForStarted(30000)) {
        save.kill();
        load.kill();
        save.waitForFinished(2000);
        load.waitForFinished(2000);
        return Result<bool>::failure(QStringLiteral("could not start %1").arg(config.engine));
    }
    if (Result<bool> done = pump(config, save, load, state, progress); !done)
        return done;
    if (progress)
        progress(state);
    return Result<bool>::ok(true);
}

} // namespace Sandcastle
