#include "mainwindow.h"

#include "firstpaint.h"

#include "actions/commandpalette.h"
#include "chat/chatpane.h"
#include "chat/promptedit.h"
#include "chat/welcomepanel.h"
#include "console/consolepane.h"
#include "conversations/conversationlistmodel.h"
#include "conversations/conversationspane.h"
#include "editor/codeeditor.h"
#include "editor/editorpane.h"
#include "files/filepreview.h"
#include "files/filespane.h"
#include "icons.h"
#include "settings/settingsdialog.h"
#include "theme.h"

#include <app/agent/agentrun.h>
#include <app/agent/filetools.h>
#include <app/keystore.h>
#include <app/llm/chatclient.h>
#include <app/llm/jsonfields.h>
#include <app/store/conversationexport.h>
#include <app/store/conversationmanager.h>
#include <app/store/conversationrecorder.h>
#include <app/store/conversationstore.h>
#include <sandbox/containerengine.h>
#include <sandbox/pathguard.h>
#include <sandbox/sandboxsession.h>

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QStringDecoder>
#include <QSystemTrayIcon>
#include <QTimer>
#include <QUuid>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

static void initUiResources()
{
    Q_INIT_RESOURCE(resources);
}

namespace Sandcastle {

MainWindow::MainWindow(const AppSettings &settings, QWidget *parent)
    : QMainWindow(parent)
    , m_settings(settings)
    , m_conversationId(QUuid::createUuid().toString(QUuid::WithoutBraces).left(8))
    , m_chat(new ChatPane(this))
    , m_editorPane(new EditorPane(this))
    , m_editor(m_editorPane->editor())
    , m_console(new ConsolePane(this))
    , m_files(new FilesPane(this))
    , m_store(std::make_unique<ConversationStore>())
{
    const Result<bool> opened = m_store->open(ConversationStore::defaultPath(m_settings.dataDir));
    initUiResources();
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/sandcastle.svg")));
    m_chat->setObjectName(QStringLiteral("chatPane"));
    m_editor->setObjectName(QStringLiteral("editor"));
    m_console->setObjectName(QStringLiteral("console"));
    m_console->setScrollback(m_settings.consoleScrollback);
    m_files->setObjectName(QStringLiteral("filesPane"));

    m_centreSplitter = new QSplitter(Qt::Vertical, this);
    m_centreSplitter->setObjectName(QStringLiteral("centreSplitter"));
    // Ask-first mode: a bar over the editor holds the agent's code until the person decides.
    auto *editorArea = new QWidget(this);
    auto *editorLayout = new QVBoxLayout(editorArea);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    editorLayout->setSpacing(0);
    m_approvalBar = new QFrame(editorArea);
    m_approvalBar->setObjectName(QStringLiteral("approvalBar"));
    m_approvalBar->setFrameShape(QFrame::StyledPanel);
    auto *barLayout = new QHBoxLayout(m_approvalBar);
    barLayout->addWidget(
        new QLabel(tr("The agent wants to run this code. Edit it if you like, then:"),
                   m_approvalBar),
        1);
    auto *approve = new QPushButton(tr("Run"), m_approvalBar);
    approve->setObjectName(QStringLiteral("approveRun"));
    auto *reject = new QPushButton(tr("Don't run"), m_approvalBar);
    reject->setObjectName(QStringLiteral("rejectRun"));
    barLayout->addWidget(approve);
    barLayout->addWidget(reject);
    m_approvalBar->hide();
    editorLayout->addWidget(m_approvalBar);
    editorLayout->addWidget(m_editorPane, 1);
    connect(approve, &QPushButton::clicked, this, [this] {
        m_approvalBar->hide();
        m_agent->approve(m_editor->text());
    });
    connect(reject, &QPushButton::clicked, this, [this] {
        m_approvalBar->hide();
        m_agent->reject();
    });
    m_centreSplitter->addWidget(editorArea);
    m_centreSplitter->addWidget(m_console);
    m_centreSplitter->setStretchFactor(0, 3);
    m_centreSplitter->setStretchFactor(1, 2);
    m_mainSplitter = new QSplitter(Qt::Horizontal, this);
    m_mainSplitter->setObjectName(QStringLiteral("mainSplitter"));
    m_conversationModel = new ConversationListModel(m_store.get(), this);
    m_conversations = new ConversationsPane(m_conversationModel, this);
    m_conversations->setObjectName(QStringLiteral("conversationsPane"));
    m_mainSplitter->addWidget(m_conversations);
    m_mainSplitter->addWidget(m_chat);
    m_mainSplitter->addWidget(m_centreSplitter);
    m_mainSplitter->addWidget(m_files);
    m_mainSplitter->setStretchFactor(0, 1);
    m_mainSplitter->setStretchFactor(1, 3);
    m_mainSplitter->setStretchFactor(2, 4);
    m_mainSplitter->setStretchFactor(3, 2);
    m_mainSplitter->setSizes({200, 400, 560, 240});
    setCentralWidget(m_mainSplitter);

    m_sandboxStatus = new QLabel(this);
    m_sandboxStatus->setObjectName(QStringLiteral("sandboxStatus"));
    m_modelStatus = new QLabel(this);
    statusBar()->addWidget(m_sandboxStatus, 1);
    m_usageStatus = new QLabel(this);
    m_usageStatus->setObjectName(QStringLiteral("usageStatus"));
    statusBar()->addPermanentWidget(m_usageStatus);
    statusBar()->addPermanentWidget(m_modelStatus);

    const QString workspace = m_settings.workspaceFor(m_conversationId);
    m_files->setRoot(workspace);
    m_client = new ChatClient(m_settings.clientConfig(), this);
    m_session = new SandboxSession(m_settings.sandboxConfig(m_conversationId, workspace), this);
    m_agent = new AgentRun(m_client, m_session, m_settings.agentOptions(), this);
    m_recorder = new ConversationRecorder(m_store.get(), QString(), this);
    m_recorder->attach(m_agent);
    connect(m_recorder,
            &ConversationRecorder::errorOccurred,
            m_chat,
            [this](const QString &message) { m_chat->addError(message); });
    if (!opened)
        m_chat->addError(tr("Conversations are not being saved: %1").arg(opened.error()));
    if (m_settings.apiKey.isEmpty()) {
        // The key is in the system keychain, if anywhere; it arrives before a person types.
        auto *keys = new KeyStore(this);
        connect(keys, &KeyStore::keyRead, this, [this](const QString &, const QString &key) {
            m_settings.apiKey = key;
            m_client->setConfig(m_settings.clientConfig());
            if (m_welcome && !key.isEmpty())
                m_welcome->hide(); // configured after all
        });
        keys->read(m_settings.keyAccount());
    }

    buildMenus();
    connectAgent();
    setConversationTitle(tr("New conversation"));
    openLastConversation();
    loadUsage();
    // Nothing configured yet (the default endpoint and no key): help the person start.
    if (m_settings.apiKey.isEmpty() && m_settings.baseUrl == AppSettings().baseUrl)
        showWelcome();
    updateStatus();
    resize(1300, 800);
    restoreState();
    // Warm the sandbox as soon as the first frame is up, so that the first run does not wait
    // for a container to start and the first frame does not wait for the engine's processes.
    FirstPaintHook::after(m_session, [this] {
        if (!m_session->config().fresh)
            m_session->start();
    });
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *newOne = file->addAction(tr("&New conversation"), this, &MainWindow::newConversation);
    newOne->setObjectName(QStringLiteral("newConversation"));
    newOne->setShortcut(QKeySequence::New);
    newOne->setIcon(actionIcon("new"));
    QAction *settings = file->addAction(tr("&Settings…"), this, &MainWindow::openSettings);
    settings->setObjectName(QStringLiteral("openSettings"));
    settings->setShortcut(QKeySequence::Preferences);
    settings->setIcon(actionIcon("settings"));
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setIcon(actionIcon("quit"));

    QMenu *run = menuBar()->addMenu(tr("&Run"));
    QAction *runCode
        = run->addAction(tr("&Run the editor's code"), this, &MainWindow::runEditorCode);
    runCode->setObjectName(QStringLiteral("runEditorCode"));
    runCode->setShortcut(QKeySequence(Qt::Key_F5));
    runCode->setIcon(actionIcon("run"));
    QAction *stop = run->addAction(tr("&Stop"), this, [this] {
        if (m_agent->isRunning())
            m_agent->stop();
        else if (m_personRunning)
            m_session->interrupt();
    });
    stop->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
    stop->setIcon(actionIcon("stop"));
    QAction *stopCode = run->addAction(tr("Stop the running &code"), this, [this] {
        if (m_agent->isRunning())
            m_agent->stopCode(); // the agent is told and goes on
        else if (m_personRunning)
            m_session->interrupt();
    });
    stopCode->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Period));
    stopCode->setIcon(actionIcon("stop-code"));
    run->addAction(tr("Stop after this &step"), m_agent, &AgentRun::stopAfterStep)
        ->setIcon(actionIcon("stop-step"));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *palette
        = help->addAction(tr("&Command palette…"), this, &MainWindow::showCommandPalette);
    palette->setObjectName(QStringLiteral("commandPaletteAction"));
    palette->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    palette->setIcon(actionIcon("palette"));
    QAction *shortcuts
        = help->addAction(tr("&Keyboard shortcuts"), this, &MainWindow::showShortcuts);
    shortcuts->setShortcut(QKeySequence(Qt::Key_F1));
    shortcuts->setIcon(actionIcon("keyboard"));
}

