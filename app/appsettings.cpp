#include "appsettings.h"

#include <app/llm/providers.h>
#include <app/project/environmentrecord.h>

#include <QDir>
#include <QHostAddress>
#include <QSettings>
#include <QStandardPaths>

#include <functional>
#include <vector>

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

namespace {

// Every key of the settings file, declared once: load() and save() both walk this table.
struct SettingKey
{
    const char *key;
    std::function<QVariant(const AppSettings &)> get;
    std::function<void(AppSettings &, const QVariant &)> set;
};

template<typename T>
SettingKey field(const char *key, T AppSettings::*member)
{
    return {key,
            [member](const AppSettings &s) { return QVariant::fromValue(s.*member); },
            [member](AppSettings &s, const QVariant &v) {
                s.*member = v.value<T>();
            }};
}

const std::vector<SettingKey> &settingKeys()
{
    static const std::vector<SettingKey> keys{
        field("model/provider", &AppSettings::provider),
        field("model/baseUrl", &AppSettings::baseUrl),
        field("model/name", &AppSettings::model),
        {"model/toolMode",
         [](const AppSettings &s) { return QVariant(AppSettings::toolModeName(s.toolMode)); },
         [](AppSettings &s, const QVariant &v) {
             s.toolMode = AppSettings::toolModeFromName(v.toString());
         }},
        field("agent/maxTurns", &AppSettings::maxTurns),
        field("model/idleTimeoutS", &AppSettings::modelIdleTimeoutS),
        field("model/format", &AppSettings::apiFormat),
        field("model/thinkingBudget", &AppSettings::thinkingBudget),
        field("model/promptCaching", &AppSettings::promptCaching),
        field("agent/askFirst", &AppSettings::askFirst),
        field("agent/tokenBudget", &AppSettings::tokenBudget),
        field("agent/costBudgetUsd", &AppSettings::costBudgetUsd),
        field("agent/contextTokens", &AppSettings::defaultContextTokens),
        field("agent/toolOutputLimit", &AppSettings::toolOutputLimit),
        field("console/scrollback", &AppSettings::consoleScrollback),
        field("ui/language", &AppSettings::language),
        field("ui/theme", &AppSettings::theme),
        field("sandbox/image", &AppSettings::image),
        field("sandbox/engine", &AppSettings::engine),
        field("sandbox/context", &AppSettings::engineContext),
        field("sandbox/workspaceMode", &AppSettings::workspaceMode),
        field("sandbox/timeoutS", &AppSettings::runTimeoutS),
        field("sandbox/memory", &AppSettings::memory),
        field("sandbox/cpus", &AppSettings::cpus),
        field("sandbox/outputCapMb", &AppSettings::outputCapMb),
        field("sandbox/workspaceQuotaMb", &AppSettings::workspaceQuotaMb),
        field("sandbox/network", &AppSettings::network),
        field("sandbox/fresh", &AppSettings::fresh),
        field("sandbox/runtime", &AppSettings::runtime),
        field("sandbox/preimports", &AppSettings::preimports),
        field("sandbox/warmSpare", &AppSettings::warmSpare),
        field("sandbox/idleStopS", &AppSettings::idleStopS),
        field("environment/wheelhouse", &AppSettings::wheelhouse),
        field("environment/buildTimeoutS", &AppSettings::environmentTimeoutS),
    };
    return keys;
}

} // namespace

QStringList AppSettings::fileKeys()
{
    QStringList names;
    for (const SettingKey &key : settingKeys())
        names << QLatin1String(key.key);
    return names;
}

AppSettings AppSettings::load()
{
    AppSettings s;
    s.dataDir = defaultDataDir();
    QDir().mkpath(s.dataDir);
    QSettings file(s.settingsFile(), QSettings::IniFormat);
    for (const SettingKey &key : settingKeys()) {
        const QString name = QLatin1String(key.key);
        if (file.contains(name))
            key.set(s, file.value(name));
    }

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
    env("SANDCASTLE_API_FORMAT", s.apiFormat);
    if (s.apiFormat != QLatin1String("auto") && !wireFormatFromName(s.apiFormat))
        s.apiFormat = QStringLiteral("auto");
    // Anthropic's own variable, when nothing more specific named a key.
    if (s.wireFormat() == WireFormat::Messages && qEnvironmentVariableIsEmpty("SANDCASTLE_API_KEY"))
        s.apiKeyFromEnvironment = env("ANTHROPIC_API_KEY", s.apiKey) || s.apiKeyFromEnvironment;
    s.thinkingBudget = s.thinkingBudget < 1024 ? 0 : std::min(s.thinkingBudget, 128000);
    env("SANDCASTLE_IMAGE", s.image);
    env("SANDCASTLE_ENGINE", s.engine);
    env("SANDCASTLE_CONTEXT", s.engineContext);
    env("SANDCASTLE_WORKSPACE_MODE", s.workspaceMode);
    // Set, even to nothing, it wins (SANDCASTLE_PREIMPORTS= turns pre-imports off).
    if (qEnvironmentVariableIsSet("SANDCASTLE_PREIMPORTS"))
        s.preimports = qEnvironmentVariable("SANDCASTLE_PREIMPORTS");
    s.idleStopS = qBound(0, s.idleStopS, 7 * 24 * 3600);
    if (!SandboxConfig::parseWorkspaceMode(s.workspaceMode))
        s.workspaceMode = QStringLiteral("auto");
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
    s.environmentTimeoutS = qBound(10, s.environmentTimeoutS, 24 * 3600);
    return s;
}

void AppSettings::save() const
{
    QSettings file(settingsFile(), QSettings::IniFormat);
    file.remove(QStringLiteral("model/apiKey")); // never on disk, even if an old file had it
    for (const SettingKey &key : settingKeys())
        file.setValue(QLatin1String(key.key), key.get(*this));
    file.sync();
}

QStringList AppSettings::preimportList() const
{
    QStringList modules;
    for (const QString &part : preimports.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString name = part.trimmed();
        if (SandboxConfig::isValidModuleName(name) && !modules.contains(name))
            modules << name;
    }
    return modules;
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
    config.format = wireFormat();
    config.thinkingBudget = thinkingBudget;
    config.promptCaching = promptCaching;
    return config;
}

WireFormat AppSettings::wireFormat() const
{
    return wireFormatFromName(apiFormat).value_or(automaticFormat(provider, QUrl(baseUrl)));
}

SandboxConfig AppSettings::sandboxConfig(const QString &conversationId,
                                         const QString &workspace,
                                         bool personsFolder) const
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
    if (!fresh) // a container per run: nothing would use them
        config.preimports = preimportList();
    config.context = engineContext;
    config.ownerData = SandboxConfig::ownerDataFor(dataDir);
    config.workspaceMode = SandboxConfig::parseWorkspaceMode(workspaceMode)
                               .value_or(SandboxConfig::WorkspaceMode::Auto);
    if (personsFolder)
        config.useOpenedFolder();
    return config;
}

EnvironmentRequest AppSettings::environmentRequest(const QString &workspace,
                                                   const EnvironmentSpec &spec,
                                                   bool build) const
{
    EnvironmentRequest request;
    request.engine = engine;
    request.context = engineContext;
    request.baseImage = image;
    request.workspace = workspace;
    request.spec = spec;
    request.wheelhouse = wheelhouse;
    request.build = build;
    request.timeoutMs = environmentTimeoutS * 1000;
    request.logFile = EnvironmentRecord::logFileFor(dataDir, spec);
    return request;
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
