#pragma once

#include <app/appsettings.h>
#include <app/llm/localservers.h>

#include <QElapsedTimer>
#include <QHash>
#include <QMainWindow>

class QAction;
class QFrame;
class QLabel;
class QMenu;
class QSplitter;
class QSystemTrayIcon;

namespace Sandcastle {

class Agent;
class ApprovalBar;
class CellQueue;
class ConversationController;
class WarmSpare;
class ChatPane;
class CodeEditor;
class EditorPane;
class EditActions;
class ConsolePane;
class EnvironmentBar;
class ImageBar;
class ImageBuild;
class ConversationListModel;
class ConversationsPane;
class FilesPane;
class SandboxSession;
class StatusLine;
class WelcomePanel;

// The window: chat on the left, the editor in the centre over the console, the workspace's
// files on the right. A face over a ConversationController (which owns the agent, model
// client, sandbox and store); one binder per pane connects them, the window keeps its title,
// status bar, menus and dialogs.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(const AppSettings &settings, QWidget *parent = nullptr);
    ~MainWindow() override;

    ChatPane *chatPane() const { return m_chat; }
    CodeEditor *editor() const { return m_editor; }
    EditorPane *editorPane() const { return m_editorPane; }
    ConsolePane *console() const { return m_console; }
    FilesPane *filesPane() const { return m_files; }
    ConversationController *controller() const { return m_controller; }
    // The sandbox kept ready for the next new conversation.
    WarmSpare *warmSpare() const { return m_spare; }
    Agent *agent() const;
    SandboxSession *session() const;

    QString conversationId() const;
    ConversationsPane *conversationsPane() const { return m_conversations; }
    // Starts an empty conversation (the current one stays in the store).
    void newConversation();
    // A new conversation working in a folder of the person's (File → Open Folder…, a folder
    // dropped on the window, --workspace): refused with the reason in the chat when the
    // folder must not be mounted (see ProjectFolder) or while busy. Remembered in the recent
    // folders.
    bool openFolder(const QString &folder);
    void chooseFolder();
    QStringList recentFolders() const;
    // Switches to a stored conversation: its transcript, workspace and sandbox. Refused (false)
    // while the agent or a run is busy, or when it cannot be read.
    bool openConversation(const QString &conversationId);
    void deleteConversation(const QString &conversationId);
    // Writes the conversation as Markdown (a file) or as a re-runnable bundle (a new folder).
    bool exportConversation(const QString &conversationId, const QString &path, bool bundle);
    // --- notebooks (mainwindownotebook.cpp)
    // A Jupyter notebook (File → Open Notebook…): its code cells become editor tabs ("Cell N")
    // run with Run or Run All Cells, its Markdown goes to the agent with the next message
    // (and is shown). A notebook that cannot be read is refused with the reason in the chat.
    bool openNotebook(const QString &path);
    void chooseNotebook();
    // Run → Run All Cells: the opened notebook's cells, as they are in the editor, one after
    // another in the conversation's kernel; the first that fails stops the rest (with a
    // message in the chat). False when there is nothing to run or the conversation is busy.
    bool runAllCells();
    CellQueue *cellQueue() const { return m_cellQueue; }
    bool exportNotebook(const QString &conversationId, const QString &path);
    void submitPrompt(const QString &text);
    void runEditorCode();
    // Copies the person's files into the workspace and mentions them in the prompt box.
    QStringList uploadFiles(const QStringList &paths);
    // Runs code the person gives (the editor's text, or its selection) in the sandbox.
    void runPersonCode(const QString &code, const QString &language = QStringLiteral("python"));
    // A workspace file opened from the files pane into an editor tab, and saved back (Ctrl+S);
    // both through PathGuard: a planted link is refused, never followed.
    void openWorkspaceFile(const QString &relativePath);
    void saveWorkspaceFile(const QString &relativePath, const QString &text);
    void openSettings();
    WelcomePanel *welcomePanel() const { return m_welcome; }
    // First launch: which model servers answer on this machine (loopback only).
    void probeLocalServers(const QList<LocalServerProbe::Server> &candidates);
    void showCommandPalette();
    // The review of a recorded checkpoint (its badge in the chat was clicked).
    void openCheckpointReview(int number);
    // The review of the newest checkpoint that changed files (Run → Review the last changes).
    void reviewLastChanges();
    void showShortcuts();
    void showAbout();
    // File → Upload files…: chosen files copied into the workspace.
    void chooseUploads();
    // View → Zoom: points added to the editor's, the console's and the chat's text (0: none).
    void setZoom(int steps);
    int zoom() const;
    // Every action of the window's menus, submenus included.
    QList<QAction *> allActions() const;
    // Takes new settings for the next request and run (a run in progress keeps its own).
    void applySettings(const AppSettings &next);
    const AppSettings &settings() const;
    QString usageText() const;

Q_SIGNALS:
    // A long run finished while the window was in the background (a desktop notification).
    void notified(const QString &title, const QString &message);

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    QWidget *buildEditorArea();
    void buildLayout();
    void buildMenus();
    void buildFileMenu();
    void buildEditMenu();
    void buildViewMenu();
    void buildRunMenu();
    void buildHelpMenu();
    // The View menu's parts.
    void addPaneToggles(QMenu *view);
    void addZoomActions(QMenu *view);
    void addThemeMenu(QMenu *view);
    // View → a pane shown or hidden (remembered); the last one shown stays.
    void showPane(QAction *toggle, QWidget *pane, const QString &name, bool on);
    void fillRecentFolders(QMenu *menu);
    void bindController();
    void bindCheckpoints();
    void bindEnvironment();
    // The sandbox image: looked for after the first frame, offered to be built when missing.
    void bindImage();
    void checkImage();
    void buildImage();
    void sendImage();
    void bindPanes();
    void bindConversationList();
    void readKeyFromKeychain();
    void showConversationTitle(const QString &title);
    void exportRequested(const QString &conversationId, bool bundle);
    void addNotebookActions(QMenu *file);
    void exportNotebookRequested(const QString &conversationId);
    void showWelcome();
    void notifyIfAway(const ExecutionResult &result);
    void saveState();
    void sizeToScreen();
    void restoreState();