QList<QAction *> MainWindow::allActions() const
{
    QList<QAction *> actions;
    const QList<QAction *> menus = menuBar()->actions();
    for (const QAction *menu : menus) {
        if (!menu->menu())
            continue;
        const QList<QAction *> items = menu->menu()->actions();
        for (QAction *action : items) {
            if (!action->isSeparator() && !action->menu())
                actions << action;
        }
    }
    return actions;
}

void MainWindow::showCommandPalette()
{
    CommandPalette palette(allActions(), this);
    palette.exec();
}

void MainWindow::showShortcuts()
{
    ShortcutsDialog dialog(allActions(), this);
    dialog.exec();
}

void MainWindow::connectAgent()
{
    connect(m_agent,
            &AgentRun::usage,
            this,
            [this](int promptTokens, int completionTokens, qint64, double runCost) {
                m_conversationTokens += qMax(0, promptTokens) + qMax(0, completionTokens);
                if (runCost < 0 || m_conversationCost < 0) {
                    m_conversationCost = -1; // a price unknown once: the sum is unknown
                } else {
                    m_conversationCost += runCost - m_runCostSoFar;
                    m_runCostSoFar = runCost;
                }
                if (m_conversationSaved)
                    m_store->setSetting(
                        m_conversationId,
                        QStringLiteral("usage"),
                        {{"tokens", m_conversationTokens}, {"cost_usd", m_conversationCost}});
                updateUsage();
            });
    connect(m_editorPane, &EditorPane::runRequested, this, &MainWindow::runPersonCode);
    connect(m_editorPane, &EditorPane::saveRequested, this, &MainWindow::saveWorkspaceFile);
    connect(m_files, &FilesPane::openInEditorRequested, this, &MainWindow::openWorkspaceFile);
    connect(m_chat,
            &ChatPane::openInEditorRequested,
            this,
            [this](const QString &callId, const QString &tool, const QString &code) {
                const bool shell = tool == QLatin1String("run_shell");
                m_editorPane->openCode(callId,
                                       shell ? tr("Agent command") : tr("Agent code"),
                                       code,
                                       shell ? QStringLiteral("bash") : QStringLiteral("python"));
            });
    // A rename in the list renames the window when it is this conversation.
    connect(m_conversationModel,
            &ConversationListModel::dataChanged,
            this,
            [this](const QModelIndex &topLeft) {
                if (topLeft.data(ConversationListModel::IdRole).toString() == m_conversationId)
                    setConversationTitle(topLeft.data(Qt::EditRole).toString());
            });
    connect(
        m_conversations, &ConversationsPane::openRequested, this, &MainWindow::openConversation);
    connect(m_conversations, &ConversationsPane::newRequested, this, &MainWindow::newConversation);
    connect(m_conversations,
            &ConversationsPane::deleteRequested,
            this,
            &MainWindow::deleteConversation);
    connect(m_conversations,
            &ConversationsPane::exportRequested,
            this,
            [this](const QString &id, bool bundle) {
                const QString path
                    = bundle ? QFileDialog::getSaveFileName(
                          this,
                          tr("Export to a new folder"),
                          QDir::homePath() + QStringLiteral("/sandcastle-") + id,
                          QString(),
                          nullptr,
                          QFileDialog::ShowDirsOnly)
                             : QFileDialog::getSaveFileName(this,
                                                            tr("Export as Markdown"),
                                                            QDir::homePath() + QLatin1Char('/') + id
                                                                + QStringLiteral(".md"),
                                                            tr("Markdown (*.md)"));
                if (!path.isEmpty())
                    exportConversation(id, path, bundle);
            });
    connect(m_chat, &ChatPane::promptSubmitted, this, &MainWindow::submitPrompt);
    connect(m_chat, &ChatPane::stopRequested, m_agent, &AgentRun::stop);
    connect(m_chat, &ChatPane::stopCodeRequested, m_agent, &AgentRun::stopCode);
    connect(m_chat, &ChatPane::stopAfterStepRequested, m_agent, &AgentRun::stopAfterStep);
    connect(m_chat, &ChatPane::filesDropped, this, &MainWindow::uploadFiles);
    connect(m_files, &FilesPane::filesDropped, this, &MainWindow::uploadFiles);

    connect(m_agent, &AgentRun::textDelta, m_chat, &ChatPane::appendAssistantText);
    connect(m_agent, &AgentRun::reasoningDelta, m_chat, &ChatPane::appendReasoning);
    connect(
        m_agent, &AgentRun::toolCallStarted, this, [this](const QString &, const QString &name) {
            m_chat->endAssistantMessage();
            if (name == QLatin1String("run_python")) {
                m_editorPane->showAgentTab();
                m_editor->setAgentWriting(true);
                m_editor->showStreamingCode(QString());
            }
        });
    connect(m_agent,
            &AgentRun::toolCodeChanged,
            m_editor,
            [this](const QString &, const QString &code) { m_editor->showStreamingCode(code); });
    connect(m_agent,
            &AgentRun::toolCall,
            this,
            [this](const QString &id, const QString &name, const QString &arguments) {
                m_editor->setAgentWriting(false);
                m_chat->addToolCall(id, name, arguments);
                m_console->beginRun(name);
            });
    connect(m_agent,
            &AgentRun::toolOutput,
            m_console,
            [this](const QString &, OutputStream stream, const QString &text) {
                m_console->appendOutput(stream, text);
            });
    connect(m_agent,
            &AgentRun::runStarted,
            this,
            [this](const QString &id, const QString &language, const QString &code) {
                if (language == QLatin1String("python"))
                    m_editorPane->addAttempt(code, id);
            });
    connect(m_agent,
            &AgentRun::toolResult,
            this,
            [this](const QString &id, const ExecutionResult &result) {
                notifyIfAway(result);
                m_editorPane->setCallStatus(id, ExecutionResult::statusName(result.status));
                m_console->endRun(result);
                m_chat->addToolResult(id,
                                      ExecutionResult::statusName(result.status),
                                      result.exitCode,
                                      result.durationMs,
                                      result.files);
                m_files->highlight(result.files);
            });
    connect(
        m_agent,
        &AgentRun::toolAnswered,
        this,
        [this](
            const QString &id, ToolResultStatus result, const QString &, const QStringList &files) {
            const QString status = toolResultStatusName(result);
            m_editorPane->setCallStatus(id, status);
            m_chat->addToolResult(id, status, status == QLatin1String("ok") ? 0 : 1, 0, files);
            if (!files.isEmpty())
                m_files->highlight(files);
        });
    connect(m_agent,
            &AgentRun::approvalRequested,
            this,
            [this](const QString &, const QString &, const QString &code) {
                m_editor->setAgentWriting(false);
                m_editor->setText(code);
                m_approvalBar->show();
                m_editor->setFocus();
            });
    connect(m_agent,
            &AgentRun::retrying,
            this,
            [this](int attempt, int delayMs, const QString &reason) {
                m_chat->addNotice(tr("Model busy, retrying in %1 s (attempt %2): %3")
                                      .arg(delayMs / 1000.0, 0, 'f', 1)
                                      .arg(attempt)
                                      .arg(reason));
            });
    connect(m_agent,
            &AgentRun::errorOccurred,
            m_chat,
            [this](const QString &code, const QString &message) {
                // Asking again helps when the server was busy, down or cut off, not otherwise.
                static const QStringList retryable{QStringLiteral("rate_limited"),
                                                   QStringLiteral("server_error"),
                                                   QStringLiteral("timeout"),
                                                   QStringLiteral("stalled"),
                                                   QStringLiteral("network"),
                                                   QStringLiteral("http_error")};
                m_chat->addError(message, retryable.contains(code));
            });
    connect(
        m_agent, &AgentRun::contextCompacted, this, [this](int summarised, qint64 estimatedTokens) {
            m_chat->addNotice(
                tr("%n older tool result(s) summarised so that the conversation fits the "
                   "model's context window (about %1 tokens now).",
                   nullptr,
                   summarised)
                    .arg(estimatedTokens));
        });
    connect(m_chat, &ChatPane::retryRequested, this, [this] {
        if (m_personRunning || !m_agent->resume())
            return;
        m_chat->setBusy(true);
        updateStatus();
    });
    connect(m_agent, &AgentRun::finished, this, [this](const QString &status, int) {
        updateUsage();                  // the turn counter goes away
        m_conversationModel->refresh(); // newest first, message counts
        m_conversations->setCurrent(m_conversationId);
        m_approvalBar->hide();
        m_editor->setAgentWriting(false);
        m_chat->endAssistantMessage();
        m_chat->setBusy(false);
        statusBar()->showMessage(tr("Agent: %1").arg(status), 5000);
        updateStatus();
    });

    // Runs the person starts from the editor share the session with the agent.
    connect(m_session,
            &SandboxSession::outputReady,
            m_console,
            [this](OutputStream stream, const QString &text) {
                if (m_personRunning)
                    m_console->appendOutput(stream, text);
            });
    connect(m_session, &SandboxSession::finished, this, [this](const ExecutionResult &result) {
        if (!m_personRunning)
            return;
        m_personRunning = false;
        m_recorder->personRunFinished(result);
        notifyIfAway(result);
        m_console->endRun(result);
        m_files->highlight(result.files);
        // The agent hears about it with the next message: the diff and what came out.
        if (m_editorPane->tellsAgent())
            m_agent->notePersonRun(m_personCode, result);
        updateStatus();
    });
    connect(m_session, &SandboxSession::stateChanged, this, &MainWindow::updateStatus);
    connect(m_session, &SandboxSession::errorOccurred, this, [this](const QString &message) {
        m_console->appendOutput(OutputStream::Stderr, message + QLatin1Char('\n'));
        m_sandboxError = message; // stays in the status bar until the sandbox is up again
        updateStatus();
    });
}

