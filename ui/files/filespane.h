#pragma once

#include "filepreview.h"

#include <base/result.h>

#include <QFutureWatcher>
#include <QWidget>

class QLabel;
class QScrollArea;
class QStackedWidget;
class QStandardItemModel;
class QTimer;
class QTableView;
class QToolButton;
class QTreeView;

namespace Sandcastle {

class CodeEditor;
class ElidedLabel;
class GitStatus;
class QuickOpen;
class WorkspaceModel;

// The workspace browser: the project folder as a tree (WorkspaceModel: read lazily, .gitignore
// respected, git's status of each file), updated as the code writes, the last run's files in
// bold and the agent's last turn's in italic, Ctrl+P to go to a file by a fuzzy match of its
// path (QuickOpen), and a preview of the selected file under it (images, CSV/TSV as a table,
// text and code highlighted), loaded off the UI thread. Every read goes through PathGuard, so
// a symlink the code planted shows an error, never the file it points to.
class FilesPane : public QWidget
{
    Q_OBJECT
public:
    explicit FilesPane(QWidget *parent = nullptr);

    void setRoot(const QString &path);
    QString root() const { return m_root; }
    WorkspaceModel *model() const { return m_model; }
    QTreeView *view() const { return m_view; }
    // Marks the last run's files and selects the first, which shows its preview; git's marks
    // are read again.
    void highlight(const QStringList &relativePaths);
    // Marks what the agent changed in the last turn (kept until the next call); git's marks are
    // read again.
    void markTurnChanges(const QStringList &relativePaths);
    // Ignored files grey (the default) or left out; remembered in the settings.
    void setShowIgnored(bool show);
    bool showIgnored() const;
    // View → Show Sandcastle's files: the .sandcastle folder (remembered).
    void setShowInternal(bool show);
    bool showInternal() const;
    // Reads git's status again soon (several asks within a moment make one read).
    void refreshGitStatus();
    // Ctrl+P: the quick open popup over the window.
    void showQuickOpen();
    QuickOpen *quickOpen() const { return m_quickOpen; }
    // Shows the preview of a workspace file (relative path).
    void preview(const QString &relativePath);
    // Writes `text` to a new file of the workspace, `name` or, when that exists, name-2 and so
    // on (through PathGuard), and shows it. Returns the name used, or an error.
    Result<QString> addFile(const QString &name, const QString &text);

    QStackedWidget *previewStack() const { return m_stack; }
    QString previewedFile() const { return m_previewed; }

Q_SIGNALS:
    // Files dragged in from outside (local paths), to copy into the workspace.
    void filesDropped(const QStringList &paths);
    void previewShown(const QString &relativePath, Sandcastle::FilePreview::Kind kind);
    // "Open in editor" on a file: the window reads it (through PathGuard) into an editor tab.
    void openInEditorRequested(const QString &relativePath);
    // git's status of the root was read and is shown (also when it is not a repository).
    void gitStatusShown();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void showPreview(const FilePreview &preview);
    // The image, table and text pages of the preview are made when first shown (the text page
    // is a second Scintilla editor: not made at start-up for a preview that may never come).
    QScrollArea *imagePage();
    QTableView *tablePage();
    CodeEditor *textPage();
    void fitImage();
    void showMenu(const QPoint &position);
    QString relativeOf(const QModelIndex &index) const;
    void openExternally(const QString &relative);
    void saveCopy(const QString &relative);

    QString m_root;
    QString m_previewed;
    // Shown before the model had read it in: made current once it has (so that the view's own
    // choice of a first current row, when it gets the focus, does not replace it).
    QString m_pendingCurrent;
    void applyPendingCurrent();
    void chooseFile(const QString &relative);
    void setUpTree();
    void setUpGitMarks();
    ElidedLabel *m_title = nullptr;
    QToolButton *m_ignoredButton = nullptr;
    WorkspaceModel *m_model = nullptr;
    GitStatus *m_git = nullptr;
    QTimer *m_gitTimer = nullptr;
    QuickOpen *m_quickOpen = nullptr;
    QTreeView *m_view = nullptr;
    QStackedWidget *m_stack = nullptr;
    QLabel *m_message = nullptr;
    QScrollArea *m_imageArea = nullptr;
    QLabel *m_image = nullptr;
    QImage m_shownImage;
    QTableView *m_table = nullptr;
    CodeEditor *m_text = nullptr;
    QLabel *m_note = nullptr;
    QFutureWatcher<FilePreview> m_loader;
    quint64 m_generation = 0;
};

} // namespace Sandcastle
