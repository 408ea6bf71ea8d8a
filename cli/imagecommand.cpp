#include "clicommon.h"
#include "commands.h"

#include <sandbox/resources.h>

#include <QProcess>
#include <QTemporaryDir>

namespace Sandcastle::Cli {

int runImage(const QStringList &args)
{
    if (args.size() != 1 || args.first() != QLatin1String("build"))
        return usageError(QStringLiteral("the image command is: sandcastle image build"));
    QTemporaryDir context;
    if (!context.isValid() || !writeSandboxImageFiles(context.path())) {
        writeErr(QStringLiteral("sandcastle: cannot write the image's build files to a temporary "
                                "folder\n"));
        return kExitEngine;
    }
    QProcess build;
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