void MainWindow::submitPrompt(const QString &text)
{
    if (m_agent->isRunning() || m_personRunning || text.trimmed().isEmpty())
        return;
    if (!m_conversationSaved)
        setConversationTitle(ConversationManager::titleFromPrompt(text));
    ensureConversationSaved(m_title);
    m_chat->clearPrompt();
    m_runCostSoFar = 0;
    m_editorPane->beginSnippet();
    m_chat->addUserMessage(text);
    m_chat->setBusy(true);
    m_agent->start(text);
    updateStatus();
}

QStringList MainWindow::uploadFiles(const QStringList &paths)
{
    QStringList names;
    for (const QString &path : paths) {
        const Result<QString> name = FileTools::upload(m_files->root(), path);
        if (name)
            names << name.value();
        else
            m_chat->addError(tr("Not added to the workspace: %1").arg(name.error()));
    }
    if (names.isEmpty())
        return names;
    // Mentioned where the person writes, so the agent hears of them with the next message.
    PromptEdit *prompt = m_chat->promptEdit();
    const QString note
        = tr("(I put these files in the workspace: %1)").arg(names.join(QStringLiteral(", ")));
    const QString typed = prompt->toPlainText();
    prompt->setPlainText(typed.isEmpty() ? QString(note + QLatin1Char(' '))
                                         : QString(typed + QLatin1Char('\n') + note));
    prompt->moveCursor(QTextCursor::End);
    prompt->setFocus();
    m_files->highlight(names);
    return names;
}

