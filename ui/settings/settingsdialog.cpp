#include "settingsdialog.h"

#include "enginepage.h"
#include "mcppage.h"

#include <app/keystore.h>
#include <app/llm/modelcatalog.h>
#include <app/llm/providers.h>
#include <sandbox/sandboxconfig.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QThread>
#include <QVBoxLayout>

namespace Sandcastle {

SettingsDialog::SettingsDialog(const AppSettings &settings, QWidget *parent)
    : QDialog(parent)
    , m_settings(settings)
    , m_provider(new QComboBox(this))
    , m_baseUrl(new QLineEdit(this))
    , m_model(new QComboBox(this))
    , m_key(new QLineEdit(this))
    , m_toolMode(new QComboBox(this))
    , m_apiFormat(new QComboBox(this))
    , m_thinkingBudget(new QSpinBox(this))
    , m_promptCaching(new QCheckBox(
          tr("Prompt caching (Anthropic: mark the prompt so repeated input is billed less)"), this))
    , m_maxTurns(new QSpinBox(this))
    , m_timeout(new QSpinBox(this))
    , m_memory(new QLineEdit(this))
    , m_cpus(new QDoubleSpinBox(this))
    , m_outputCap(new QSpinBox(this))
    , m_workspaceQuota(new QSpinBox(this))
    , m_wheelhouse(new QLineEdit(this))
    , m_buildLimit(new QSpinBox(this))
    , m_network(
          new QCheckBox(tr("Allow network access (off keeps code from reaching anything)"), this))
    , m_gvisor(new QCheckBox(tr("Run under gVisor (runsc) for a stronger boundary"), this))
    , m_fresh(new QCheckBox(
          tr("A fresh container for every run (slower; nothing kept between runs)"), this))
    , m_preimports(new QLineEdit(this))
    , m_warmSpare(new QCheckBox(
          tr("Keep a sandbox ready for the next new conversation (not on battery)"), this))
    , m_idleStop(new QSpinBox(this))
    , m_askFirst(
          new QCheckBox(tr("Ask before running the agent's code (you can edit it first)"), this))
    , m_tokenBudget(new QSpinBox(this))
    , m_costBudget(new QDoubleSpinBox(this))
    , m_language(new QComboBox(this))
    , m_theme(new QComboBox(this))
    , m_status(new QLabel(this))
    , m_pages(new QTabWidget(this))
    , m_catalog(new ModelCatalog(this))
    , m_keys(new KeyStore(this))
{
    QPushButton *refresh = setUpModelFields(settings);
    setUpFormatFields(settings);
    setUpRunFields(settings);
    setUpLookFields(settings);
    probeRuntimes(settings);
    QDialogButtonBox *buttons = layOut(refresh);
    connectFields(buttons, refresh);
}

// Provider, server, model, key and tool mode; returns the button that lists the models.
QPushButton *SettingsDialog::setUpModelFields(const AppSettings &settings)
{
    setWindowTitle(tr("Settings"));
    setObjectName(QStringLiteral("settingsDialog"));
    for (const ProviderPreset &preset : providerPresets())
        m_provider->addItem(preset.name, preset.id);
    m_provider->setCurrentIndex(qMax(0, m_provider->findData(settings.provider)));
    m_baseUrl->setText(settings.baseUrl);
    m_baseUrl->setPlaceholderText(QStringLiteral("http://localhost:11434/v1"));
    m_model->setEditable(true);
    m_model->setCurrentText(settings.model);
    m_model->setMinimumContentsLength(24);
    auto *refresh = new QPushButton(tr("Refresh"), this);
    refresh->setObjectName(QStringLiteral("refreshModels"));
    refresh->setToolTip(tr("Ask the server which models it has"));
    m_key->setEchoMode(QLineEdit::Password);
    m_key->setPlaceholderText(settings.apiKeyFromEnvironment ? tr("set by the environment")
                                                             : tr("stored in the system keychain"));
    m_key->setEnabled(!settings.apiKeyFromEnvironment);
    m_toolMode->addItem(tr("Automatic (tool calls, else code blocks)"),
                        AppSettings::toolModeName(AgentOptions::ToolMode::Auto));
    m_toolMode->addItem(tr("Tool calls"),
                        AppSettings::toolModeName(AgentOptions::ToolMode::Native));
    m_toolMode->addItem(tr("Code blocks (models without tool calling)"),
                        AppSettings::toolModeName(AgentOptions::ToolMode::CodeBlocks));
    m_toolMode->setCurrentIndex(
        qMax(0, m_toolMode->findData(AppSettings::toolModeName(settings.toolMode))));
    return refresh;
}

// How the client speaks to the server: the wire format, extended thinking and prompt caching.
void SettingsDialog::setUpFormatFields(const AppSettings &settings)
{
    m_apiFormat->setObjectName(QStringLiteral("apiFormat"));
    m_apiFormat->addItem(QString(), QStringLiteral("auto"));
    m_apiFormat->addItem(tr("Chat Completions (/chat/completions)"),
                         wireFormatName(WireFormat::ChatCompletions));
    m_apiFormat->addItem(tr("Responses (/responses)"), wireFormatName(WireFormat::Responses));
    m_apiFormat->addItem(tr("Anthropic Messages (/messages)"),
                         wireFormatName(WireFormat::Messages));
    m_apiFormat->setCurrentIndex(qMax(0, m_apiFormat->findData(settings.apiFormat)));
    m_apiFormat->setToolTip(
        tr("The API the model is called through. OpenAI's newest models are offered through "
           "Responses, some only there; Claude is best used through Anthropic Messages; most "
           "other servers speak Chat Completions."));
    m_thinkingBudget->setObjectName(QStringLiteral("thinkingBudget"));
    m_thinkingBudget->setRange(0, 128000);
    m_thinkingBudget->setSingleStep(1024);
    m_thinkingBudget->setSuffix(tr(" tokens"));
    m_thinkingBudget->setSpecialValueText(tr("off"));
    m_thinkingBudget->setValue(settings.thinkingBudget);
    m_thinkingBudget->setToolTip(
        tr("Anthropic extended thinking: how many tokens the model may think for before it "
           "answers (at least 1024; billed as output)"));
    m_promptCaching->setObjectName(QStringLiteral("promptCaching"));
    m_promptCaching->setChecked(settings.promptCaching);
    m_promptCaching->setToolTip(
        tr("OpenAI and most others cache by themselves; cached input shows in the status bar"));
    showAutomaticFormat();
}

void SettingsDialog::showAutomaticFormat()
{
    const WireFormat format
        = automaticFormat(m_provider->currentData().toString(), QUrl(m_baseUrl->text().trimmed()));
    const QString name = format == WireFormat::Responses  ? tr("Responses")
                         : format == WireFormat::Messages ? tr("Anthropic Messages")
                                                          : tr("Chat Completions");
    m_apiFormat->setItemText(0, tr("Automatic (%1)").arg(name));
    const bool messages
        = (wireFormatFromName(m_apiFormat->currentData().toString()).value_or(format))
          == WireFormat::Messages;
    m_thinkingBudget->setEnabled(messages);
    m_promptCaching->setEnabled(messages);
}

// The agent's and the sandbox's limits.
void SettingsDialog::setUpRunFields(const AppSettings &settings)
{
    m_maxTurns->setRange(1, 100);
    m_maxTurns->setValue(settings.maxTurns);
    m_timeout->setRange(1, 3600);
    m_timeout->setSuffix(tr(" s"));
    m_timeout->setValue(settings.runTimeoutS);
    m_memory->setObjectName(QStringLiteral("memory"));
    m_memory->setText(settings.memory);
    m_memory->setToolTip(tr("Memory limit of the sandbox, e.g. 512m or 2g (swap is not added)"));
    m_cpus->setObjectName(QStringLiteral("cpus"));
    m_cpus->setRange(0.1, std::max(1, QThread::idealThreadCount()));
    m_cpus->setDecimals(1);
    m_cpus->setSingleStep(0.5);
    m_cpus->setValue(settings.cpus);
    m_cpus->setToolTip(tr("How many of this machine's CPUs the sandbox may use"));
    m_outputCap->setObjectName(QStringLiteral("outputCap"));
    m_outputCap->setRange(1, 4096);
    m_outputCap->setSuffix(tr(" MB"));
    m_outputCap->setValue(settings.outputCapMb);
    m_outputCap->setToolTip(tr("A run that prints more than this is stopped"));
    m_workspaceQuota->setObjectName(QStringLiteral("workspaceQuota"));
    m_workspaceQuota->setRange(0, 1024 * 1024);
    m_workspaceQuota->setSingleStep(256);
    m_workspaceQuota->setSuffix(tr(" MB"));
    m_workspaceQuota->setSpecialValueText(tr("no limit"));
    m_workspaceQuota->setValue(settings.workspaceQuotaMb);
    m_workspaceQuota->setToolTip(
        tr("A run that fills the conversation's workspace past this is stopped"));
    m_wheelhouse->setObjectName(QStringLiteral("wheelhouse"));
    m_wheelhouse->setText(settings.wheelhouse);
    m_wheelhouse->setPlaceholderText(tr("none: the package index, during the build only"));
    m_wheelhouse->setToolTip(tr("A folder of wheels that a project's environment installs from "
                                "alone (pip --no-index --find-links), for a machine without a "
                                "package index"));
    m_buildLimit->setObjectName(QStringLiteral("buildLimit"));
    m_buildLimit->setRange(1, 24 * 60);
    m_buildLimit->setSuffix(tr(" min"));
    m_buildLimit->setValue(std::max(1, settings.environmentTimeoutS / 60));
    m_buildLimit->setToolTip(
        tr("A project environment's build is stopped past this, its log kept"));
    m_network->setObjectName(QStringLiteral("networkBox"));
    m_network->setChecked(settings.network);
    m_gvisor->setChecked(settings.runtime == QLatin1String("runsc"));
    m_fresh->setChecked(settings.fresh);
    m_preimports->setObjectName(QStringLiteral("preimports"));
    m_preimports->setText(settings.preimports);
    m_preimports->setPlaceholderText(tr("none"));
    m_preimports->setToolTip(tr("Modules each new sandbox imports in the background, comma-"
                                "separated, so that a first data run does not wait for them; "
                                "one that is not installed is skipped"));
    m_warmSpare->setObjectName(QStringLiteral("warmSpare"));
    m_warmSpare->setChecked(settings.warmSpare);
    m_idleStop->setObjectName(QStringLiteral("idleStop"));
    m_idleStop->setRange(0, 7 * 24 * 60);
    m_idleStop->setSuffix(tr(" min"));
    m_idleStop->setSpecialValueText(tr("never"));
    m_idleStop->setValue((settings.idleStopS + 59) / 60);
    m_idleStop->setToolTip(tr("A conversation's sandbox that is neither looked at nor used for "
                              "this long is stopped to free its memory; its variables are lost "
                              "and the next run starts a new one"));
    m_askFirst->setChecked(settings.askFirst);
    m_tokenBudget->setRange(0, 100'000'000);
    m_tokenBudget->setSingleStep(10'000);
    m_tokenBudget->setSpecialValueText(tr("no limit"));
    m_tokenBudget->setValue(int(qMin<qint64>(settings.tokenBudget, 100'000'000)));
    m_costBudget->setObjectName(QStringLiteral("costBudget"));
    m_costBudget->setRange(0, 1000);
    m_costBudget->setDecimals(2);
    m_costBudget->setSingleStep(0.10);
    m_costBudget->setPrefix(QStringLiteral("$ "));
    m_costBudget->setSpecialValueText(tr("no limit"));
    m_costBudget->setToolTip(tr("Prices come from models.json in the data folder"));
    m_costBudget->setValue(settings.costBudgetUsd);
}

void SettingsDialog::setUpLookFields(const AppSettings &settings)
{
    m_language->setObjectName(QStringLiteral("language"));
    m_language->addItem(tr("As the system"), QString());
    m_language->addItem(QStringLiteral("English"), QStringLiteral("en"));
    m_language->addItem(QStringLiteral("Deutsch"), QStringLiteral("de"));
    m_language->addItem(QStringLiteral("Français"), QStringLiteral("fr"));
    m_language->setCurrentIndex(qMax(0, m_language->findData(settings.language)));
    m_language->setToolTip(tr("Takes effect when Sandcastle starts again"));
    m_theme->setObjectName(QStringLiteral("theme"));
    m_theme->addItem(tr("As the system"), QStringLiteral("system"));
    m_theme->addItem(tr("Light"), QStringLiteral("light"));
    m_theme->addItem(tr("Dark"), QStringLiteral("dark"));
    m_theme->setCurrentIndex(qMax(0, m_theme->findData(settings.theme)));
}

void SettingsDialog::probeRuntimes(const AppSettings &settings)
{
    // gVisor is offered only when the daemon has the runtime; asking must not hold the dialog
    // up, so the box stays off until the answer comes.
    m_gvisor->setEnabled(m_gvisor->isChecked());
    auto *probe = new QProcess(this);
    m_runtimeProbe = probe;
    connect(probe, &QProcess::finished, this, [this, probe](int exitCode) {
        probe->deleteLater();
        const bool hasRunsc = exitCode == 0 && probe->readAllStandardOutput().contains("\"runsc\"");
        m_gvisor->setEnabled(hasRunsc || m_gvisor->isChecked());
        m_gvisor->setToolTip(hasRunsc ? QString() : tr("The Docker daemon has no runsc runtime"));
    });
    probe->start(settings.engine,
                 settings.sandboxConfig(QString(), QString())
                     .engineArguments({QStringLiteral("info"),
                                       QStringLiteral("--format"),
                                       QStringLiteral("{{json .Runtimes}}")}));
}

namespace {

// A field and, under it, a line of help in a smaller, quieter type.
void addField(QFormLayout *form, const QString &label, QWidget *field, const QString &help)
{
    form->addRow(label, field);
    if (help.isEmpty())
        return;
    auto *line = new QLabel(help);
    line->setObjectName(QStringLiteral("fieldHelp"));
    line->setWordWrap(true);
    QFont small = line->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    line->setFont(small);
    line->setForegroundRole(QPalette::PlaceholderText);
    form->addRow(QString(), line);
}

QFormLayout *newPage(QTabWidget *pages, const QString &name, const QString &objectName)
{
    auto *page = new QWidget(pages);
    page->setObjectName(objectName);
    auto *form = new QFormLayout(page);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    pages->addTab(page, name);
    return form;
}

} // namespace

// Four pages: the model, the agent, the sandbox, the look; each field with a line of help.
QDialogButtonBox *SettingsDialog::layOut(QPushButton *refresh)
{
    m_status->setWordWrap(true);
    m_status->setObjectName(QStringLiteral("settingsStatus"));
    auto *modelRow = new QWidget(this);
    auto *modelLayout = new QHBoxLayout(modelRow);
    modelLayout->setContentsMargins(0, 0, 0, 0);
    modelLayout->addWidget(m_model, 1);
    modelLayout->addWidget(refresh);
    m_pages->setObjectName(QStringLiteral("settingsPages"));

    QFormLayout *model = newPage(m_pages, tr("Model"), QStringLiteral("modelPage"));
    addField(model,
             tr("Provider"),
             m_provider,
             tr("Where the model runs: a hosted service, or a server on this machine"));
    addField(model, tr("Base URL"), m_baseUrl, tr("The server's address, up to and with /v1"));
    addField(model, tr("Model"), modelRow, tr("Ask the server which models it has"));
    addField(model,
             tr("API key"),
             m_key,
             tr("Kept in the system keychain, never in a file; not needed on this machine's "
                "servers"));
    addField(model, tr("API"), m_apiFormat, m_apiFormat->toolTip());
    addField(model, tr("Thinking budget"), m_thinkingBudget, m_thinkingBudget->toolTip());
    addField(model, QString(), m_promptCaching, m_promptCaching->toolTip());

    QFormLayout *agent = newPage(m_pages, tr("Agent"), QStringLiteral("agentPage"));
    addField(agent,
             tr("Tools"),
             m_toolMode,
             tr("How the agent runs code: tool calls, or code blocks for models without them"));
    addField(agent, QString(), m_askFirst, QString());
    addField(agent,
             tr("Turn limit"),
             m_maxTurns,
             tr("How many times one request may ask the model before the agent stops"));
    addField(agent,
             tr("Token budget per run"),
             m_tokenBudget,
             tr("Tokens one request may use before the agent stops"));
    addField(agent, tr("Cost budget per run"), m_costBudget, m_costBudget->toolTip());

    QFormLayout *sandbox = newPage(m_pages, tr("Sandbox"), QStringLiteral("sandboxPage"));
    addField(sandbox, tr("Run time limit"), m_timeout, tr("A run past this is stopped"));
    addField(sandbox, tr("Sandbox memory"), m_memory, m_memory->toolTip());
    addField(sandbox, tr("Sandbox CPUs"), m_cpus, m_cpus->toolTip());
    addField(sandbox, tr("Output cap per run"), m_outputCap, m_outputCap->toolTip());
    addField(sandbox, tr("Workspace quota"), m_workspaceQuota, m_workspaceQuota->toolTip());
    addField(sandbox, tr("Wheelhouse"), m_wheelhouse, m_wheelhouse->toolTip());
    addField(sandbox, tr("Environment build limit"), m_buildLimit, m_buildLimit->toolTip());
    addField(sandbox, QString(), m_network, QString());
    addField(sandbox, QString(), m_gvisor, QString());
    addField(sandbox, QString(), m_fresh, QString());
    addField(sandbox, tr("Pre-imported modules"), m_preimports, m_preimports->toolTip());
    addField(sandbox, tr("Stop an unused sandbox after"), m_idleStop, m_idleStop->toolTip());
    addField(sandbox, QString(), m_warmSpare, QString());

    m_engine = new EnginePage(m_settings, m_pages);
    m_pages->addTab(m_engine, tr("Engine"));

    m_mcp = new McpPage(QDir(m_settings.dataDir).filePath(QStringLiteral("mcp.json")), m_pages);
    m_pages->addTab(m_mcp, tr("MCP servers"));

    QFormLayout *look = newPage(m_pages, tr("Appearance"), QStringLiteral("appearancePage"));
    addField(look, tr("Language"), m_language, m_language->toolTip());
    addField(look, tr("Theme"), m_theme, QString());

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_pages, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    return buttons;
}

SettingsDialog::Problem SettingsDialog::problem() const
{
    const QUrl url(m_baseUrl->text().trimmed());
    if (!url.isValid() || url.host().isEmpty()
        || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
        return {m_baseUrl, tr("The base URL must start with http:// or https://.")};
    if (m_model->currentText().trimmed().isEmpty())
        return {m_model, tr("Choose a model.")};
    if (m_thinkingBudget->value() > 0 && m_thinkingBudget->value() < 1024)
        return {m_thinkingBudget,
                tr("A thinking budget is at least 1024 tokens; 0 turns thinking off.")};
    if (!SandboxConfig::isValidMemory(m_memory->text().trimmed()))
        return {m_memory, tr("The memory limit is a size such as 512m or 2g.")};
    const QString wheelhouse = m_wheelhouse->text().trimmed();
    if (!wheelhouse.isEmpty() && !QFileInfo(wheelhouse).isDir())
        return {m_wheelhouse, tr("The wheelhouse must be a folder: %1").arg(wheelhouse)};
    return {};
}

// Said as soon as a field is wrong, OK unavailable until it is right.
void SettingsDialog::checkFields()
{
    const Problem found = problem();
    if (m_ok)
        m_ok->setEnabled(found.field == nullptr);
    if (found.field) {
        m_status->setText(found.reason);
        m_showsProblem = true;
    } else if (m_showsProblem) {
        m_status->clear();
        m_showsProblem = false;
    }
}

void SettingsDialog::connectFields(QDialogButtonBox *buttons, QPushButton *refresh)
{
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
    for (QLineEdit *edit : {m_baseUrl, m_memory, m_wheelhouse})
        connect(edit, &QLineEdit::textChanged, this, &SettingsDialog::checkFields);
    connect(m_model, &QComboBox::currentTextChanged, this, &SettingsDialog::checkFields);
    connect(m_thinkingBudget, &QSpinBox::valueChanged, this, &SettingsDialog::checkFields);
    connect(refresh, &QPushButton::clicked, this, &SettingsDialog::refreshModels);
    connect(m_provider, &QComboBox::currentIndexChanged, this, &SettingsDialog::onProviderChanged);
    connect(m_baseUrl, &QLineEdit::textChanged, this, &SettingsDialog::showAutomaticFormat);
    connect(
        m_apiFormat, &QComboBox::currentIndexChanged, this, &SettingsDialog::showAutomaticFormat);
    connect(m_catalog, &ModelCatalog::modelsReady, this, [this](const QStringList &models) {
        const QString current = m_model->currentText();
        m_model->clear();
        m_model->addItems(models);
        m_model->setCurrentText(current.isEmpty() && !models.isEmpty() ? models.first() : current);
        m_status->setText(tr("%n model(s) on this server.", nullptr, int(models.size())));
        Q_EMIT modelsRefreshed(int(models.size()));
    });
    connect(m_catalog, &ModelCatalog::errorOccurred, this, [this](const QString &message) {
        m_status->setText(message);
        Q_EMIT modelsRefreshed(-1);
    });
    connect(m_keys,
            &KeyStore::failed,
            this,
            [this](const QString &, const QString &message, bool notFound) {
                if (!notFound)
                    m_status->setText(message + tr(" The key is used for this session only."));
            });
}

SettingsDialog::~SettingsDialog()
{
    // A QProcess must not be destroyed while its child runs.
    if (m_runtimeProbe && m_runtimeProbe->state() != QProcess::NotRunning) {
        m_runtimeProbe->disconnect(this);
        m_runtimeProbe->kill();
        m_runtimeProbe->waitForFinished(2000);
    }
}

void SettingsDialog::onProviderChanged()
{
    const ProviderPreset preset = providerById(m_provider->currentData().toString());
    if (!preset.baseUrl.isEmpty())
        m_baseUrl->setText(preset.baseUrl);
    showAutomaticFormat();
}

AppSettings SettingsDialog::settings() const
{
    AppSettings s = m_settings;
    s.provider = m_provider->currentData().toString();
    s.baseUrl = m_baseUrl->text().trimmed();
    s.model = m_model->currentText().trimmed();
    if (!m_settings.apiKeyFromEnvironment && !m_key->text().isEmpty())
        s.apiKey = m_key->text();
    s.toolMode = AppSettings::toolModeFromName(m_toolMode->currentData().toString());
    s.apiFormat = m_apiFormat->currentData().toString();
    // Anthropic asks for at least 1024 tokens of thinking: less is off.
    s.thinkingBudget = m_thinkingBudget->value() < 1024 ? 0 : m_thinkingBudget->value();
    s.promptCaching = m_promptCaching->isChecked();
    s.maxTurns = m_maxTurns->value();
    s.runTimeoutS = m_timeout->value();
    s.memory = m_memory->text().trimmed();
    s.cpus = m_cpus->value();
    s.outputCapMb = m_outputCap->value();
    s.workspaceQuotaMb = m_workspaceQuota->value();
    s.wheelhouse = m_wheelhouse->text().trimmed();
    if (m_buildLimit->value() != std::max(1, m_settings.environmentTimeoutS / 60))
        s.environmentTimeoutS = m_buildLimit->value() * 60;
    s.network = m_network->isChecked();
    s.runtime = m_gvisor->isChecked() ? QStringLiteral("runsc") : QString();
    s.fresh = m_fresh->isChecked();
    s.preimports = m_preimports->text().trimmed();
    s.warmSpare = m_warmSpare->isChecked();
    if (m_idleStop->value() != (m_settings.idleStopS + 59) / 60)
        s.idleStopS = m_idleStop->value() * 60;
    m_engine->apply(s);
    s.askFirst = m_askFirst->isChecked();
    s.tokenBudget = m_tokenBudget->value();
    s.costBudgetUsd = m_costBudget->value();
    s.language = m_language->currentData().toString();
    s.theme = m_theme->currentData().toString();
    return s;
}

void SettingsDialog::refreshModels()
{
    m_status->setText(tr("Asking the server for its models…"));
    m_catalog->fetch(settings().clientConfig());
}

void SettingsDialog::accept()
{
    const Problem found = problem();
    if (found.field) {
        // The page that holds the field comes to the front, the field takes the focus.
        for (int page = 0; page < m_pages->count(); ++page) {
            if (m_pages->widget(page)->isAncestorOf(found.field))
                m_pages->setCurrentIndex(page);
        }
        found.field->setFocus();
        m_status->setText(found.reason);
        m_showsProblem = true;
        return;
    }
    const Result<bool> servers = m_mcp->save();
    if (!servers) {
        m_pages->setCurrentWidget(m_mcp);
        m_status->setText(servers.error());
        m_showsProblem = true;
        return;
    }
    const AppSettings s = settings();
    s.save();
    if (!m_settings.apiKeyFromEnvironment && !m_key->text().isEmpty())
        m_keys->write(s.keyAccount(), m_key->text());
    m_settings = s;
    QDialog::accept();
}

} // namespace Sandcastle
