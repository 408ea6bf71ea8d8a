#include "clicommon.h"
#include "commands.h"

#include <app/appsettings.h>
#include <app/llm/chattypes.h>
#include <app/llm/modelrequest.h>
#include <sandbox/containerengine.h>
#include <sandbox/daemonendpoint.h>
#include <sandbox/engineprobe.h>
#include <sandbox/sandboxconfig.h>

#include <QDir>
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QStandardPaths>
#include <QUrl>

#include <functional>

namespace Sandcastle::Cli {

namespace {

using Report = std::function<void(bool ok, const QString &check, const QString &detail)>;

// The chosen engine (--engine, --context, the settings): what answers there, how the workspace
// reaches it, and whether the image is there.
void checkEngine(const AppSettings &settings, const Report &report)
{
    const QString enginePath = QStandardPaths::findExecutable(settings.engine);
    const bool podman = EngineProbe::isPodman(settings.engine);
    report(!enginePath.isEmpty(),
           QStringLiteral("engine"),
           enginePath.isEmpty()
               ? QStringLiteral("'%1' not found (apt-get install %2)")
                     .arg(settings.engine,
                          podman ? QStringLiteral("podman") : QStringLiteral("docker.io"))
               : QStringLiteral("%1 at %2").arg(settings.engine, enginePath));
    const ContainerEngine engine(settings.engine, settings.engineContext);
    const Result<QString> daemon = enginePath.isEmpty()
                                       ? Result<QString>::failure(QStringLiteral("no engine"))
                                       : engine.checkDaemon();
    if (!daemon) {
        report(false, QStringLiteral("daemon"), daemon.error());
        report(false, QStringLiteral("image"), QStringLiteral("cannot check without the daemon"));
        return;
    }
    const SandboxConfig config = settings.sandboxConfig(QString(), QDir::tempPath());
    const QString host = DaemonEndpoint::hostOf(config);
    const EngineProbe::Facts facts = EngineProbe::parseInfo(
        settings.engine, engine.run(EngineProbe::infoArguments(settings.engine), 15000).stdoutData);
    const QString where = host.isEmpty() ? QStringLiteral("this machine") : host;
    report(true,
           QStringLiteral("daemon"),
           facts.error.isEmpty()
               ? QStringLiteral("%1, at %2").arg(EngineProbe::describe(facts), where)
               : QStringLiteral("running, version %1, at %2").arg(daemon.value(), where));
    const bool copies = config.copiesWorkspace();
    const QString how
        = copies ? (config.daemonIsLocal()
                        ? QStringLiteral("copied into a volume per conversation (the setting "
                                         "asks for copy mode)")
                        : QStringLiteral("copied into a volume per conversation: the daemon "
                                         "does not see this machine's folders"))
          : config.daemonIsLocal()
              ? QStringLiteral("mounted: the daemon sees this machine's folders")
              : QStringLiteral("mounted because the setting asks for it, though the daemon does "
                               "not see this machine's folders: runs will see an empty folder");
    report(copies || config.daemonIsLocal(), QStringLiteral("workspace"), how);
    const Result<bool> image = engine.imageExists(settings.image);
    const bool present = image && image.value();
    report(present,
           QStringLiteral("image"),
           present ? settings.image
           : config.daemonIsLocal()
               ? QStringLiteral("%1 is missing: run 'sandcastle image build'").arg(settings.image)
               : QStringLiteral("%1 is not at %2: send it from this machine with 'sandcastle "
                                "image send', or build it there with 'sandcastle image build'")
                     .arg(settings.image, where));
}

} // namespace

int runDoctor(const QStringList &args)
{
    if (!args.isEmpty())
        return usageError(QStringLiteral("doctor takes no arguments"));
    AppSettings settings = AppSettings::load();
    const QString keySource = loadKeyFromKeychain(settings);
    bool allOk = true;
    auto report = [&](bool ok, const QString &check, const QString &detail) {
        allOk = allOk && ok;
        writeOut(QStringLiteral("%1  %2  %3\n")
                     .arg(ok ? QStringLiteral("ok  ") : QStringLiteral("FAIL"),
                          check.leftJustified(9),
                          detail));
    };

    checkEngine(settings, report);

    // The endpoint: any HTTP answer from GET /models means it is reachable.
    QNetworkAccessManager network;
    QNetworkRequest request
        = modelRequest(modelsUrl(QUrl(settings.baseUrl)), settings.clientConfig());
    request.setTransferTimeout(5000);
    QNetworkReply *reply = network.get(request);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const bool reachable = status > 0;
    report(reachable,
           QStringLiteral("endpoint"),
           reachable ? QStringLiteral("%1 answers (HTTP %2); spoken to in the %3 format")
                           .arg(settings.baseUrl)
                           .arg(status)
                           .arg(wireFormatName(settings.wireFormat()))
                     : QStringLiteral("%1 cannot be reached: %2")
                           .arg(settings.baseUrl, reply->errorString()));
    reply->deleteLater();

    const QString host = QUrl(settings.baseUrl).host();
    const bool local = host == QLatin1String("localhost") || host.startsWith(QLatin1String("127."))
                       || host == QLatin1String("::1");
    const bool keyOk = !settings.apiKey.isEmpty() || local;
    const bool rejected = status == 401 || status == 403;
    report(keyOk && !rejected,
           QStringLiteral("key"),
           rejected ? QStringLiteral("the endpoint refused the API key (HTTP %1)").arg(status)
           : !settings.apiKey.isEmpty() ? QStringLiteral("set, ") + keySource
           : local
               ? QStringLiteral("none needed for a local endpoint")
               : QStringLiteral("missing: set SANDCASTLE_API_KEY or OPENAI_API_KEY, or enter it in "
                                "the settings (keychain: %1)")
                     .arg(keySource));
    return allOk ? kExitOk : kExitFailure;
}

} // namespace Sandcastle::Cli