void MainWindow::runEditorCode()
{
    runPersonCode(m_editor->text(), m_editorPane->currentLanguage());
}

void MainWindow::runPersonCode(const QString &code, const QString &language)
{
    if (m_agent->isRunning() || m_personRunning || code.trimmed().isEmpty())
        return;
    m_personRunning = true;
    m_personCode = code;
    ensureConversationSaved(tr("Code run by hand"));
    const bool shell = language == QLatin1String("bash");
    m_recorder->personRunStarted(m_personCode,
                                 shell ? QStringLiteral("shell") : QStringLiteral("python"));
    m_console->beginRun(tr("your code"));
    if (shell)
        m_session->runShell(m_personCode);
    else
        m_session->runPython(m_personCode);
    updateStatus();
}

void MainWindow::openWorkspaceFile(const QString &relativePath)
{
    constexpr qint64 MaxEditable = FilePreview::kMaxTextBytes;
    bool truncated = false;
    const Result<QByteArray> bytes
        = PathGuard::readFile(m_files->root(), relativePath, MaxEditable, &truncated);
    QString problem;
    QString text;
    if (!bytes) {
        problem = bytes.error();
    } else if (truncated) {
        problem = tr("it is larger than %1 MB").arg(MaxEditable / (1024 * 1024));
    } else {
        QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
        text = decoder.decode(bytes.value());
        if (decoder.hasError() || bytes.value().contains('\0'))
            problem = tr("it is not a text file");
    }
    if (!problem.isEmpty()) {
        statusBar()->showMessage(tr("Cannot edit %1: %2").arg(relativePath, problem), 8000);
        return;
    }
    m_editorPane->openFile(relativePath, text, FilePreview::languageFor(relativePath));
    m_editor->setFocus();
}

