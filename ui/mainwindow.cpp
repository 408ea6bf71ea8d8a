#include "mainwindow.h"

#include "firstpaint.h"

#include "actions/commandpalette.h"
#include "binders/panebinders.h"
#include "chat/chatpane.h"
#include "chat/promptedit.h"
#include "chat/welcomepanel.h"
#include "console/consolepane.h"
#include "conversations/conversationlistmodel.h"
#include "conversations/conversationspane.h"
#include "editor/codeeditor.h"
#include "editor/editorpane.h"
#include "environment/environmentbar.h"
#include "environment/imagebar.h"
#include "files/filepreview.h"
#include "files/filespane.h"
#include "icons.h"
#include "settings/settingsdialog.h"
#include "statusline.h"
#include "theme.h"
#include "widgets/approvalbar.h"

#include <app/agent/agent.h>
#include <app/agent/filetools.h>
#include <app/controller/conversationcontroller.h>
#include <app/controller/warmspare.h>
#include <app/keystore.h>
#include <app/mcp/mcphub.h>
#include <app/project/projectenvironment.h>
#include <base/jsonfields.h>
#include <sandbox/imagebuild.h>
#include <sandbox/pathguard.h>
#include <sandbox/sandboxsession.h>

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QStringDecoder>
#include <QSystemTrayIcon>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

static void initUiResources()
{
    Q_INIT_RESOURCE(resources);
}

