#include "clicommon.h"
#include "commands.h"

#include <app/appsettings.h>
#include <sandbox/daemonendpoint.h>
#include <sandbox/imagetransfer.h>
#include <sandbox/resources.h>

#include <QProcess>
#include <QTemporaryDir>

namespace Sandcastle::Cli {

namespace {

QString megabytes(qint64 bytes)
{
    return QString::number(double(bytes) / (1024.0 * 1024.0), 'f', 0) + QStringLiteral(" MB");
}

// The image from this machine's engine to the configured (remote) one, with progress.
int sendImage()
{
    const AppSettings settings = AppSettings::load();
    const SandboxConfig config = settings.sandboxConfig(QString(), QString());
    const QString host = DaemonEndpoint::hostOf(config);
    writeErr(QStringLiteral("sending %1 to %2 (%3)\n")
                 .arg(config.image,
                      config.context.isEmpty() ? QStringLiteral("the configured engine")
                                               : config.context,
                      host.isEmpty() ? config.engine : host));
    bool already = false;
    const Result<bool> sent = ImageTransfer::send(
        config,
        [](const ImageTransfer::Progress &progress) {
            writeErr(progress.totalBytes > 0
                         ? QStringLiteral("\rsent %1 of about %2")
                               .arg(megabytes(progress.sentBytes), megabytes(progress.totalBytes))
                         : QStringLiteral("\rsent %1").arg(megabytes(progress.sentBytes)));
        },
        &already);
    if (!sent) {
        writeErr(QStringLiteral("\nsandcastle: could not send the image: %1\n").arg(sent.error()));
        return kExitEngine;
    }
    writeErr(already ? QStringLiteral("the same build of %1 is there already; nothing sent\n")
                           .arg(config.image)
                     : QStringLiteral("\n%1 is there now\n").arg(config.image));
    return kExitOk;
}

} // namespace

int runImage(const QStringList &args)
{
    if (args.size() == 1 && args.first() == QLatin1String("send"))
        return sendImage();
    if (args.size() != 1 || args.first() != QLatin1String("build"))
        return usageError(QStringLiteral("the image command is: sandcastle image build|send"));
    QTemporaryDir context;
    if (!context.isValid() || !writeSandboxImageFiles(context.path())) {
        writeErr(QStringLiteral("sandcastle: cannot write the image's build files to a temporary "
                                "folder\n"));
        return kExitEngine;
    }
    QProcess build;
    // The configured context (--context, the settings) as the engine's own variable: the
    // script's docker or podman then builds there.
    const SandboxConfig config = AppSettings::load().sandboxConfig(QString(), QString());
    if (!config.context.isEmpty()) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(config.engine.endsWith(QLatin1String("podman"))
                       ? QStringLiteral("CONTAINER_CONNECTION")
                       : QStringLiteral("DOCKER_CONTEXT"),
                   config.context);
        env.insert(QStringLiteral("SANDCASTLE_ENGINE"), config.engine);
        build.setProcessEnvironment(env);
    }
    build.setProcessChannelMode(QProcess::ForwardedChannels);
    build.setInputChannelMode(QProcess::ForwardedInputChannel);
    build.start(QStringLiteral("bash"), {context.filePath(QStringLiteral("build-image.sh"))});
    if (!build.waitForStarted()) {
        writeErr(QStringLiteral("sandcastle: cannot run bash to build the image\n"));
        return kExitEngine;
    }
    build.waitForFinished(-1);
    if (build.exitStatus() != QProcess::NormalExit)
        return kExitEngine;
    return build.exitCode() == 0 ? kExitOk : kExitEngine;
}

} // namespace Sandcastle::Cli