void MainWindow::saveWorkspaceFile(const QString &relativePath, const QString &text)
{
    const nlohmann::json result = FileTools::writeFile(m_files->root(), relativePath, text);
    if (jsonString(result, "status") != QLatin1String("ok")) {
        statusBar()->showMessage(tr("Not saved: %1").arg(jsonString(result, "error")), 10000);
        return;
    }
    m_editorPane->markSaved(relativePath, text);
    statusBar()->showMessage(tr("Saved %1").arg(relativePath), 3000);
}

void MainWindow::openSettings()
{
    SettingsDialog dialog(m_settings, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    applySettings(dialog.settings());
    if (m_welcome && (!m_settings.apiKey.isEmpty() || m_settings.baseUrl != AppSettings().baseUrl))
        m_welcome->hide();
}

void MainWindow::applySettings(const AppSettings &settings)
{
    const bool themeChanged = settings.theme != m_settings.theme;
    m_settings = settings;
    if (themeChanged)
        applyTheme(themeFromName(m_settings.theme));
    m_console->setScrollback(m_settings.consoleScrollback);
    m_client->setConfig(m_settings.clientConfig());
    m_agent->setOptions(m_settings.agentOptions());
    const SandboxConfig sandbox = m_settings.sandboxConfig(m_conversationId, m_files->root());
    const SandboxConfig &current = m_session->config();
    const bool containerChanged
        = sandbox.network != current.network || sandbox.memory != current.memory
          || sandbox.runtime != current.runtime || sandbox.image != current.image
          || sandbox.fresh != current.fresh || sandbox.cpus != current.cpus;
    m_session->setConfig(sandbox);
    if (containerChanged && !m_agent->isRunning() && !m_personRunning) {
        // A new container with the new limits; variables of the old one are gone.
        m_session->release();
        m_console->beginRun(tr("sandbox restarted with the new settings"));
        if (!sandbox.fresh)
            m_session->start();
    }
    updateStatus();
}

bool MainWindow::ensureConversationSaved(const QString &titleHint)
{
    if (m_conversationSaved)
        return true;
    if (!m_store->isOpen())
        return false;
    if (m_title == tr("New conversation"))
        setConversationTitle(titleHint);
    const Result<ConversationInfo> created
        = m_store->create(m_conversationId, m_title, m_files->root(), true);
    if (!created) {
        m_chat->addError(tr("This conversation is not being saved: %1").arg(created.error()));
        return false;
    }
    m_conversationSaved = true;
    m_recorder->setConversationId(m_conversationId);
    QSettings(m_settings.settingsFile(), QSettings::IniFormat)
        .setValue(QStringLiteral("conversations/last"), m_conversationId);
    m_conversationModel->refresh();
    m_conversations->setCurrent(m_conversationId);
    return true;
}

void MainWindow::showWelcome()
{
    m_welcome = new WelcomePanel(this);
    m_chat->insertPanel(m_welcome);
    m_probe = new LocalServerProbe(this);
    connect(m_probe, &LocalServerProbe::finished, m_welcome, &WelcomePanel::showServers);
    connect(m_welcome, &WelcomePanel::settingsRequested, this, &MainWindow::openSettings);
    connect(m_welcome,
            &WelcomePanel::serverChosen,
            this,
            [this](const LocalServerProbe::Server &server) {
                AppSettings next = m_settings;
                next.provider = server.provider;
                next.baseUrl = server.baseUrl;
                next.model = server.models.value(0);
                next.save();
                applySettings(next);
                m_welcome->hide();
                statusBar()->showMessage(tr("Using %1 with %2").arg(server.name, next.model), 8000);
            });
    probeLocalServers(LocalServerProbe::defaultCandidates());
    // Is the sandbox there? Asked off the UI thread: the engine can take seconds to answer.
    auto *watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher] {
        m_welcome->showSandboxProblem(watcher->result());
        watcher->deleteLater();
    });
    const QString engine = m_settings.engine;
    const QString context = m_settings.engineContext;
    const QString image = m_settings.image;
    watcher->setFuture(QtConcurrent::run([engine, context, image]() -> QString {
        const ContainerEngine containers(engine, context);
        const Result<QString> daemon = containers.checkDaemon();
        if (!daemon)
            return tr("The sandbox needs Docker: %1. Start it (for example `sudo systemctl "
                      "start docker`), or run `scripts/setup`, which installs and starts it.")
                .arg(daemon.error());
        const Result<bool> present = containers.imageExists(image);
        if (present && !present.value())
            return tr("The sandbox image %1 is missing: run `sandcastle image build` (it works "
                      "offline, a few minutes).")
                .arg(image);
        return QString();
    }));
}

