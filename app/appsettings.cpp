#include "appsettings.h"

#include <app/llm/providers.h>

#include <QDir>
#include <QHostAddress>
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

QString AppSettings::toolModeName(AgentOptions::ToolMode mode)
{
    switch (mode) {
    case AgentOptions::ToolMode::Native:
        return QStringLiteral("tools");
    case AgentOptions::ToolMode::CodeBlocks:
        return QStringLiteral("code-blocks");
    case AgentOptions::ToolMode::Auto:
        break;
    }
    return QStringLiteral("auto");
}

AgentOptions::ToolMode AppSettings::toolModeFromName(const QString &name)
{
    if (name == QLatin1String("tools"))
        return AgentOptions::ToolMode::Native;
    if (name == QLatin1String("code-blocks"))
        return AgentOptions::ToolMode::CodeBlocks;
    return AgentOptions::ToolMode::Auto;
}

AppSettings AppSettings::load()
{
    AppSettings s;
    s.dataDir = defaultDataDir();
    QDir().mkpath(s.dataDir);
    QSettings file(s.settingsFile(), QSettings::IniFormat);
    s.provider = file.value(QStringLiteral("model/provider"), s.provider).toString();
    s.baseUrl = file.value(QStringLiteral("model/baseUrl"), s.baseUrl).toString();
    s.model = file.value(QStringLiteral("model/name"), s.model).toString();
    s.toolMode = toolModeFromName(file.value(QStringLiteral("model/toolMode")).toString());
    s.maxTurns = file.value(QStringLiteral("agent/maxTurns"), s.maxTurns).toInt();
    s.modelIdleTimeoutS
        = file.value(QStringLiteral("model/idleTimeoutS"), s.modelIdleTimeoutS).toInt();
    s.askFirst = file.value(QStringLiteral("agent/askFirst"), s.askFirst).toBool();
    s.tokenBudget = file.value(QStringLiteral("agent/tokenBudget"), s.tokenBudget).toLongLong();
    s.costBudgetUsd = file.value(QStringLiteral("agent/costBudgetUsd"), s.costBudgetUsd).toDouble();
    s.defaultContextTokens
        = file.value(QStringLiteral("agent/contextTokens"), s.defaultContextTokens).toLongLong();
    s.toolOutputLimit
        = file.value(QStringLiteral("agent/toolOutputLimit"), s.toolOutputLimit).toInt();
    s.consoleScrollback
        = file.value(QStringLiteral("console/scrollback"), s.consoleScrollback).toInt();
    s.language = file.value(QStringLiteral("ui/language"), s.language).toString();
    s.theme = file.value(QStringLiteral("ui/theme"), s.theme).toString();
    s.image = file.value(QStringLiteral("sandbox/image"), s.image).toString();
    s.engine = file.value(QStringLiteral("sandbox/engine"), s.engine).toString();
    s.engineContext = file.value(QStringLiteral("sandbox/context"), s.engineContext).toString();
    s.runTimeoutS = file.value(QStringLiteral("sandbox/timeoutS"), s.runTimeoutS).toInt();
    s.memory = file.value(QStringLiteral("sandbox/memory"), s.memory).toString();
    s.cpus = file.value(QStringLiteral("sandbox/cpus"), s.cpus).toDouble();
    s.outputCapMb = file.value(QStringLiteral("sandbox/outputCapMb"), s.outputCapMb).toInt();
    s.workspaceQuotaMb
        = file.value(QStringLiteral("sandbox/workspaceQuotaMb"), s.workspaceQuotaMb).toInt();
    s.network = file.value(QStringLiteral("sandbox/network"), s.network).toBool();
    s.fresh = file.value(QStringLiteral("sandbox/fresh"), s.fresh).toBool();
    s.runtime = file.value(QStringLiteral("sandbox/runtime"), s.runtime).toString();

    auto env = [](const char *name, QString &target) {
        const QString value = qEnvironmentVariable(name);
        if (value.isEmpty())
            return false;
        target = value;
        return true;
    };
    s.apiKeyFromEnvironment = env("OPENAI_API_KEY", s.apiKey);
    s.apiKeyFromEnvironment = env("SANDCASTLE_API_KEY", s.apiKey) || s.apiKeyFromEnvironment;
    if (env("SANDCASTLE_BASE_URL", s.baseUrl))
        s.provider = providerForUrl(QUrl(s.baseUrl)).id;
    env("SANDCASTLE_MODEL", s.model);
    env("SANDCASTLE_IMAGE", s.image);
    env("SANDCASTLE_ENGINE", s.engine);
    if (s.maxTurns < 1)
        s.maxTurns = 1;
    s.modelIdleTimeoutS = qBound(1, s.modelIdleTimeoutS, 3600);
    if (s.runTimeoutS < 1)
        s.runTimeoutS = 60;
    if (s.costBudgetUsd < 0)
        s.costBudgetUsd = 0;
    if (s.defaultContextTokens < 0)
        s.defaultContextTokens = 0;
    s.consoleScrollback = qBound(100, s.consoleScrollback, 1000000);
    if (!(s.cpus >= 0.1 && s.cpus <= 256))
        s.cpus = 1.0;
    s.outputCapMb = qBound(1, s.outputCapMb, 4096);
    s.workspaceQuotaMb = qBound(0, s.workspaceQuotaMb, 1024 * 1024);
    if (s.toolOutputLimit < 256)
        s.toolOutputLimit = Tools::kDefaultOutputLimit;
    return s;
}