namespace Sandcastle {

namespace {
constexpr int kSweepDelayMs = 3000; // after the first frame
} // namespace

MainWindow::MainWindow(const AppSettings &settings, QWidget *parent)
    : QMainWindow(parent)
    , m_controller(new ConversationController(settings,
                                              this,
                                              ConversationController::LookUps::WhenWarmedUp,
                                              ConversationController::StoreOpening::Later))
    , m_chat(new ChatPane(this))
    , m_editorPane(new EditorPane(this))
    , m_editor(m_editorPane->editor())
    , m_console(new ConsolePane(this))
    , m_files(new FilesPane(this))
{
    // The store is opened after the panes are made: a store the application started preparing
    // on a worker thread (StoreSchema) has had the panes' time to get ready.
    m_controller->openStore();
    initUiResources();
    setObjectName(QStringLiteral("mainWindow"));
    m_spare = new WarmSpare(settings, {}, this);
    m_controller->setWarmSpare(m_spare);
    setWindowIcon(QIcon(QStringLiteral(":/icons/sandcastle.svg")));
    m_chat->setObjectName(QStringLiteral("chatPane"));
    m_editor->setObjectName(QStringLiteral("editor"));
    m_console->setObjectName(QStringLiteral("console"));
    m_console->setScrollback(this->settings().consoleScrollback);
    m_files->setObjectName(QStringLiteral("filesPane"));
    buildLayout();
    m_status = new StatusLine(m_controller, statusBar());
    m_files->setRoot(m_controller->workspace());
    if (!m_controller->storeError().isEmpty())
        m_chat->addError(
            tr("Conversations are not being saved: %1").arg(m_controller->storeError()));
    if (this->settings().apiKey.isEmpty())
        readKeyFromKeychain();

    buildMenus();
    bindPanes();
    bindController();
    bindConversationList();
    showConversationTitle(QString());
    m_controller->openLastConversation();
    m_conversations->setCurrent(m_controller->isSaved() ? conversationId() : QString());
    // Nothing configured yet (the default endpoint and no key): help the person start.
    if (this->settings().apiKey.isEmpty() && this->settings().baseUrl == AppSettings().baseUrl)
        showWelcome();
    sizeToScreen();
    restoreState();
    // Warm the sandbox as soon as the first frame is up, so that the first run does not wait
    // for a container to start and the first frame does not wait for the engine's processes.
    FirstPaintHook::after(m_controller, [this] {
        m_controller->warmUp();
        checkImage();
        m_spare->replenish(); // after this conversation's own sandbox has had its start
        // Housekeeping (the empty folders and volumes of conversations gone) waits until the
        // window has settled: with a thousand conversations it takes a few milliseconds.
        QTimer::singleShot(
            kSweepDelayMs, m_controller, [this] { m_controller->sweepLeftoverWorkspaces(); });
    });
}

MainWindow::~MainWindow() = default;

QString MainWindow::usageText() const
{
    return m_status->usageText();
}

Agent *MainWindow::agent() const
{
    return m_controller->agent();
}

SandboxSession *MainWindow::session() const
{
    return m_controller->session();
}

QString MainWindow::conversationId() const
{
    return m_controller->conversationId();
}

const AppSettings &MainWindow::settings() const
{
    return m_controller->settings();
}

QWidget *MainWindow::buildEditorArea()
{
    // Ask-first mode: a bar over the editor holds the agent's code until the person decides.
    auto *editorArea = new QWidget(this);
    auto *editorLayout = new QVBoxLayout(editorArea);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    editorLayout->setSpacing(0);
    m_approvalBar = new ApprovalBar(editorArea);
    m_environmentBar = new EnvironmentBar(editorArea);
    editorLayout->addWidget(m_environmentBar);
    m_imageBar = new ImageBar(editorArea);
    editorLayout->addWidget(m_imageBar);
    editorLayout->addWidget(m_approvalBar);
    editorLayout->addWidget(m_editorPane, 1);
    connect(m_approvalBar, &ApprovalBar::approved, this, [this] {
        agent()->approve(m_editor->text());
    });
    connect(m_approvalBar, &ApprovalBar::rejected, this, [this] { agent()->reject(); });
    return editorArea;
}

void MainWindow::buildLayout()
{
    m_centreSplitter = new QSplitter(Qt::Vertical, this);
    m_centreSplitter->setObjectName(QStringLiteral("centreSplitter"));
    m_centreSplitter->addWidget(buildEditorArea());
    m_centreSplitter->addWidget(m_console);
    m_centreSplitter->setStretchFactor(0, 3);
    m_centreSplitter->setStretchFactor(1, 2);
    m_mainSplitter = new QSplitter(Qt::Horizontal, this);
    m_mainSplitter->setObjectName(QStringLiteral("mainSplitter"));
    m_conversationModel = new ConversationListModel(m_controller->store(), this);
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
}

void MainWindow::readKeyFromKeychain()
{
    // The key is in the system keychain, if anywhere; it arrives before a person types.
    auto *keys = new KeyStore(this);
    connect(keys, &KeyStore::keyRead, this, [this](const QString &, const QString &key) {
        AppSettings next = settings();
        next.apiKey = key;
        m_controller->applySettings(next);
        if (m_welcome && !key.isEmpty())
            m_welcome->hide(); // configured after all
    });
    keys->read(settings().keyAccount());
}

void MainWindow::bindPanes()
{
    PaneBinders::bindChat(m_controller, m_chat);
    PaneBinders::bindEditor(m_controller, m_editorPane, m_approvalBar);
    PaneBinders::bindConsole(m_controller, m_console);
    PaneBinders::bindFiles(m_controller, m_files);
    // What the person does in the panes goes through the window (it asks, saves, tells).
    connect(m_chat, &ChatPane::promptSubmitted, this, &MainWindow::submitPrompt);
    connect(m_chat, &ChatPane::filesDropped, this, &MainWindow::uploadFiles);
    // A run's picture clicked in the chat: the image in the files pane's preview.
    connect(m_chat, &ChatPane::imageActivated, this, [this](const QString &relative) {
        if (!m_files->isVisible() && m_paneToggles.size() == 5)
            m_paneToggles.at(4)->setChecked(true);
        m_files->preview(relative);
    });
    connect(m_files, &FilesPane::filesDropped, this, &MainWindow::uploadFiles);
    // A table of an answer as table.csv (table-2.csv, …) in the workspace, shown there.
    connect(m_chat, &ChatPane::tableAsCsvRequested, this, [this](const QString &csv) {
        const Result<QString> added = m_files->addFile(QStringLiteral("table.csv"), csv);
        statusBar()->showMessage(added ? tr("Saved %1").arg(added.value())
                                       : tr("Not saved: %1").arg(added.error()),
                                 added ? 3000 : 10000);
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
}

void MainWindow::bindController()
{
    connect(m_controller,
            &ConversationController::titleChanged,
            this,
            &MainWindow::showConversationTitle);
    // The status line follows switches, runs and the agent by itself.
    connect(m_controller, &ConversationController::conversationSwitched, this, [this] {
        m_conversations->setCurrent(m_controller->isSaved() ? conversationId() : QString());
    });
    connect(
        m_controller, &ConversationController::personRunFinished, this, &MainWindow::notifyIfAway);
    bindCheckpoints();
    bindEnvironment();
    bindImage();
    connect(agent(),
            &Agent::toolResult,
            this,
            [this](const QString &, const ExecutionResult &result) { notifyIfAway(result); });
    connect(agent(), &Agent::finished, this, [this](const QString &status) {
        statusBar()->showMessage(tr("Agent: %1").arg(status), 5000);
    });
}

void MainWindow::bindConversationList()
{
    connect(m_controller, &ConversationController::conversationsChanged, this, [this] {
        m_conversationModel->refresh(); // newest first, message counts
        m_conversations->setCurrent(m_controller->isSaved() ? conversationId() : QString());
    });
    connect(m_controller,
            &ConversationController::deleteFinished,
            this,
            [this](const QString &, bool ok, const QString &note) {
                if (!ok)
                    m_chat->addError(tr("Could not delete the conversation: %1").arg(note));
                else if (!note.isEmpty())
                    statusBar()->showMessage(note, 10000);
            });
    // A rename in the list renames the window when it is this conversation.
    connect(m_conversationModel,
            &ConversationListModel::dataChanged,
            this,
            [this](const QModelIndex &topLeft) {
                if (topLeft.data(ConversationListModel::IdRole).toString() == conversationId())
                    m_controller->setTitle(topLeft.data(Qt::EditRole).toString());
            });
    connect(
        m_conversations, &ConversationsPane::openRequested, this, &MainWindow::openConversation);
    connect(m_conversations, &ConversationsPane::newRequested, this, &MainWindow::newConversation);
    connect(m_conversations,
            &ConversationsPane::deleteRequested,
            this,
            &MainWindow::deleteConversation);
    connect(
        m_conversations, &ConversationsPane::exportRequested, this, &MainWindow::exportRequested);
}

void MainWindow::exportRequested(const QString &id, bool bundle)
{
    const QString path
        = bundle
              ? QFileDialog::getSaveFileName(this,
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
}

void MainWindow::submitPrompt(const QString &text)
{
    if (m_controller->isBusy() || text.trimmed().isEmpty())
        return;
    m_chat->clearPrompt();
    m_editorPane->beginSnippet();
    m_chat->addUserMessage(text);
    m_chat->setBusy(true);
    m_controller->submitPrompt(text);
    m_status->refresh();
}

void MainWindow::runEditorCode()
{
    runPersonCode(m_editor->text(), m_editorPane->currentLanguage());
}

void MainWindow::runPersonCode(const QString &code, const QString &language)
{
    if (m_controller->isBusy() || code.trimmed().isEmpty())
        return;
    m_controller->ensureSaved(tr("Code run by hand"));
    m_controller->runPersonCode(code,
                                language == QLatin1String("bash")
                                    ? ConversationController::Language::Shell
                                    : ConversationController::Language::Python,
                                m_editorPane->tellsAgent());
    m_status->refresh();
}

void MainWindow::applySettings(const AppSettings &next)
{
    const bool themeChanged = next.theme != settings().theme;
    const bool engineChanged = next.engine != settings().engine
                               || next.engineContext != settings().engineContext
                               || next.image != settings().image;
    m_controller->applySettings(next);
    if (themeChanged)
        applyTheme(themeFromName(settings().theme));
    const bool imageBusy = (m_imageBuild && m_imageBuild->isRunning()) || m_imageSending;
    if (engineChanged && !imageBusy) { // another engine may lack the image
        m_imageBar->hide();
        checkImage();
    }
    m_console->setScrollback(settings().consoleScrollback);
    m_status->refresh();
}

bool MainWindow::openConversation(const QString &id)
{
    if (id != conversationId() && m_controller->isBusy()) {
        statusBar()->showMessage(tr("Stop the agent or the run before switching conversations."),
                                 5000);
        m_conversations->setCurrent(conversationId());
        return false;
    }
    const Result<bool> opened = m_controller->openConversation(id);
    if (!opened) {
        statusBar()->showMessage(opened.error(), 8000);
        return false;
    }
    return true;
}

void MainWindow::deleteConversation(const QString &id)
{
    if (m_controller->deleteConversation(id) == ConversationController::Refusal::Busy)
        statusBar()->showMessage(tr("Stop the agent or the run before deleting this "
                                    "conversation."),
                                 5000);
}

bool MainWindow::exportConversation(const QString &id, const QString &path, bool bundle)
{
    const Result<bool> written = m_controller->exportConversation(id, path, bundle);
    if (!written) {
        m_chat->addError(tr("Could not export the conversation: %1").arg(written.error()));
        return false;
    }
    statusBar()->showMessage(tr("Exported to %1").arg(QDir::toNativeSeparators(path)), 8000);
    return true;
}

void MainWindow::newConversation()
{
    m_controller->newConversation();
}

void MainWindow::showConversationTitle(const QString &title)
{
    setWindowTitle(QStringLiteral("Sandcastle — ")
                   + (title.isEmpty() ? tr("New conversation") : title));
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveState();
    m_controller->shutDown(ConversationController::ShutDownMode::Async);
    event->accept();
}

QStringList MainWindow::uploadFiles(const QStringList &paths)
{
    // A folder dropped on the window is opened to work in; files are copied into the workspace.
    QStringList files;
    QStringList folders;
    for (const QString &path : paths)
        (QFileInfo(path).isDir() ? folders : files) << path;
    if (!folders.isEmpty()) {
        if (openFolder(folders.first()) && folders.size() + files.size() > 1)
            m_chat->addError(tr("One folder at a time, and files on their own: %1 was opened; "
                                "not opened or added: %2")
                                 .arg(QDir::toNativeSeparators(folders.first()),
                                      (folders.mid(1) + files).join(QStringLiteral(", "))));
        return {};
    }
    QStringList names;
    for (const QString &path : std::as_const(files)) {
        const Result<QString> name = FileTools::upload(m_files->root(), path);
        if (name)
            names << name.value();
        else
            m_chat->addError(tr("Not added to the workspace: %1").arg(name.error()));
    }
    if (names.isEmpty())
        return names;
    m_controller->environment()->refresh(); // a requirements.txt dropped in, perhaps
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
    m_controller->environment()->refresh(); // requirements.txt or apt.txt, perhaps
}

void MainWindow::openSettings()
{
    SettingsDialog dialog(settings(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    applySettings(dialog.settings());
    m_controller->mcp()->reload(); // servers changed or switched off stop; new ones start when used
    if (m_welcome && (!settings().apiKey.isEmpty() || settings().baseUrl != AppSettings().baseUrl))
        m_welcome->hide();
}

void MainWindow::showWelcome()
{
    m_welcome = new WelcomePanel(this);
    m_chat->insertPanel(m_welcome);
    connect(m_welcome, &WelcomePanel::settingsRequested, this, &MainWindow::openSettings);
    connect(m_welcome,
            &WelcomePanel::serverChosen,
            this,
            [this](const LocalServerProbe::Server &server) {
                AppSettings next = settings();
                next.provider = server.provider;
                next.baseUrl = server.baseUrl;
                next.model = server.models.value(0);
                next.save();
                applySettings(next);
                m_welcome->hide();
                statusBar()->showMessage(tr("Using %1 with %2").arg(server.name, next.model), 8000);
            });
    probeLocalServers(LocalServerProbe::defaultCandidates());
    m_welcome->checkSandbox(settings().engine, settings().engineContext, settings().image);
}

void MainWindow::probeLocalServers(const QList<LocalServerProbe::Server> &candidates)
{
    if (!m_welcome)
        return;
    m_welcome->probe(candidates);
}

void MainWindow::notifyIfAway(const ExecutionResult &result)
{
    if (result.durationMs < 10000 || isActiveWindow())
        return;
    const QString title = tr("Sandcastle: a run finished");
    const QString message = tr("%1 after %2 s in “%3”")
                                .arg(ExecutionResult::statusName(result.status))
                                .arg(result.durationMs / 1000)
                                .arg(m_controller->title());
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

void MainWindow::saveState()
{
    QSettings state(settings().settingsFile(), QSettings::IniFormat);
    state.setValue(QStringLiteral("window/geometry"), saveGeometry());
    state.setValue(QStringLiteral("window/state"), QMainWindow::saveState());
    state.setValue(QStringLiteral("window/mainSplitter"), m_mainSplitter->saveState());
    state.setValue(QStringLiteral("window/centreSplitter"), m_centreSplitter->saveState());
}

void MainWindow::sizeToScreen()
{
    // The first window takes most of the screen it opens on (a laptop's 1366×768 as well as a
    // 4K monitor), centred; after that the geometry the person left is restored.
    const QScreen *screen = this->screen() ? this->screen() : QGuiApplication::primaryScreen();
    if (!screen) {
        resize(1300, 800);
        return;
    }
    const QRect available = screen->availableGeometry();
    const QSize size(std::max(800, available.width() * 4 / 5),
                     std::max(560, available.height() * 17 / 20));
    resize(size.boundedTo(available.size()));
    move(available.center() - rect().center());
}

void MainWindow::restoreState()
{
    QSettings state(settings().settingsFile(), QSettings::IniFormat);
    restoreGeometry(state.value(QStringLiteral("window/geometry")).toByteArray());
    QMainWindow::restoreState(state.value(QStringLiteral("window/state")).toByteArray());
    m_mainSplitter->restoreState(state.value(QStringLiteral("window/mainSplitter")).toByteArray());
    m_centreSplitter->restoreState(
        state.value(QStringLiteral("window/centreSplitter")).toByteArray());
}

void MainWindow::changeEvent(QEvent *event)
{
    QMainWindow::changeEvent(event);
    if (event->type() == QEvent::ActivationChange || event->type() == QEvent::WindowStateChange)
        m_controller->setLookedAt(isActiveWindow() && !isMinimized());
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    m_chat->promptEdit()->setFocus(Qt::OtherFocusReason);
}

} // namespace Sandcastle