void MainWindow::probeLocalServers(const QList<LocalServerProbe::Server> &candidates)
{
    if (!m_welcome)
        return;
    m_welcome->showProbing();
    m_probe->probe(candidates);
}

void MainWindow::openLastConversation()
{
    const QString last = QSettings(m_settings.settingsFile(), QSettings::IniFormat)
                             .value(QStringLiteral("conversations/last"))
                             .toString();
    if (!last.isEmpty())
        openConversation(last); // deleted meanwhile: the new one stays
    m_conversations->setCurrent(m_conversationId);
}

bool MainWindow::openConversation(const QString &conversationId)
{
    if (conversationId == m_conversationId && m_conversationSaved)
        return true;
    if (m_agent->isRunning() || m_personRunning) {
        statusBar()->showMessage(tr("Stop the agent or the run before switching conversations."),
                                 5000);
        m_conversations->setCurrent(m_conversationId);
        return false;
    }
    if (!m_store->isOpen())
        return false;
    const Result<ConversationInfo> info = m_store->conversation(conversationId);
    const Result<nlohmann::json> messages = m_store->messages(conversationId);
    if (!info || !messages) {
        statusBar()->showMessage(!info ? info.error() : messages.error(), 8000);
        return false;
    }
    const bool hadSession = m_session->state() != SandboxSession::State::Stopped;
    switchTo(conversationId, true, info.value().workspace, messages.value(), info.value().title);
    QSettings(m_settings.settingsFile(), QSettings::IniFormat)
        .setValue(QStringLiteral("conversations/last"), conversationId);
    if (hadSession && !m_session->config().fresh)
        m_session->start();
    updateStatus();
    return true;
}

