#include "filespane.h"

#include "quickopen.h"
#include "workspacemodel.h"
#include <ui/icons.h>

#include <app/agent/filetools.h>
#include <app/gitstatus.h>
#include <base/jsonfields.h>
#include <sandbox/blockingjobs.h>
#include <sandbox/pathguard.h>
#include <ui/editor/codeeditor.h>
#include <ui/widgets/elidedlabel.h>

#include <QDesktopServices>
#include <QDir>
#include <QDropEvent>
#include <QFileDialog>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMimeData>
#include <QSaveFile>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QTableView>
#include <QThreadPool>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <fcntl.h>
#include <unistd.h>

namespace Sandcastle {

namespace {

const QString ShowIgnoredKey = QStringLiteral("files/showIgnored");
const QString ShowInternalKey = QStringLiteral("files/showInternal");

} // namespace

FilesPane::FilesPane(QWidget *parent)
    : QWidget(parent)
    , m_title(new ElidedLabel(tr("Files"), this))
    , m_ignoredButton(new QToolButton(this))
    , m_model(new WorkspaceModel(this))
    , m_git(new GitStatus(this))
    , m_gitTimer(new QTimer(this))
    , m_view(new QTreeView(this))
    , m_stack(new QStackedWidget(this))
    , m_message(new QLabel(m_stack))
    , m_note(new QLabel(this))
{
    setUpTree();

    m_message->setObjectName(QStringLiteral("previewMessage"));
    m_message->setWordWrap(true);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_note->setObjectName(QStringLiteral("previewNote"));
    m_note->setWordWrap(true);
    m_note->hide();
    m_stack->installEventFilter(this);
    m_stack->addWidget(m_message);

    auto *previewArea = new QWidget(this);
    auto *previewLayout = new QVBoxLayout(previewArea);
    previewLayout->setContentsMargins(0, 0, 0, 0);
    previewLayout->addWidget(m_stack, 1);
    previewLayout->addWidget(m_note);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_view);
    split->addWidget(previewArea);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto *titleRow = new QHBoxLayout;
    titleRow->setContentsMargins(0, 0, 0, 0);
    m_title->setObjectName(QStringLiteral("filesTitle"));
    titleRow->addWidget(m_title, 1);
    titleRow->addWidget(m_ignoredButton);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(titleRow);
    layout->addWidget(split, 1);

    setUpGitMarks();

    connect(m_view->selectionModel(),
            &QItemSelectionModel::currentChanged,
            this,
            [this](const QModelIndex &current) {
                if (current.isValid() && !m_model->isDir(current))
                    preview(relativeOf(current));
            });
    connect(m_view, &QTreeView::activated, this, [this](const QModelIndex &index) {
        if (!m_model->isDir(index))
            openExternally(relativeOf(index));
    });
    connect(m_view, &QTreeView::customContextMenuRequested, this, &FilesPane::showMenu);
    connect(m_model, &WorkspaceModel::directoryLoaded, this, &FilesPane::applyPendingCurrent);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &FilesPane::applyPendingCurrent);
    connect(&m_loader, &QFutureWatcher<FilePreview>::finished, this, [this] {
        showPreview(m_loader.result());
    });
}

void FilesPane::setUpTree()
{
    m_model->setShowIgnored(QSettings().value(ShowIgnoredKey, true).toBool());
    m_model->setShowInternal(QSettings().value(ShowInternalKey, false).toBool());
    m_view->setObjectName(QStringLiteral("filesView"));
    m_view->setModel(m_model);
    m_view->setHeaderHidden(true);
    m_view->setUniformRowHeights(true); // a hundred thousand rows are laid out without asking each
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(WorkspaceModel::NameColumn, QHeaderView::Stretch);
    m_view->header()->setSectionResizeMode(WorkspaceModel::StatusColumn, QHeaderView::Fixed);
    m_view->header()->resizeSection(WorkspaceModel::StatusColumn,
                                    m_view->fontMetrics().horizontalAdvance(QLatin1Char('M')) * 3);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setDragEnabled(true);
    m_view->setDragDropMode(QAbstractItemView::DragOnly);
    m_view->setAcceptDrops(true);
    m_view->viewport()->setAcceptDrops(true);
    m_view->viewport()->installEventFilter(this);
    m_ignoredButton->setObjectName(QStringLiteral("showIgnoredFiles"));
    m_ignoredButton->setIcon(actionIcon("show-ignored"));
    m_ignoredButton->setAutoRaise(true);
    m_ignoredButton->setCheckable(true);
    m_ignoredButton->setChecked(m_model->showIgnored());
    m_ignoredButton->setToolTip(tr("Show ignored files (grey), or hide them"));
    connect(m_ignoredButton, &QToolButton::toggled, this, &FilesPane::setShowIgnored);
}