    ConversationController *m_controller = nullptr;
    WarmSpare *m_spare = nullptr;
    WelcomePanel *m_welcome = nullptr;
    ConversationListModel *m_conversationModel = nullptr;
    ConversationsPane *m_conversations = nullptr;
    ChatPane *m_chat = nullptr;
    EditorPane *m_editorPane = nullptr;
    CodeEditor *m_editor = nullptr;
    ConsolePane *m_console = nullptr;
    FilesPane *m_files = nullptr;
    QSplitter *m_mainSplitter = nullptr;
    QSplitter *m_centreSplitter = nullptr;
    StatusLine *m_status = nullptr;
    QSystemTrayIcon *m_tray = nullptr;
    ApprovalBar *m_approvalBar = nullptr;
    EnvironmentBar *m_environmentBar = nullptr;
    ImageBar *m_imageBar = nullptr;
    ImageBuild *m_imageBuild = nullptr;
    QElapsedTimer m_imageClock;
    bool m_imageSending = false;
    QElapsedTimer m_buildClock;
    bool m_buildInConsole = false; // an environment build is the console's current run
    EditActions *m_edit = nullptr;
    QList<QAction *> m_paneToggles;
    QAction *m_exportMarkdown = nullptr;
    QAction *m_exportBundle = nullptr;
    QAction *m_exportNotebook = nullptr;
    QAction *m_runAllCells = nullptr;
    CellQueue *m_cellQueue = nullptr;
    // The code cells of the notebook opened last, as editor tabs (their tool call ids).
    struct OpenedCell
    {
        QString callId;
        QString name;
        bool shell = false;
    };
    QList<OpenedCell> m_openedCells;
    QStringList m_queuedCells; // the tabs of the cells Run All Cells is running
    int m_notebooks = 0;       // numbers the notebooks opened, for their tabs' ids
    int m_zoom = 0;
};

} // namespace Sandcastle