void MainWindow::switchTo(const QString &conversationId,
                          bool saved,
                          const QString &workspace,
                          const nlohmann::json &messages,
                          const QString &title)
{
    m_session->release(); // the old container goes in the background: no wait for docker
    m_conversationId = conversationId;
    m_conversationSaved = saved;
    m_recorder->setConversationId(saved ? conversationId : QString());
    m_files->setRoot(workspace);
    m_session->setConfig(m_settings.sandboxConfig(conversationId, workspace));
    m_agent->loadHistory(messages);
    m_editorPane->reset();
    m_chat->clearTranscript();
    m_chat->showHistory(messages);
    m_console->clear();
    setConversationTitle(title);
    loadUsage();
    m_conversations->setCurrent(saved ? conversationId : QString());
}

void MainWindow::deleteConversation(const QString &conversationId)
{
    if (conversationId == m_conversationId) {
        if (m_agent->isRunning() || m_personRunning) {
            statusBar()->showMessage(tr("Stop the agent or the run before deleting this "
                                        "conversation."),
                                     5000);
            return;
        }
        newConversation();
    }
    const Result<QString> removed
        = ConversationManager::remove(*m_store,
                                      ContainerEngine(m_settings.engine, m_settings.engineContext),
                                      m_settings.dataDir,
                                      conversationId);
    if (!removed)
        m_chat->addError(tr("Could not delete the conversation: %1").arg(removed.error()));
    else if (!removed.value().isEmpty())
        statusBar()->showMessage(removed.value(), 10000);
    m_conversationModel->refresh();
    m_conversations->setCurrent(m_conversationId);
}

bool MainWindow::exportConversation(const QString &conversationId, const QString &path, bool bundle)
{
    QString error;
    if (bundle) {
        const Result<QStringList> written
            = ConversationExport::bundle(*m_store, conversationId, path);
        if (!written)
            error = written.error();
    } else {
        const Result<bool> written
            = ConversationExport::writeMarkdown(*m_store, conversationId, path);
        if (!written)
            error = written.error();
    }
    if (!error.isEmpty()) {
        m_chat->addError(tr("Could not export the conversation: %1").arg(error));
        return false;
    }
    statusBar()->showMessage(tr("Exported to %1").arg(QDir::toNativeSeparators(path)), 8000);
    return true;
}

