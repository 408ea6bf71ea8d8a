#include "mainwindow.h"

#include "actions/commandpalette.h"
#include "chat/chatpane.h"
#include "files/filespane.h"
#include "icons.h"

#include <app/agent/agent.h>
#include <app/controller/conversationcontroller.h>

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QStatusBar>

// The window's menus and what only they do: the seam along which mainwindow.cpp was split.
namespace Sandcastle {

namespace {

const QString RecentFoldersKey = QStringLiteral("window/recentFolders");
constexpr int RecentFoldersKept = 10;

} // namespace

void MainWindow::buildMenus()
{
    buildFileMenu();
    buildEditMenu();
    buildViewMenu();
    buildRunMenu();
    buildHelpMenu();
}

void MainWindow::buildFileMenu()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *newOne = file->addAction(tr("&New conversation"), this, &MainWindow::newConversation);
    newOne->setObjectName(QStringLiteral("newConversation"));
    newOne->setShortcut(QKeySequence::New);
    newOne->setIcon(actionIcon("new"));
    QAction *openFolder = file->addAction(tr("&Open Folder…"), this, &MainWindow::chooseFolder);
    openFolder->setObjectName(QStringLiteral("openFolder"));
    openFolder->setShortcut(QKeySequence::Open);
    openFolder->setIcon(actionIcon("folder"));
    QAction *goToFile = file->addAction(tr("&Go to File…"), m_files, &FilesPane::showQuickOpen);
    goToFile->setObjectName(QStringLiteral("goToFile"));
    goToFile->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
    goToFile->setIcon(actionIcon("find"));
    QMenu *recent = file->addMenu(tr("&Recent folders"));
    recent->setObjectName(QStringLiteral("recentFolders"));
    connect(recent, &QMenu::aboutToShow, this, [this, recent] { fillRecentFolders(recent); });
    fillRecentFolders(recent);
    file->addSeparator();
    QAction *upload = file->addAction(tr("&Upload files…"), this, &MainWindow::chooseUploads);
    upload->setObjectName(QStringLiteral("uploadFiles"));
    upload->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_U));
    upload->setIcon(actionIcon("upload"));
    m_exportMarkdown = file->addAction(tr("&Export conversation as Markdown…"), this, [this] {
        exportRequested(conversationId(), false);
    });
    m_exportMarkdown->setObjectName(QStringLiteral("exportMarkdown"));
    m_exportMarkdown->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    m_exportMarkdown->setIcon(actionIcon("export"));
    m_exportBundle = file->addAction(tr("Export conversation as a folder that re-&runs…"),
                                     this,
                                     [this] { exportRequested(conversationId(), true); });
    m_exportBundle->setObjectName(QStringLiteral("exportBundle"));
    m_exportBundle->setIcon(actionIcon("export"));
    addNotebookActions(file);
    // Only a conversation in the store can be exported.
    const auto exportable = [this] {
        m_exportMarkdown->setEnabled(m_controller->isSaved());
        m_exportBundle->setEnabled(m_controller->isSaved());
        m_exportNotebook->setEnabled(m_controller->isSaved());
    };
    connect(m_controller, &ConversationController::conversationSwitched, this, exportable);
    connect(m_controller, &ConversationController::conversationsChanged, this, exportable);
    connect(file, &QMenu::aboutToShow, this, exportable);
    exportable();
    file->addSeparator();
    QAction *settings = file->addAction(tr("&Settings…"), this, &MainWindow::openSettings);
    settings->setObjectName(QStringLiteral("openSettings"));
    // Ctrl+, always: many platform themes give QKeySequence::Preferences no key at all.
    QList<QKeySequence> preferences{QKeySequence(Qt::CTRL | Qt::Key_Comma)};
    for (const QKeySequence &key : QKeySequence::keyBindings(QKeySequence::Preferences)) {
        if (!preferences.contains(key))
            preferences << key;
    }
    settings->setShortcuts(preferences);
    settings->setIcon(actionIcon("settings"));
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setObjectName(QStringLiteral("quit"));
    quit->setShortcut(QKeySequence::Quit);
    quit->setIcon(actionIcon("quit"));
}

