#pragma once

#include <app/agent/agent.h>
#include <app/llm/chattypes.h>
#include <sandbox/environmentbuild.h>
#include <sandbox/sandboxconfig.h>

#include <QString>

namespace Sandcastle {

// The application's settings: the settings file in the data folder, overridden by the
// SANDCASTLE_* environment variables (architecture.md §5), which win so that tests and scripts can
// point the app anywhere. The API key is never read from or written to the file: it comes
// from the environment or the system keychain (KeyStore).
struct AppSettings
{
    QString provider = QStringLiteral("openai"); // a ProviderPreset id
    QString baseUrl = QStringLiteral("https://api.openai.com/v1");
    QString model = QStringLiteral("gpt-4o-mini");
    QString apiKey; // in memory only
    // "auto" (the provider's format), "chat", "responses" or "messages".
    QString apiFormat = QStringLiteral("auto");
    int thinkingBudget = 0;    // Anthropic extended thinking, tokens; 0 for none
    bool promptCaching = true; // Anthropic cache_control marks
    bool apiKeyFromEnvironment = false;
    QString image = QStringLiteral("sandcastle-sandbox:latest");
    QString engine = QStringLiteral("docker");
    QString engineContext; // docker --context; empty for the default
    // How the workspace reaches the sandbox: "auto" (bound on a local daemon, copied to a
    // remote one), "bind" or "copy".
    QString workspaceMode = QStringLiteral("auto");
    QString dataDir;
    // Seconds without a byte from the model server before the answer is given up (slow local
    // models may need more).
    int modelIdleTimeoutS = 120;
    int maxTurns = 12;
    bool askFirst = false;    // the person approves each piece of code before it runs
    qint64 tokenBudget = 0;   // per run; 0 for none
    double costBudgetUsd = 0; // per run, from the price table (models.json); 0 for none
    // Fit requests into the model's window (from models.json, else this); 0 to never cut.
    qint64 defaultContextTokens = 32768;
    int toolOutputLimit = Tools::kDefaultOutputLimit; // characters of tool output to the model
    int consoleScrollback = 20000;                    // lines the console keeps
    QString language;                                 // "de", "fr", "en"; empty follows the system
    QString theme = QStringLiteral("system");         // or "light", "dark"
    int runTimeoutS = 60;
    QString memory = QStringLiteral("1g");
    double cpus = 1.0;           // CPUs the sandbox may use
    int outputCapMb = 64;        // a run that prints more is stopped
    int workspaceQuotaMb = 2048; // a run that fills the workspace past this is stopped; 0: none
    bool network = false;        // off unless a person turns it on
    bool fresh = false;          // a new container for every run
    QString runtime;             // "runsc" for gVisor, when the daemon has it
    // Modules each new kernel imports in the background (comma-separated; empty for none), so
    // that the first data run of a conversation does not wait for them.
    QString preimports = QStringLiteral("numpy, pandas, matplotlib.pyplot");
    // One ready sandbox kept in reserve for the next new conversation (not on battery).
    bool warmSpare = true;
    // A conversation's sandbox not looked at or used for this many seconds is stopped (its
    // variables go; the next run starts a new one); 0 keeps it.
    int idleStopS = 30 * 60;
    // A folder of wheels a project's environment installs from alone (no index); empty: the
    // network's index, during the build only.
    QString wheelhouse;
    int environmentTimeoutS = 900; // a project environment's build is stopped past this
    AgentOptions::ToolMode toolMode = AgentOptions::ToolMode::Auto;

    static AppSettings load();
    // The keys of the settings file, each declared once in a table that load() and save() share.
    static QStringList fileKeys();
    static QString defaultDataDir();
    // Writes everything but the key (and what the environment overrode stays as it was).
    void save() const;

    // preimports as a list of module names (names that are not modules are dropped).
    QStringList preimportList() const;

    QString settingsFile() const;
    QString workspaceFor(const QString &conversationId) const;
    // The keychain entry of this provider's key ("api-key/openai", "api-key/custom/host:port").
    QString keyAccount() const;
    ClientConfig clientConfig() const;
    // The wire format the client speaks: apiFormat, or what "auto" means for the provider.
    WireFormat wireFormat() const;
    // `personsFolder`: the workspace is a folder the person opened, not one Sandcastle made
    // (the code runs as its owner; see SandboxConfig::useOpenedFolder()).
    SandboxConfig sandboxConfig(const QString &conversationId,
                                const QString &workspace,
                                bool personsFolder = false) const;
    // With the model's price and window from the built-in table and the data folder's
    // models.json (a model on a loopback server costs nothing unless that file says otherwise).
    AgentOptions agentOptions() const;
    // The request for `workspace`'s environment with these settings (engine, base image,
    // wheelhouse, time limit, the log in the data folder).
    EnvironmentRequest
    environmentRequest(const QString &workspace, const EnvironmentSpec &spec, bool build) const;
    ModelProfile modelProfile() const;

    static QString toolModeName(AgentOptions::ToolMode mode);
    static AgentOptions::ToolMode toolModeFromName(const QString &name);
};

} // namespace Sandcastle