void MainWindow::newConversation()
{
    if (m_agent->isRunning() || m_personRunning)
        return;
    const QString id = QUuid::createUuid().toString(QUuid::WithoutBraces).left(8);
    switchTo(
        id, false, m_settings.workspaceFor(id), nlohmann::json::array(), tr("New conversation"));
    if (!m_session->config().fresh)
        m_session->start();
    updateStatus();
}

void MainWindow::setConversationTitle(const QString &title)
{
    m_title = title;
    setWindowTitle(QStringLiteral("Sandcastle — ") + title);
}

void MainWindow::notifyIfAway(const ExecutionResult &result)
{
    if (result.durationMs < 10000 || isActiveWindow())
        return;
    const QString title = tr("Sandcastle: a run finished");
    const QString message = tr("%1 after %2 s in “%3”")
                                .arg(ExecutionResult::statusName(result.status))
                                .arg(result.durationMs / 1000)
                                .arg(m_title);
    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        if (!m_tray) {
            m_tray = new QSystemTrayIcon(windowIcon(), this);
            m_tray->show();
        }
        m_tray->showMessage(title, message);
    }
    QApplication::alert(this);
    Q_EMIT notified(title, message);
}

QString MainWindow::usageText() const
{
    QString text = tr("%L1 tokens").arg(m_conversationTokens);
    if (m_conversationCost >= 0)
        text += tr(" · $%1").arg(m_conversationCost, 0, 'f', m_conversationCost < 1 ? 4 : 2);
    if (m_agent && m_agent->isRunning())
        text = tr("turn %1 of %2").arg(m_agent->turns()).arg(m_settings.maxTurns)
               + QStringLiteral(" · ") + text;
    return text;
}

void MainWindow::updateUsage()
{
    m_usageStatus->setText(usageText());
    m_usageStatus->setToolTip(tr("Tokens and cost of this conversation (prices from models.json)"));
}

void MainWindow::loadUsage()
{
    m_conversationTokens = 0;
    m_conversationCost = 0;
    if (m_conversationSaved && m_store->isOpen()) {
        const Result<nlohmann::json> stored = m_store->settings(m_conversationId);
        if (stored && stored.value().contains("usage")) {
            const nlohmann::json &usage = stored.value()["usage"];
            m_conversationTokens = usage.value("tokens", qint64(0));
            m_conversationCost = usage.value("cost_usd", 0.0);
        }
    }
    updateUsage();
}

void MainWindow::updateStatus()
{
    if (m_session->state() == SandboxSession::State::Ready
        || m_session->state() == SandboxSession::State::Running)
        m_sandboxError.clear();
    m_sandboxStatus->setToolTip(m_sandboxError);
    QString sandbox;
    switch (m_session->state()) {
    case SandboxSession::State::Stopped:
        sandbox
            = m_sandboxError.isEmpty()
                  ? tr("Sandbox: stopped")
                  : tr("Sandbox: failed — %1").arg(m_sandboxError.section(QLatin1Char('\n'), 0, 0));
        break;
    case SandboxSession::State::Starting:
        sandbox = tr("Sandbox: starting…");
        break;
    case SandboxSession::State::Ready:
        sandbox = tr("Sandbox: ready");
        break;
    case SandboxSession::State::Running:
        sandbox = tr("Sandbox: running");
        break;
    }
    const SandboxConfig &config = m_session->config();
    sandbox += tr("  ·  network %1  ·  memory %2")
                   .arg(config.network ? tr("ON") : tr("off"), config.memory);
    m_sandboxStatus->setText(sandbox);
    m_modelStatus->setText(tr("Model: %1 at %2").arg(m_settings.model, m_settings.baseUrl));
}

void MainWindow::saveState()
{
    QSettings settings(m_settings.settingsFile(), QSettings::IniFormat);
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), QMainWindow::saveState());
    settings.setValue(QStringLiteral("window/mainSplitter"), m_mainSplitter->saveState());
    settings.setValue(QStringLiteral("window/centreSplitter"), m_centreSplitter->saveState());
}

void MainWindow::restoreState()
{
    QSettings settings(m_settings.settingsFile(), QSettings::IniFormat);
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    QMainWindow::restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_mainSplitter->restoreState(
        settings.value(QStringLiteral("window/mainSplitter")).toByteArray());
    m_centreSplitter->restoreState(
        settings.value(QStringLiteral("window/centreSplitter")).toByteArray());
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    m_chat->promptEdit()->setFocus(Qt::OtherFocusReason);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveState();
    m_agent->stop();
    m_session->stop();
    event->accept();
}

} // namespace Sandcastle