void FilesPane::setUpGitMarks()
{
    // git's marks: read after each run and when the window comes back to the front, a burst
    // of asks making one read.
    m_gitTimer->setSingleShot(true);
    m_gitTimer->setInterval(300);
    connect(m_gitTimer, &QTimer::timeout, this, [this] {
        if (!m_root.isEmpty())
            m_git->refresh(m_root);
    });
    connect(m_git,
            &GitStatus::finished,
            this,
            [this](const QString &folder, const GitStatus::Snapshot &snapshot) {
                if (folder != m_root)
                    return;
                m_model->setGitStatus(snapshot);
                Q_EMIT gitStatusShown();
            });
    connect(
        qApp, &QGuiApplication::applicationStateChanged, this, [this](Qt::ApplicationState state) {
            if (state == Qt::ApplicationActive)
                refreshGitStatus();
        });
}

QString FilesPane::relativeOf(const QModelIndex &index) const
{
    return m_model->relativePath(index);
}

void FilesPane::setRoot(const QString &path)
{
    m_root = path;
    QDir().mkpath(path);
    m_view->setRootIndex(m_model->setRootPath(path));
    refreshGitStatus();
    // Long paths are cut in the middle; the tooltip has the whole.
    m_title->setFullText(QDir::toNativeSeparators(path), tr("Files — "));
    m_previewed.clear();
    m_pendingCurrent.clear();
    m_message->clear();
    m_note->hide();
    m_stack->setCurrentWidget(m_message);
}

void FilesPane::highlight(const QStringList &relativePaths)
{
    m_model->setChangedFiles(relativePaths);
    refreshGitStatus();
    if (relativePaths.isEmpty())
        return;
    const QModelIndex index = m_model->reveal(relativePaths.first());
    if (index.isValid()) {
        m_view->setCurrentIndex(index);
    } else {
        preview(relativePaths.first()); // the model has not seen it yet
        m_pendingCurrent = relativePaths.first();
    }
}

void FilesPane::applyPendingCurrent()
{
    if (m_pendingCurrent.isEmpty())
        return;
    const QModelIndex index = m_model->reveal(m_pendingCurrent);
    if (!index.isValid())
        return;
    const QString path = std::exchange(m_pendingCurrent, QString());
    if (m_view->currentIndex() != index && m_previewed == path)
        m_view->setCurrentIndex(index);
}

void FilesPane::markTurnChanges(const QStringList &relativePaths)
{
    m_model->setTurnChanges(relativePaths);
    refreshGitStatus(); // the turn wrote files: git's marks are read again too
}

void FilesPane::setShowIgnored(bool show)
{
    QSettings().setValue(ShowIgnoredKey, show);
    m_model->setShowIgnored(show);
    const QSignalBlocker quiet(m_ignoredButton);
    m_ignoredButton->setChecked(show);
}

void FilesPane::setShowInternal(bool show)
{
    QSettings().setValue(ShowInternalKey, show);
    m_model->setShowInternal(show);
}

bool FilesPane::showInternal() const
{
    return m_model->showInternal();
}

bool FilesPane::showIgnored() const
{
    return m_model->showIgnored();
}

void FilesPane::refreshGitStatus()
{
    m_gitTimer->start();
}

void FilesPane::showQuickOpen()
{
    if (!m_quickOpen) {
        m_quickOpen = new QuickOpen(this);
        connect(m_quickOpen, &QuickOpen::fileChosen, this, &FilesPane::chooseFile);
    }
    m_quickOpen->open(m_root, this);
}

void FilesPane::chooseFile(const QString &relative)
{
    // Selected in the tree (once the folders on its way are read) and opened in the editor.
    const QModelIndex index = m_model->reveal(relative);
    if (index.isValid()) {
        m_view->setCurrentIndex(index);
    } else {
        preview(relative);
        m_pendingCurrent = relative;
    }
    Q_EMIT openInEditorRequested(relative);
}

