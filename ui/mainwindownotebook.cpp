// The window's part for Jupyter notebooks: File → Open Notebook… puts a notebook's code cells
// in editor tabs and its Markdown in the chat for the agent, Run → Run All Cells runs the cells
// one after another in the conversation's kernel, File → Export conversation as Notebook…
// writes the conversation as an .ipynb. (Split from mainwindow.cpp.)
#include "mainwindow.h"

#include "chat/chatpane.h"
#include "editor/editorpane.h"
#include "icons.h"
#include "statusline.h"

#include <app/controller/cellqueue.h>
#include <app/controller/conversationcontroller.h>
#include <app/notebook/notebookexport.h>
#include <app/notebook/notebookreader.h>

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>
#include <QStatusBar>

namespace Sandcastle {

namespace {
const QString LastNotebookFolderKey = QStringLiteral("window/lastNotebookFolder");
} // namespace

void MainWindow::addNotebookActions(QMenu *file)
{
    m_cellQueue = new CellQueue(m_controller, this);
    QAction *open = file->addAction(tr("Open No&tebook…"), this, &MainWindow::chooseNotebook);
    open->setObjectName(QStringLiteral("openNotebook"));
    open->setIcon(actionIcon("open"));
    m_exportNotebook = file->addAction(tr("Export conversation as a Note&book…"), this, [this] {
        exportNotebookRequested(conversationId());
    });
    m_exportNotebook->setObjectName(QStringLiteral("exportNotebook"));
    m_exportNotebook->setIcon(actionIcon("export"));
    // Put in the Run menu by buildRunMenu().
    m_runAllCells = new QAction(actionIcon("run"), tr("Run &All Cells"), this);
    m_runAllCells->setObjectName(QStringLiteral("runAllCells"));
    m_runAllCells->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
    m_runAllCells->setToolTip(tr("Run the opened notebook's cells one after another"));
    m_runAllCells->setEnabled(false);
    connect(m_runAllCells, &QAction::triggered, this, &MainWindow::runAllCells);
    connect(m_cellQueue, &CellQueue::cellStarted, this, [this](int index) {
        const QString callId = m_queuedCells.value(index);
        bool found = false;
        const QString code = m_editorPane->codeOf(callId, &found);
        if (found) // its tab to the front, as it is
            m_editorPane->openCode(callId, QString(), code, QString());
        m_status->refresh();
    });
    connect(m_cellQueue, &CellQueue::finished, this, [this](bool ok, int, const QString &message) {
        m_queuedCells.clear();
        if (!ok)
            m_chat->addError(message);
        statusBar()->showMessage(message, 8000);
        m_status->refresh();
    });
    // Another conversation: the editor's tabs are gone, and the cells with them.
    connect(m_controller, &ConversationController::conversationSwitched, this, [this] {
        m_openedCells.clear();
        m_runAllCells->setEnabled(false);
    });
}

void MainWindow::chooseNotebook()
{
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(
        this,
        tr("Open a Jupyter notebook"),
        settings.value(LastNotebookFolderKey, QDir::homePath()).toString(),
        tr("Jupyter notebooks (*.ipynb);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(LastNotebookFolderKey, QFileInfo(path).absolutePath());
    openNotebook(path);
}

bool MainWindow::openNotebook(const QString &path)
{
    const QString name = QFileInfo(path).fileName();
    if (m_cellQueue->isRunning()) {
        statusBar()->showMessage(tr("Wait until Run All Cells has finished."), 5000);
        return false;
    }
    const Result<NotebookReader::Notebook> read = NotebookReader::read(path);
    if (!read) {
        m_chat->addError(tr("Could not open the notebook %1: %2").arg(name, read.error()));
        return false;
    }
    const NotebookReader::Notebook &notebook = read.value();
    if (notebook.cells.isEmpty()) {
        m_chat->addError(tr("The notebook %1 has no code or Markdown cells.").arg(name));
        return false;
    }
    ++m_notebooks;
    m_openedCells.clear();
    for (const NotebookReader::Cell &cell : notebook.cells) {
        if (cell.kind != NotebookReader::Cell::Kind::Code)
            continue;
        const OpenedCell opened{
            QStringLiteral("notebook%1-cell%2").arg(m_notebooks).arg(cell.number),
            tr("Cell %1").arg(cell.number),
            cell.shell};
        m_editorPane->openCode(opened.callId,
                               opened.name,
                               cell.source,
                               cell.shell ? QStringLiteral("bash") : QStringLiteral("python"));
        m_openedCells << opened;
    }
    if (!m_openedCells.isEmpty()) // the first cell in front
        m_editorPane->openCode(m_openedCells.first().callId, QString(), QString(), QString());
    m_runAllCells->setEnabled(!m_openedCells.isEmpty());
    m_chat->addNotice(
        tr("Opened the notebook %1: %n code cell(s) in the editor (run one with Run, all with "
           "Run → Run All Cells); its Markdown below goes to the agent with your next message.",
           nullptr,
           int(m_openedCells.size()))
            .arg(name));
    // What the agent gets, shown as it is.
    const QString note = NotebookReader::contextNote(name, notebook);
    m_controller->noteForAgent(note);
    m_chat->addNotice(note);
    for (const QString &problem : notebook.notes)
        m_chat->addNotice(problem);
    return true;
}

bool MainWindow::runAllCells()
{
    QList<CellQueue::Cell> cells;
    QStringList callIds;
    for (const OpenedCell &cell : std::as_const(m_openedCells)) {
        bool found = false;
        const QString code = m_editorPane->codeOf(cell.callId, &found);
        if (!found || code.trimmed().isEmpty())
            continue; // its tab was closed, or emptied: left out
        cells << CellQueue::Cell{code, cell.shell, cell.name};
        callIds << cell.callId;
    }
    if (cells.isEmpty()) {
        statusBar()->showMessage(
            tr("No notebook cells to run: open a notebook first (File → Open Notebook…)."), 8000);
        return false;
    }
    if (m_controller->isBusy() || m_cellQueue->isRunning()) {
        statusBar()->showMessage(tr("Wait until the agent or the run has finished."), 5000);
        return false;
    }
    m_controller->ensureSaved(tr("Notebook cells"));
    m_queuedCells = callIds;
    if (!m_cellQueue->start(cells, m_editorPane->tellsAgent())) {
        m_queuedCells.clear();
        return false;
    }
    return true;
}

void MainWindow::exportNotebookRequested(const QString &id)
{
    const QString path = QFileDialog::getSaveFileName(this,
                                                      tr("Export as a Jupyter notebook"),
                                                      QDir::homePath() + QLatin1Char('/') + id
                                                          + QStringLiteral(".ipynb"),
                                                      tr("Jupyter notebooks (*.ipynb)"));
    if (!path.isEmpty())
        exportNotebook(id, path);
}

bool MainWindow::exportNotebook(const QString &id, const QString &path)
{
    const Result<bool> written = NotebookExport::writeNotebook(*m_controller->store(), id, path);
    if (!written) {
        m_chat->addError(tr("Could not export the conversation: %1").arg(written.error()));
        return false;
    }
    statusBar()->showMessage(tr("Exported to %1").arg(QDir::toNativeSeparators(path)), 8000);
    return true;
}

} // namespace Sandcastle
