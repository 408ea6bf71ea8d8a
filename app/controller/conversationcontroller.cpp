#include "conversationcontroller.h"
#include "warmspare.h"

#include <app/agent/agent.h>
#include <app/llm/httpmodelclient.h>
#include <app/llm/modelerror.h>
#include <app/mcp/mcphub.h>
#include <app/mcp/mcptool.h>
#include <app/project/checkpointqueue.h>
#include <app/project/pendingnotes.h>
#include <app/project/projectenvironment.h>
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
#include <QFile>
#include <QPointer>
#include <QSettings>
#include <QThreadPool>

#include <unistd.h>

namespace Sandcastle {

namespace {
const QString kLastConversationKey = QStringLiteral("conversations/last");
} // namespace

ConversationController::ConversationController(const AppSettings &settings,
                                               QObject *parent,
                                               LookUps lookUps,
                                               StoreOpening storeOpening)
    : QObject(parent)
    , m_settings(settings)
    , m_store(std::make_unique<ConversationStore>())
    , m_conversationId(newConversationId())
{
    qRegisterMetaType<Sandcastle::ConversationController::Language>();
    if (storeOpening == StoreOpening::Now)
        openStore();
    m_workspace = m_settings.workspaceFor(m_conversationId);
    m_workspaceLock = ConversationRemoval::lockWorkspace(m_settings.dataDir, m_conversationId);
    m_environment = new ProjectEnvironment(this);
    m_environment->holdLookUps(lookUps == LookUps::WhenWarmedUp);
    m_mcp = new McpHub(QDir(m_settings.dataDir).filePath(QStringLiteral("mcp.json")), this);
    m_checkpoints = new CheckpointQueue(this);
    m_checkpoints->setTarget(m_settings.dataDir, m_workspace, m_conversationId);
    connect(m_checkpoints,
            &CheckpointQueue::stepRecorded,
            this,
            &ConversationController::checkpointRecorded);
    connect(
        m_checkpoints, &CheckpointQueue::problem, this, &ConversationController::checkpointProblem);
    buildConversation();
    bindIdleStop();
}

void ConversationController::openStore()
{
    if (m_storeOpened)
        return;
    m_storeOpened = true;
    const Result<bool> opened = m_store->open(ConversationStore::defaultPath(m_settings.dataDir));
    if (!opened)
        m_storeError = opened.error();
}

ConversationController::~ConversationController()
{
    // Nobody listens any more; the container goes in the background (the window closing
    // does not wait for the engine; the application waits for blockingJobs() at exit).
    m_agent->blockSignals(true);
    m_session->blockSignals(true);
    m_session->release();
    leaveWorkspace();
    // The agent and the session go before the store they write to.
    delete m_recorder;
    delete m_agent;
    delete m_session;
    delete m_client;
}

void ConversationController::buildConversation()
{
    m_client = new HttpModelClient(m_settings.clientConfig(), this);
    m_environment->setTarget(m_settings, m_workspace);
    m_session = new SandboxSession(sandboxConfig(), this);
    m_agent = new Agent(m_client, m_session, m_settings.agentOptions(), this);
    m_recorder = new ConversationRecorder(m_store.get(), QString(), this);
    m_recorder->attach(m_agent);
    connect(m_recorder,
            &ConversationRecorder::errorOccurred,
            this,
            &ConversationController::storeProblem);
    bindAgent();
    bindEnvironment();
    bindMcp();
    connect(m_session, &SandboxSession::finished, this, &ConversationController::onSessionFinished);
}

void ConversationController::bindAgent()
{
    connect(m_agent,
            &Agent::usage,
            this,
            [this](int promptTokens, int completionTokens, qint64, double runCost) {
                m_usage.addTurn(promptTokens,
                                completionTokens,
                                runCost,
                                m_agent->lastUsage().cachedPromptTokens);
                saveUsage();
                Q_EMIT usageChanged();
            });
    connect(
        m_agent, &Agent::errorOccurred, this, [this](const QString &code, const QString &message) {
            Q_EMIT agentError(code, message, worthAskingAgain(code));
        });
    connect(m_agent, &Agent::finished, this, [this] {
        m_checkpoints->end();             // the state after the turn: what it changed
        Q_EMIT usageChanged();            // the turn counter goes away
        m_environment->withdrawInstall(); // a stopped turn's question goes with it
        restartOnEnvironment();           // a build finished during the turn
        m_environment->refresh();         // did the turn change requirements.txt or apt.txt?
    });
    // Newest first, message counts: read once the turn is on disk (reading sooner would wait
    // for the writer's fsync on this thread).
    connect(m_recorder,
            &ConversationRecorder::turnSaved,
            this,
            &ConversationController::conversationsChanged);
}

void ConversationController::bindMcp()
{
    connect(m_mcp, &McpHub::toolsChanged, this, &ConversationController::syncMcpTools);
    connect(m_mcp, &McpHub::serverFailed, this, &ConversationController::mcpProblem);
    syncMcpTools();
}

void ConversationController::syncMcpTools()
{
    ToolRegistry &tools = m_agent->tools();
    tools.removeIf([](const Tool &tool) { return McpTool::isMcpName(tool.name()); });
    for (const auto &tool : m_mcp->tools())
        tools.add(tool);
}

bool ConversationController::isWorkspaceWritable() const
{
    return ::access(QFile::encodeName(m_workspace).constData(), W_OK) == 0;
}

bool ConversationController::isBusy() const
{
    return m_agent->isRunning() || m_personRunning || m_turnStarting || m_checkpointBusy;
}

// ---------------------------------------------------------------- lifecycle

Result<bool> ConversationController::newConversation(const QString &folder)
{
    if (isBusy())
        return Result<bool>::failure(QStringLiteral("busy"));
    if (folder.isEmpty() && adoptSpare())
        return Result<bool>::ok(true);
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
    if (!folder.isEmpty() && !isWorkspaceWritable())
        m_agent->noteForNextMessage(
            QStringLiteral("[The folder at /workspace is read-only (a read-only mount, or no "
                           "permission to write): files can be read and code run, but no file can "
                           "be changed or created there.]"));
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
                                      const nlohmann::json &messages,
                                      std::unique_ptr<QLockFile> workspaceLock)
{
    m_session->release(); // the old container goes in the background: no wait for the engine
    leaveWorkspace();
    m_conversationId = info.id;
    m_idleStopped = false; // another conversation: its sandbox starts as any does
    if (info.ownsWorkspace)
        m_workspaceLock = workspaceLock
                              ? std::move(workspaceLock)
                              : ConversationRemoval::lockWorkspace(m_settings.dataDir, info.id);
    m_saved = saved;
    m_title = info.title;
    m_workspace = info.workspace;
    m_ownsWorkspace = info.ownsWorkspace;
    m_recorder->setConversationId(saved ? info.id : QString());
    m_checkpoints->setTarget(m_settings.dataDir, m_workspace, m_conversationId, !m_ownsWorkspace);
    m_restartWhenIdle = false;
    m_environment->setTarget(m_settings, m_workspace);
    m_session->setConfig(sandboxConfig());
    m_agent->loadHistory(messages);
    loadUsage();
    // What the person undid from the command line or before a restart, for the next message.
    for (const QString &note :
         m_saved ? PendingNotes::read(*m_store, m_conversationId) : QStringList())
        m_agent->noteForNextMessage(note);
    Q_EMIT conversationSwitched(m_conversationId, messages);
    Q_EMIT titleChanged(m_title);
    Q_EMIT usageChanged();
}

void ConversationController::sweepLeftoverWorkspaces()
{
    if (!m_store->isOpen())
        return;
    ConversationRemoval::sweepEmptyWorkspaces(*m_store, m_settings.dataDir, m_workspace);
    // Copy-mode volumes of conversations deleted while their engine could not be reached.
    const Result<QList<ConversationInfo>> stored = m_store->list();
    if (!stored)
        return;
    QSet<QString> live{m_conversationId};
    for (const ConversationInfo &info : stored.value())
        live.insert(info.id);
    const ContainerEngine engine(m_settings.engine, m_settings.engineContext);
    const QString owner = SandboxConfig::ownerDataFor(m_settings.dataDir);
    blockingJobs()->start([engine, owner, live] { engine.reapOrphanVolumes(owner, live); });
}

void ConversationController::leaveWorkspace()
{
    // A conversation never saved leaves no folder behind when nothing was put in it.
    if (!m_saved && m_ownsWorkspace)
        ConversationRemoval::removeEmptyWorkspace(m_settings.dataDir, m_workspace);
    m_workspaceLock.reset();
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
    int turn = 0;
    for (const Message &message : m_agent->messages())
        turn += message.role == Message::Role::User ? 1 : 0;
    // The folder as it is before the turn, recorded before the agent may touch it.
    m_turnStarting = true;
    m_stopWhenStarted = false;
    QPointer<ConversationController> self(this);
    m_checkpoints->begin(QStringLiteral("turn"), text, turn, [self, text] {
        if (!self || !self->m_turnStarting)
            return;
        if (!self->m_mcp->hasEnabledServers()) {
            self->beginTurn(text);
            return;
        }
        // The servers' tools are offered from the first request: wait for them (each answers
        // or fails within its connect timeout).
        self->m_mcp->prepare([self, text] {
            if (self && self->m_turnStarting)
                self->beginTurn(text);
        });
    });
    return true;
}

void ConversationController::beginTurn(const QString &text)
{
    m_turnStarting = false;
    m_agent->start(text); // the notes go with this message
    if (m_saved)
        PendingNotes::clear(*m_store, m_conversationId);
    if (m_stopWhenStarted)
        m_agent->stop();
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
    m_personShell = language == Language::Shell;
    m_recorder->personRunStarted(
        m_personCode, m_personShell ? QStringLiteral("shell") : QStringLiteral("python"));
    Q_EMIT personRunStarted(language);
    QPointer<ConversationController> self(this);
    m_checkpoints->begin(
        QStringLiteral("run"), code.trimmed().section(QLatin1Char('\n'), 0, 0), -1, [self] {
            if (self)
                self->startPersonRun();
        });
    return true;
}

void ConversationController::startPersonRun()
{
    if (!m_personRunning)
        return; // stopped before it started
    if (m_personShell)
        m_session->runShell(m_personCode);
    else
        m_session->runPython(m_personCode);
}

void ConversationController::onSessionFinished(const ExecutionResult &result)
{
    if (!m_personRunning)
        return;
    m_personRunning = false;
    m_checkpoints->end();
    m_recorder->personRunFinished(result);
    // The agent hears about it with the next message: the diff and what came out.
    if (m_tellAgent)
        m_agent->notePersonRun(m_personCode, result);
    Q_EMIT personRunFinished(result);
    restartOnEnvironment();
    m_environment->refresh();
}

void ConversationController::noteForAgent(const QString &note)
{
    m_agent->noteForNextMessage(note);
    if (m_saved)
        PendingNotes::append(*m_store, m_conversationId, note);
}

void ConversationController::stop()
{
    if (m_turnStarting)
        m_stopWhenStarted = true; // stopped as soon as it has started: one "stopped" end
    else if (m_agent->isRunning())
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
    m_environment->holdLookUps(false);
    if (!m_session->config().fresh)
        m_session->start();
}

void ConversationController::applySettings(const AppSettings &settings)
{
    m_settings = settings;
    m_client->setConfig(m_settings.clientConfig());
    m_agent->setOptions(m_settings.agentOptions());
    m_environment->setSettings(m_settings);
    if (m_spare)
        m_spare->setSettings(m_settings);
    armIdleStop();
    const SandboxConfig sandbox = sandboxConfig();
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
    if (mode == ShutDownMode::Wait) {
        m_checkpoints->waitForDone(); // the turn's last checkpoint is on disk before exit
        m_session->stop();
    } else
        m_session->release();
}

// ---------------------------------------------------------------- checkpoints

void ConversationController::undoCheckpoint(const Checkpoint &step)
{
    if (isBusy()) {
        Q_EMIT checkpointActionFinished(false, tr("Wait until the run has finished."));
        return;
    }
    m_checkpointBusy = true;
    const QString what = step.kind == QLatin1String("turn")
                             ? tr("undid turn %1 (\"%2\")").arg(step.turn + 1).arg(step.label)
                             : tr("undid checkpoint %1 (\"%2\")").arg(step.number).arg(step.label);
    m_checkpoints->submit<RecordedStep>(
        this,
        [step](Checkpoints &checkpoints) {
            return RecordedStep::of(checkpoints, checkpoints.undo(step));
        },
        [this, what](const RecordedStep &done) {
            finishCheckpointAction(done.step, done.changes, what);
        });
}

void ConversationController::restoreCheckpoint(const Checkpoint &step, bool before)
{
    if (isBusy()) {
        Q_EMIT checkpointActionFinished(false, tr("Wait until the run has finished."));
        return;
    }
    m_checkpointBusy = true;
    const QString what = before ? tr("restored the folder to before checkpoint %1 (\"%2\")")
                                      .arg(step.number)
                                      .arg(step.label)
                                : tr("restored the folder to checkpoint %1 (\"%2\")")
                                      .arg(step.number)
                                      .arg(step.label);
    const QString state = before ? step.before : step.id;
    const QString label = before ? tr("Restore to before checkpoint %1").arg(step.number)
                                 : tr("Restore to checkpoint %1").arg(step.number);
    m_checkpoints->submit<RecordedStep>(
        this,
        [state, label](Checkpoints &checkpoints) {
            return RecordedStep::of(checkpoints, checkpoints.restore(state, label));
        },
        [this, what](const RecordedStep &done) {
            finishCheckpointAction(done.step, done.changes, what);
        });
}

void ConversationController::finishCheckpointAction(const Result<Checkpoint> &step,
                                                    const QList<CheckpointChange> &changes,
                                                    const QString &what)
{
    m_checkpointBusy = false;
    if (!step) {
        Q_EMIT checkpointActionFinished(false, step.error());
        return;
    }
    // The model's picture of the files is out of date: it hears what was put back (kept in the
    // store until then, so that a restart does not lose it).
    const QString note = PendingNotes::restored(what, changes);
    m_agent->noteForNextMessage(note);
    if (m_saved)
        PendingNotes::append(*m_store, m_conversationId, note);
    Q_EMIT checkpointRecorded(step.value(), changes);
    Q_EMIT checkpointActionFinished(
        true,
        tr("%1: %n file(s) put back. Variables in the Python session were not rewound.",
           nullptr,
           int(changes.size()))
            .arg(what.left(1).toUpper() + what.mid(1)));
}

} // namespace Sandcastle
