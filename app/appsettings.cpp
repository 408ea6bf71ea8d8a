#include "appsettings.h"

#include <QDir>
#include <QSettings>
#include <QStandardPaths>

namespace Sandcastle {

QString AppSettings::defaultDataDir()
{
    const QString fromEnv = qEnvironmentVariable("SANDCASTLE_DATA_DIR");
    if (!fromEnv.isEmpty())
        return QDir(fromEnv).absolutePath();
    QString base = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    if (base.isEmpty())
        base = QDir::homePath() + QStringLiteral("/.local/share");
    return base + QStringLiteral("/sandcastle");
}

AppSettings AppSettings::load()
{
    AppSettings s;
    s.dataDir = defaultDataDir();
    QDir().mkpath(s.dataDir);
    QSettings file(s.settingsFile(), QSettings::IniFormat);
    s.baseUrl = file.value(QStringLiteral("model/baseUrl"), s.baseUrl).toString();
    s.model = file.value(QStringLiteral("model/name"), s.model).toString();
    s.apiKey = file.value(QStringLiteral("model/apiKey"), s.apiKey).toString();
    s.maxTurns = file.value(QStringLiteral("agent/maxTurns"), s.maxTurns).toInt();
    s.image = file.value(QStringLiteral("sandbox/image"), s.image).toString();
    s.engine = file.value(QStringLiteral("sandbox/engine"), s.engine).toString();
    s.runTimeoutS = file.value(QStringLiteral("sandbox/timeoutS"), s.runTimeoutS).toInt();

    auto env = [](const char *name, QString &target) {
        const QString value = qEnvironmentVariable(name);
        if (!value.isEmpty())
            target = value;
    };
    env("OPENAI_API_KEY", s.apiKey);
    env("SANDCASTLE_API_KEY", s.apiKey);
    env("SANDCASTLE_BASE_URL", s.baseUrl);
    env("SANDCASTLE_MODEL", s.model);
    env("SANDCASTLE_IMAGE", s.image);
    env("SANDCASTLE_ENGINE", s.engine);
    if (s.maxTurns < 1)
        s.maxTurns = 1;
    if (s.runTimeoutS < 1)
        s.runTimeoutS = 60;
    return s;
}

QString AppSettings::settingsFile() const
{
    return dataDir + QStringLiteral("/settings.ini");
}

QString AppSettings::workspaceFor(const QString &conversationId) const
{
    return dataDir + QStringLiteral("/workspaces/") + conversationId;
}

ClientConfig AppSettings::clientConfig() const
{
    ClientConfig config;
    config.baseUrl = QUrl(baseUrl);
    config.apiKey = apiKey;
    config.model = model;
    return config;
}

SandboxConfig AppSettings::sandboxConfig(const QString &conversationId,
                                         const QString &workspace) const
{
    SandboxConfig config;
    config.engine = engine;
    config.image = image;
    config.conversationId = conversationId;
    config.workspace = workspace;
    config.timeoutMs = runTimeoutS * 1000;
    return config;
}

} // namespace Sandcastle