void MainWindow::buildRunMenu()
{
    QMenu *run = menuBar()->addMenu(tr("&Run"));
    QAction *runCode
        = run->addAction(tr("&Run the editor's code"), this, &MainWindow::runEditorCode);
    runCode->setObjectName(QStringLiteral("runEditorCode"));
    runCode->setShortcut(QKeySequence(Qt::Key_F5));
    runCode->setIcon(actionIcon("run"));
    run->addAction(m_runAllCells);
    QAction *stop = run->addAction(tr("&Stop"), m_controller, &ConversationController::stop);
    stop->setObjectName(QStringLiteral("stop"));
    stop->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
    stop->setIcon(actionIcon("stop"));
    QAction *stopCode = run->addAction(
        tr("Stop the running &code"), m_controller, &ConversationController::stopCode);
    stopCode->setObjectName(QStringLiteral("stopCode"));
    stopCode->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Period));
    stopCode->setIcon(actionIcon("stop-code"));
    QAction *stopStep = run->addAction(tr("Stop after this &step"), agent(), &Agent::stopAfterStep);
    stopStep->setObjectName(QStringLiteral("stopAfterStep"));
    stopStep->setIcon(actionIcon("stop-step"));
    run->addSeparator();
    QAction *review
        = run->addAction(tr("Re&view the last changes…"), this, &MainWindow::reviewLastChanges);
    review->setObjectName(QStringLiteral("reviewChanges"));
    review->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    review->setIcon(actionIcon("diff"));
}

void MainWindow::buildHelpMenu()
{
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *palette
        = help->addAction(tr("&Command palette…"), this, &MainWindow::showCommandPalette);
    palette->setObjectName(QStringLiteral("commandPaletteAction"));
    palette->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    palette->setIcon(actionIcon("palette"));
    QAction *shortcuts
        = help->addAction(tr("&Keyboard shortcuts"), this, &MainWindow::showShortcuts);
    shortcuts->setObjectName(QStringLiteral("keyboardShortcuts"));
    shortcuts->setShortcut(QKeySequence(Qt::Key_F1));
    shortcuts->setIcon(actionIcon("keyboard"));
    help->addSeparator();
    QAction *about = help->addAction(tr("&About Sandcastle"), this, &MainWindow::showAbout);
    about->setObjectName(QStringLiteral("about"));
    about->setMenuRole(QAction::AboutRole);
    about->setIcon(actionIcon("about"));
}

void MainWindow::chooseUploads()
{
    const QStringList files
        = QFileDialog::getOpenFileNames(this, tr("Upload files into the workspace"));
    if (!files.isEmpty())
        uploadFiles(files);
}

namespace {
// The actions of a menu and of its submenus (the themes; the recent folders as they are now).
void collectActions(const QMenu *menu, QList<QAction *> &into)
{
    const QList<QAction *> items = menu->actions();
    for (QAction *action : items) {
        if (action->menu())
            collectActions(action->menu(), into);
        else if (!action->isSeparator())
            into << action;
    }
}
} // namespace

QList<QAction *> MainWindow::allActions() const
{
    QList<QAction *> actions;
    const QList<QAction *> menus = menuBar()->actions();
    for (const QAction *menu : menus) {
        if (menu->menu())
            collectActions(menu->menu(), actions);
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

QStringList MainWindow::recentFolders() const
{
    QStringList folders = QSettings().value(RecentFoldersKey).toStringList();
    folders.erase(std::remove_if(folders.begin(),
                                 folders.end(),
                                 [](const QString &f) { return !QFileInfo(f).isDir(); }),
                  folders.end());
    return folders;
}

void MainWindow::fillRecentFolders(QMenu *menu)
{
    menu->clear();
    const QStringList folders = recentFolders();
    for (const QString &folder : folders) {
        QAction *action = menu->addAction(
            QDir::toNativeSeparators(folder), this, [this, folder] { openFolder(folder); });
        action->setToolTip(folder);
        action->setIcon(actionIcon("folder"));
    }
    if (folders.isEmpty()) {
        QAction *none = menu->addAction(actionIcon("folder"), tr("No folder opened yet"));
        none->setEnabled(false);
    }
}

void MainWindow::chooseFolder()
{
    const QString folder = QFileDialog::getExistingDirectory(
        this, tr("Open a folder to work in"), recentFolders().value(0, QDir::homePath()));
    if (!folder.isEmpty())
        openFolder(folder);
}

bool MainWindow::openFolder(const QString &folder)
{
    const Result<bool> opened = m_controller->newConversation(folder);
    if (!opened) {
        const QString why = opened.error() == QLatin1String("busy")
                                ? tr("Cannot open %1 while the agent or a run is busy.")
                                      .arg(QDir::toNativeSeparators(folder))
                                : opened.error();
        m_chat->addError(why);
        statusBar()->showMessage(why, 10000);
        return false;
    }
    QStringList folders = recentFolders();
    folders.removeAll(m_controller->workspace());
    folders.prepend(m_controller->workspace());
    QSettings().setValue(RecentFoldersKey, folders.mid(0, RecentFoldersKept));
    statusBar()->showMessage(
        tr("Working in %1").arg(QDir::toNativeSeparators(m_controller->workspace())), 5000);
    if (!m_controller->isWorkspaceWritable())
        m_chat->addNotice(tr("%1 is read-only (a read-only mount, or no permission to write): the "
                             "agent can read it and run code, but cannot change its files.")
                              .arg(QDir::toNativeSeparators(m_controller->workspace())));
    return true;
}

} // namespace Sandcastle
