#include "clicommon.h"
#include "commands.h"

#include <app/appsettings.h>
#include <app/llm/chattypes.h>
#include <app/llm/modelrequest.h>
#include <sandbox/containerengine.h>

#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QStandardPaths>
#include <QUrl>

namespace Sandcastle::Cli {

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
                          check.leftJustified(8),
                          detail));
    };

    const QString enginePath = QStandardPaths::findExecutable(settings.engine);
    report(!enginePath.isEmpty(),
           QStringLiteral("engine"),
           enginePath.isEmpty()
               ? QStringLiteral("'%1' not found (apt-get install docker.io)").arg(settings.engine)
               : QStringLiteral("%1 at %2").arg(settings.engine, enginePath));
    const ContainerEngine engine(settings.engine, settings.engineContext);
    const Result<QString> daemon = enginePath.isEmpty()
                                       ? Result<QString>::failure(QStringLiteral("no engine"))
                                       : engine.checkDaemon();
    report(daemon.isOk(),
           QStringLiteral("daemon"),
           daemon ? QStringLiteral("running, version %1").arg(daemon.value()) : daemon.error());
    if (daemon) {
        const Result<bool> image = engine.imageExists(settings.image);
        const bool present = image && image.value();
        report(present,
               QStringLiteral("image"),
               present ? settings.image
                       : QStringLiteral("%1 is missing: run 'sandcastle image build'")
                             .arg(settings.image));
    } else {
        report(false, QStringLiteral("image"), QStringLiteral("cannot check without the daemon"));
    }

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