Result<QString> FilesPane::addFile(const QString &name, const QString &text)
{
    const QFileInfo info(name);
    QString unique = name;
    for (int n = 2; QFileInfo::exists(QDir(m_root).filePath(unique)); ++n)
        unique = QStringLiteral("%1-%2").arg(info.completeBaseName()).arg(n)
                 + (info.suffix().isEmpty() ? QString() : QLatin1Char('.') + info.suffix());
    const nlohmann::json result = FileTools::writeFile(m_root, unique, text);
    if (jsonString(result, "status") != QLatin1String("ok"))
        return Result<QString>::failure(jsonString(result, "error"));
    // Marked and shown; not made current in the view, which may not have read it in yet.
    m_model->setChangedFiles({unique});
    preview(unique);
    m_pendingCurrent = unique;
    return Result<QString>::ok(unique);
}

void FilesPane::preview(const QString &relativePath)
{
    m_previewed = relativePath;
    m_message->setText(tr("Loading %1…").arg(relativePath));
    m_stack->setCurrentWidget(m_message);
    m_note->hide();
    // Off the UI thread: a large CSV or image must not stall the window.
    m_loader.setFuture(QtConcurrent::run(blockingJobs(), &FilePreview::load, m_root, relativePath));
}

void FilesPane::showPreview(const FilePreview &preview)
{
    switch (preview.kind) {
    case FilePreview::Kind::Image: {
        m_shownImage = preview.image;
        m_stack->setCurrentWidget(imagePage());
        fitImage();
        m_image->setToolTip(
            tr("%1 × %2 pixels").arg(preview.image.width()).arg(preview.image.height()));
        break;
    }
    case FilePreview::Kind::Table: {
        auto *model = static_cast<QStandardItemModel *>(tablePage()->model());
        model->clear();
        model->setHorizontalHeaderLabels(preview.header);
        for (const QStringList &row : preview.rows) {
            QList<QStandardItem *> items;
            items.reserve(row.size());
            for (const QString &field : row)
                items << new QStandardItem(field);
            model->appendRow(items);
        }
        m_stack->setCurrentWidget(tablePage());
        break;
    }
    case FilePreview::Kind::Text: {
        CodeEditor *text = textPage();
        text->setLanguage(preview.language);
        text->setText(preview.text);
        m_stack->setCurrentWidget(text);
        break;
    }
    case FilePreview::Kind::Message:
        m_message->setText(preview.message);
        m_stack->setCurrentWidget(m_message);
        break;
    }
    const bool note = preview.kind != FilePreview::Kind::Message && !preview.message.isEmpty();
    m_note->setText(note ? preview.message : QString());
    m_note->setVisible(note);
    Q_EMIT previewShown(m_previewed, preview.kind);
}

QScrollArea *FilesPane::imagePage()
{
    if (!m_imageArea) {
        m_imageArea = new QScrollArea(m_stack);
        m_image = new QLabel(m_imageArea);
        m_image->setObjectName(QStringLiteral("previewImage"));
        m_image->setAlignment(Qt::AlignCenter);
        m_imageArea->setWidget(m_image);
        m_imageArea->setWidgetResizable(true);
        m_imageArea->setAlignment(Qt::AlignCenter);
        m_stack->addWidget(m_imageArea);
    }
    return m_imageArea;
}

QTableView *FilesPane::tablePage()
{
    if (!m_table) {
        m_table = new QTableView(m_stack);
        m_table->setObjectName(QStringLiteral("previewTable"));
        m_table->setModel(new QStandardItemModel(m_table));
        m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
        m_stack->addWidget(m_table);
    }
    return m_table;
}

CodeEditor *FilesPane::textPage()
{
    if (!m_text) {
        m_text = new CodeEditor(m_stack);
        m_text->setObjectName(QStringLiteral("previewText"));
        m_text->setReadOnly(true);
        m_stack->addWidget(m_text);
    }
    return m_text;
}

