#include "conversationcontroller.h"

#include <app/agent/agent.h>
#include <app/llm/chatclient.h>
#include <app/llm/modelerror.h>
#include <app/projectfolder.h>
#include <app/store/conversationexport.h>
#include <app/store/conversationrecorder.h>
#include <app/store/conversationremoval.h>
#include <app/store/conversationstore.h>
#include <sandbox/blockingjobs.h>
#include <sandbox/containerengine.h>
#include <sandbox/sandboxsession.h>

#include <QCoreApplication>
#include <QDir>
#include <QPointer>
#include <QSettings>
#include <QThreadPool>
#include <QUuid>

namespace Sandcastle {

namespace {
QString newConversationId()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces).left(8);
}

const QString kLastConversationKey = QStringLiteral("conversations/last");
} // namespace

ConversationController::ConversationController(const AppSettings &settings, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
    , m_store(std::make_unique<ConversationStore>())
    , m_conversationId(newConversationId())
{
    qRegisterMetaType<Sandcastle::ConversationController::Language>();
    const Result<bool> opened = m_store->open(ConversationStore::defaultPath(m_settings.dataDir));
    if (!opened)
        m_storeError = opened.error();
    m_workspace = m_settings.workspaceFor(m_conversationId);
    buildConversation();
}

ConversationController::~ConversationController()
{
    // Nobody listens any more; the container goes in the background (the window closing
    // does not wait for the engine; the application waits for blockingJobs() at exit).
    m_agent->blockSignals(true);
    m_session->blockSignals(true);
    m_session->release();
    // The agent and the session go before the store they write to.
    delete m_recorder;
    delete m_agent;
    delete m_session;
    delete m_client;
}

void ConversationController::buildConversation()
{
    m_client = new ChatClient(m_settings.clientConfig(), this);
    m_session = new SandboxSession(m_settings.sandboxConfig(m_conversationId, m_workspace), this);
    m_agent = new Agent(m_client, m_session, m_settings.agentOptions(), this);
    m_recorder = new ConversationRecorder(m_store.get(), QString(), this);
    m_recorder->attach(m_agent);
    connect(m_recorder,
            &ConversationRecorder::errorOccurred,
            this,
            &ConversationController::storeProblem);
    bindAgent();
    connect(m_session, &SandboxSession::finished, this, &ConversationController::onSessionFinished);
}

void ConversationController::bindAgent()
{
    connect(m_agent,
            &Agent::usage,
            this,
            [this](int promptTokens, int completionTokens, qint64, double runCost) {
                m_usage.addTurn(promptTokens, completionTokens, runCost);
                saveUsage();
                Q_EMIT usageChanged();
            });
    connect(
        m_agent, &Agent::errorOccurred, this, [this](const QString &code, const QString &message) {
            Q_EMIT agentError(code, message, worthAskingAgain(code));
        });
    connect(m_agent, &Agent::finished, this, [this] {
        Q_EMIT usageChanged(); // the turn counter goes away
    });
    // Newest first, message counts: read once the turn is on disk (reading sooner would wait
    // for the writer's fsync on this thread).
    connect(m_recorder,
            &ConversationRecorder::turnSaved,
            this,
            &ConversationController::conversationsChanged);
}

bool ConversationController::isBusy() const
{
    return m_agent->isRunning() || m_personRunning;
}

// ---------------------------------------------------------------- lifecycle

Result<bool> ConversationController::newConversation(const QString &folder)
{
    if (isBusy())
        return Result<bool>::failure(QStringLiteral("busy"));
    ConversationInfo info;
    info.id = newConversationId();
    info.ownsWorkspace = folder.isEmpty();
    if (folder.isEmpty()) {
        info.workspace = m_settings.workspaceFor(info.id);
    } else {
        const Result<ProjectFolder> checked
            = ProjectFolder::check(folder, QDir::homePath(), m_settings.dataDir);
        if (!checked)
            return Result<bool>::failure(checked.error());
        info.workspace = checked.value().path;
    }
    switchTo(info, false, nlohmann::json::array());
    warmUp();
    return Result<bool>::ok(true);
}

Result<bool> ConversationController::openConversation(const QString &conversationId)
{
    if (conversationId == m_conversationId && m_saved)
        return Result<bool>::ok(true);
    if (isBusy())
        return Result<bool>::failure(QStringLiteral("busy"));
    if (!m_store->isOpen())
        return Result<bool>::failure(m_storeError);
    const Result<ConversationInfo> info = m_store->conversation(conversationId);
    if (!info)
        return Result<bool>::failure(info.error());
    const Result<nlohmann::json> messages = m_store->messages(conversationId);
    if (!messages)
        return Result<bool>::failure(messages.error());
    const bool hadSession = m_session->state() != SandboxSession::State::Stopped;
    switchTo(info.value(), true, messages.value());
    rememberLast();
    if (hadSession)
        warmUp();
    return Result<bool>::ok(true);
}

bool ConversationController::openLastConversation()
{
    const QString last = QSettings(m_settings.settingsFile(), QSettings::IniFormat)
                             .value(kLastConversationKey)
                             .toString();
    // Deleted meanwhile: the new one stays.
    return !last.isEmpty() && openConversation(last);
}

void ConversationController::switchTo(const ConversationInfo &info,
                                      bool saved,
                                      const nlohmann::json &messages)
{
    m_session->release(); // the old container goes in the background: no wait for the engine
    m_conversationId = info.id;
    m_saved = saved;
    m_title = info.title;
    m_workspace = info.workspace;
    m_ownsWorkspace = info.ownsWorkspace;
    m_recorder->setConversationId(saved ? info.id : QString());
    m_session->setConfig(m_settings.sandboxConfig(m_conversationId, m_workspace, !m_ownsWorkspace));
    m_agent->loadHistory(messages);
    loadUsage();
    Q_EMIT conversationSwitched(m_conversationId, messages);
    Q_EMIT titleChanged(m_title);
    Q_EMIT usageChanged();
}

Result<bool> ConversationController::ensureSaved(const QString &titleHint)
{
    if (m_saved)
        return Result<bool>::ok(true);
    if (!m_store->isOpen())
        return Result<bool>::failure(m_storeError);
    if (m_title.isEmpty())
        setTitle(titleHint);
    const Result<ConversationInfo> created
        = m_store->create(m_conversationId, m_title, m_workspace, m_ownsWorkspace);
    if (!created) {
        Q_EMIT storeProblem(created.error());
        return Result<bool>::failure(created.error());
    }
    m_saved = true;
    m_recorder->setConversationId(m_conversationId);
    rememberLast();
    Q_EMIT conversationsChanged();
    return Result<bool>::ok(true);
}

void ConversationController::setTitle(const QString &title)
{
    if (title == m_title)
        return;
    m_title = title;
    Q_EMIT titleChanged(m_title);
}

void ConversationController::recordModelSettings()
{
    if (!m_saved)
        return;
    m_store->setSetting(m_conversationId, QStringLiteral("model"), m_settings.model.toStdString());
    m_store->setSetting(
        m_conversationId, QStringLiteral("base_url"), m_settings.baseUrl.toStdString());
}

void ConversationController::rememberLast()
{
    QSettings(m_settings.settingsFile(), QSettings::IniFormat)
        .setValue(kLastConversationKey, m_conversationId);
}

ConversationController::Refusal
ConversationController::deleteConversation(const QString &conversationId)
{
    if (conversationId == m_conversationId) {
        if (isBusy())
            return Refusal::Busy;
        newConversation();
    }
    // The rows now, so that the list drops it at once; containers and the workspace (the
    // engine can take seconds, a big folder too) on a worker thread.
    const Result<ConversationInfo> removed
        = ConversationRemoval::removeRecord(*m_store, conversationId);
    if (!removed) {
        Q_EMIT conversationsChanged();
        Q_EMIT deleteFinished(conversationId, false, removed.error());
        return Refusal::StoreFailed;
    }
    Q_EMIT conversationsChanged();
    const ContainerEngine engine(m_settings.engine, m_settings.engineContext);
    const QString dataDir = m_settings.dataDir;
    const ConversationInfo &info = removed.value();
    QPointer<ConversationController> self(this);
    blockingJobs()->start([self, engine, dataDir, info] {
        const Result<QString> left = ConversationRemoval::removeLeftovers(engine, dataDir, info);
        QMetaObject::invokeMethod(QCoreApplication::instance(), [self, info, left] {
            if (!self)
                return;
            Q_EMIT self->deleteFinished(info.id, bool(left), left ? left.value() : left.error());
        });
    });
    return Refusal::None;
}

Result<bool> ConversationController::exportConversation(const QString &conversationId,
                                                        const QString &path,
                                                        bool bundle) const
{
    if (bundle) {
        const Result<QStringList> written
            = ConversationExport::bundle(*m_store, conversationId, path);
        return written ? Result<bool>::ok(true) : Result<bool>::failure(written.error());
    }
    return ConversationExport::writeMarkdown(*m_store, conversationId, path);
}

void ConversationController::loadUsage()
{
    m_usage.reset();
    if (!m_saved || !m_store->isOpen())
        return;
    const Result<nlohmann::json> stored = m_store->settings(m_conversationId);
    if (stored && stored.value().contains("usage"))
        m_usage = UsageTotals::fromJson(stored.value()["usage"]);
}

void ConversationController::saveUsage()
{
    if (m_saved)
        m_store->setSetting(m_conversationId, QStringLiteral("usage"), m_usage.toJson());
}

// ---------------------------------------------------------------- work

bool ConversationController::submitPrompt(const QString &text)
{
    if (isBusy() || text.trimmed().isEmpty())
        return false;
    if (!m_saved && m_title.isEmpty())
        setTitle(ConversationInfo::titleFromPrompt(text));
    ensureSaved(m_title);
    m_usage.beginRun();
    m_agent->start(text);
    return true;
}

bool ConversationController::resume()
{
    if (m_personRunning)
        return false;
    return m_agent->resume();
}

bool ConversationController::runPersonCode(const QString &code, Language language, bool tellAgent)
{
    if (isBusy() || code.trimmed().isEmpty())
        return false;
    m_personRunning = true;
    m_personCode = code;
    m_tellAgent = tellAgent;
    const bool shell = language == Language::Shell;
    m_recorder->personRunStarted(m_personCode,
                                 shell ? QStringLiteral("shell") : QStringLiteral("python"));
    Q_EMIT personRunStarted(language);
    if (shell)
        m_session->runShell(m_personCode);
    else
        m_session->runPython(m_personCode);
    return true;
}

void ConversationController::onSessionFinished(const ExecutionResult &result)
{
    if (!m_personRunning)
        return;
    m_personRunning = false;
    m_recorder->personRunFinished(result);
    // The agent hears about it with the next message: the diff and what came out.
    if (m_tellAgent)
        m_agent->notePersonRun(m_personCode, result);
    Q_EMIT personRunFinished(result);
}

void ConversationController::stop()
{
    if (m_agent->isRunning())
        m_agent->stop();
    else if (m_personRunning)
        m_session->interrupt();
}

void ConversationController::stopCode()
{
    if (m_agent->isRunning())
        m_agent->stopCode(); // the agent is told and goes on
    else if (m_personRunning)
        m_session->interrupt();
}

void ConversationController::warmUp()
{
    if (!m_session->config().fresh)
        m_session->start();
}

void ConversationController::applySettings(const AppSettings &settings)
{
    m_settings = settings;
    m_client->setConfig(m_settings.clientConfig());
    m_agent->setOptions(m_settings.agentOptions());
    const SandboxConfig sandbox
        = m_settings.sandboxConfig(m_conversationId, m_workspace, !m_ownsWorkspace);
    const bool containerChanged = sandbox.needsNewContainer(m_session->config());
    m_session->setConfig(sandbox);
    if (containerChanged && !isBusy()) {
        // A new container with the new limits; variables of the old one are gone.
        m_session->release();
        Q_EMIT sandboxRestarted();
        warmUp();
    }
}

void ConversationController::shutDown(ShutDownMode mode)
{
    m_agent->stop();
    if (mode == ShutDownMode::Wait)
        m_session->stop();
    else
        m_session->release();
}

} // namespace Sandcastle