void AppSettings::save() const
{
    QSettings file(settingsFile(), QSettings::IniFormat);
    file.remove(QStringLiteral("model/apiKey")); // never on disk, even if an old file had it
    file.setValue(QStringLiteral("model/provider"), provider);
    file.setValue(QStringLiteral("model/baseUrl"), baseUrl);
    file.setValue(QStringLiteral("model/name"), model);
    file.setValue(QStringLiteral("model/toolMode"), toolModeName(toolMode));
    file.setValue(QStringLiteral("agent/maxTurns"), maxTurns);
    file.setValue(QStringLiteral("model/idleTimeoutS"), modelIdleTimeoutS);
    file.setValue(QStringLiteral("agent/askFirst"), askFirst);
    file.setValue(QStringLiteral("agent/tokenBudget"), tokenBudget);
    file.setValue(QStringLiteral("agent/costBudgetUsd"), costBudgetUsd);
    file.setValue(QStringLiteral("agent/contextTokens"), defaultContextTokens);
    file.setValue(QStringLiteral("agent/toolOutputLimit"), toolOutputLimit);
    file.setValue(QStringLiteral("console/scrollback"), consoleScrollback);
    file.setValue(QStringLiteral("ui/language"), language);
    file.setValue(QStringLiteral("ui/theme"), theme);
    file.setValue(QStringLiteral("sandbox/image"), image);
    file.setValue(QStringLiteral("sandbox/engine"), engine);
    file.setValue(QStringLiteral("sandbox/context"), engineContext);
    file.setValue(QStringLiteral("sandbox/timeoutS"), runTimeoutS);
    file.setValue(QStringLiteral("sandbox/memory"), memory);
    file.setValue(QStringLiteral("sandbox/cpus"), cpus);
    file.setValue(QStringLiteral("sandbox/outputCapMb"), outputCapMb);
    file.setValue(QStringLiteral("sandbox/workspaceQuotaMb"), workspaceQuotaMb);
    file.setValue(QStringLiteral("sandbox/network"), network);
    file.setValue(QStringLiteral("sandbox/fresh"), fresh);
    file.setValue(QStringLiteral("sandbox/runtime"), runtime);
    file.sync();
}

QString AppSettings::settingsFile() const
{
    return dataDir + QStringLiteral("/settings.ini");
}

QString AppSettings::workspaceFor(const QString &conversationId) const
{
    return dataDir + QStringLiteral("/workspaces/") + conversationId;
}

QString AppSettings::keyAccount() const
{
    if (provider != QLatin1String("custom") && providerById(provider).id == provider)
        return QStringLiteral("api-key/") + provider;
    const QUrl url(baseUrl);
    return QStringLiteral("api-key/custom/%1:%2")
        .arg(url.host())
        .arg(url.port(url.scheme() == QLatin1String("https") ? 443 : 80));
}

ClientConfig AppSettings::clientConfig() const
{
    ClientConfig config;
    config.baseUrl = QUrl(baseUrl);
    config.apiKey = apiKey;
    config.model = model;
    config.extraHeaders = providerById(provider).headers;
    config.idleTimeoutMs = modelIdleTimeoutS * 1000;
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
    config.memory = memory;
    config.cpus = QString::number(cpus, 'g', 3);
    config.outputHardCapBytes = qint64(outputCapMb) * 1024 * 1024;
    config.workspaceQuotaBytes = qint64(workspaceQuotaMb) * 1024 * 1024;
    config.maxKeptBytes = std::min(config.maxKeptBytes, config.outputHardCapBytes);
    config.network = network;
    config.runtime = runtime;
    config.fresh = fresh;
    config.context = engineContext;
    return config;
}

AgentOptions AppSettings::agentOptions() const
{
    AgentOptions options;
    options.maxTurns = maxTurns;
    options.toolMode = toolMode;
    options.askFirst = askFirst;
    options.tokenBudget = tokenBudget;
    options.costBudgetUsd = costBudgetUsd;
    options.profile = modelProfile();
    options.contextTokens
        = options.profile.contextTokens > 0 ? options.profile.contextTokens : defaultContextTokens;
    options.outputLimit = toolOutputLimit;
    return options;
}

ModelProfile AppSettings::modelProfile() const
{
    ModelProfiles profiles = ModelProfiles::builtIn();
    const Result<bool> loaded = profiles.loadFile(ModelProfiles::fileIn(dataDir));
    if (!loaded)
        qWarning("%s", qPrintable(loaded.error()));
    ModelProfile profile = profiles.lookup(model);
    const QHostAddress host(QUrl(baseUrl).host());
    const bool local
        = host.isLoopback()
          || QUrl(baseUrl).host().compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0;
    if (!profile.hasPrice() && local) {
        profile.inputPerMTok = 0;
        profile.outputPerMTok = 0;
    }
    return profile;
}

} // namespace Sandcastle