void FilesPane::fitImage()
{
    if (m_shownImage.isNull())
        return;
    // Fit the space the preview has (the stack's, which is laid out even before the image
    // page is shown), never enlarged.
    const QSize room = m_stack->size() - QSize(8, 8);
    QPixmap pixmap = QPixmap::fromImage(m_shownImage);
    if (room.isValid() && (pixmap.width() > room.width() || pixmap.height() > room.height()))
        pixmap = pixmap.scaled(room, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    m_image->setPixmap(pixmap);
}

bool FilesPane::eventFilter(QObject *watched, QEvent *event)
{
    // Files dragged in from the desktop are uploaded (the tree's own drags go out only).
    if (watched == m_view->viewport()
        && (event->type() == QEvent::DragEnter || event->type() == QEvent::DragMove
            || event->type() == QEvent::Drop)) {
        auto *drop = static_cast<QDropEvent *>(event);
        if (drop->source() || !drop->mimeData()->hasUrls())
            return false;
        if (event->type() != QEvent::Drop) {
            drop->acceptProposedAction();
            return true;
        }
        QStringList paths;
        const QList<QUrl> urls = drop->mimeData()->urls();
        for (const QUrl &url : urls) {
            if (url.isLocalFile())
                paths << url.toLocalFile();
        }
        drop->acceptProposedAction();
        if (!paths.isEmpty())
            Q_EMIT filesDropped(paths);
        return true;
    }
    // The preview area changes size with the window and with the splitter above it.
    if (watched == m_stack && event->type() == QEvent::Resize
        && m_stack->currentWidget() == m_imageArea)
        fitImage();
    return QWidget::eventFilter(watched, event);
}

void FilesPane::openExternally(const QString &relative)
{
    // The code could have planted a link to ~/.ssh; open only what really is in the workspace.
    const Result<int> fd = PathGuard::openInside(m_root, relative, O_RDONLY | O_NONBLOCK);
    if (!fd) {
        m_message->setText(tr("Not opened: %1").arg(fd.error()));
        m_stack->setCurrentWidget(m_message);
        return;
    }
    ::close(fd.value());
    QDesktopServices::openUrl(QUrl::fromLocalFile(QDir(m_root).filePath(relative)));
}

void FilesPane::saveCopy(const QString &relative)
{
    const QString target = QFileDialog::getSaveFileName(this,
                                                        tr("Save a copy"),
                                                        QDir::homePath() + QLatin1Char('/')
                                                            + QFileInfo(relative).fileName());
    if (target.isEmpty())
        return;
    const Result<int> fd = PathGuard::openInside(m_root, relative, O_RDONLY | O_NONBLOCK);
    QString error = fd ? QString() : fd.error();
    if (fd) {
        QFile in;
        QSaveFile out(target);
        if (!in.open(fd.value(), QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
            ::close(fd.value());
            error = in.errorString();
        } else if (!out.open(QIODevice::WriteOnly)) {
            error = out.errorString();
        } else {
            while (!in.atEnd() && error.isEmpty()) {
                const QByteArray chunk = in.read(1 << 20);
                if (out.write(chunk) != chunk.size())
                    error = out.errorString();
            }
            if (error.isEmpty() && !out.commit())
                error = out.errorString();
        }
    }
    m_note->setText(error.isEmpty() ? tr("Saved a copy as %1").arg(QDir::toNativeSeparators(target))
                                    : tr("Not saved: %1").arg(error));
    m_note->show();
}

void FilesPane::showMenu(const QPoint &position)
{
    const QModelIndex index = m_view->indexAt(position);
    if (!index.isValid())
        return;
    const QString relative = relativeOf(index);
    const bool isDir = m_model->isDir(index);
    QMenu menu(this);
    if (!isDir) {
        menu.addAction(actionIcon("open"),
                       tr("Open with the default application"),
                       this,
                       [this, relative] { openExternally(relative); });
        menu.addAction(actionIcon("edit"), tr("Open in editor"), this, [this, relative] {
            Q_EMIT openInEditorRequested(relative);
        });
        menu.addAction(
            actionIcon("save"), tr("Save a copy…"), this, [this, relative] { saveCopy(relative); });
    }
    menu.addAction(
        actionIcon("folder"), tr("Show in the file manager"), this, [this, relative, isDir] {
            const QString folder = isDir
                                       ? QDir(m_root).filePath(relative)
                                       : QFileInfo(QDir(m_root).filePath(relative)).absolutePath();
            QDesktopServices::openUrl(QUrl::fromLocalFile(folder));
        });
    menu.addSeparator();
    QAction *ignored = menu.addAction(actionIcon("show-ignored"), tr("Show ignored files"));
    ignored->setCheckable(true);
    ignored->setChecked(showIgnored());
    connect(ignored, &QAction::toggled, this, &FilesPane::setShowIgnored);
    menu.exec(m_view->viewport()->mapToGlobal(position));
}

} // namespace Sandcastle
