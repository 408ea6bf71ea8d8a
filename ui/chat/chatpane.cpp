#include "chatpane.h"

#include "markdowntable.h"
#include "promptedit.h"
#include "textviewer.h"
#include "thumbnails.h"
#include "transcriptdelegate.h"
#include "transcriptmodel.h"
#include <ui/icons.h>
#include <ui/widgets/findbox.h>

#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QListView>
#include <QMenu>
#include <QMimeData>
#include <QPushButton>
#include <QScrollBar>
#include <QShortcut>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

namespace Sandcastle {

ChatPane::ChatPane(QWidget *parent)
    : QWidget(parent)
    , m_model(new TranscriptModel(this))
    , m_view(new QListView(this))
    , m_prompt(new PromptEdit(this))
    , m_sendButton(new QPushButton(tr("Send"), this))
{
    setUpTranscript();
    setUpInput();
}

void ChatPane::setUpTranscript()
{
    m_view->setObjectName(QStringLiteral("transcript"));
    m_delegate = new TranscriptDelegate(m_view);
    m_thumbnails = new Thumbnails(this);
    m_delegate->setThumbnails(m_thumbnails);
    connect(m_delegate, &TranscriptDelegate::imageActivated, this, &ChatPane::imageActivated);
    m_view->setModel(m_model);
    m_view->setItemDelegate(m_delegate);
    m_view->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_view->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_view->setResizeMode(QListView::Adjust);
    m_view->setUniformItemSizes(false);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->verticalScrollBar()->setSingleStep(m_view->fontMetrics().height() * 2);
    connect(m_model, &QAbstractItemModel::modelReset, m_delegate, &TranscriptDelegate::clearCache);
    // Follow the conversation while the person is at its end; leave them where they are once
    // they scroll up to read.
    QScrollBar *bar = m_view->verticalScrollBar();
    connect(bar, &QScrollBar::rangeChanged, this, [this, bar](int, int max) {
        if (m_stickToBottom)
            bar->setValue(max);
    });
    connect(bar, &QScrollBar::valueChanged, this, [this, bar](int value) {
        m_stickToBottom = value >= bar->maximum() - 4;
    });
    connect(m_view, &QListView::customContextMenuRequested, this, &ChatPane::showContextMenu);
    connect(m_delegate, &TranscriptDelegate::retryRequested, this, [this] {
        if (!m_busy)
            Q_EMIT retryRequested();
    });
    connect(m_delegate, &TranscriptDelegate::openInEditorRequested, this, &ChatPane::openInEditor);
    connect(m_delegate, &TranscriptDelegate::linkActivated, this, [](const QString &link) {
        // Web links only: a link in the model's text never opens a file or a program.
        const QUrl url(link);
        if (url.scheme() == QLatin1String("https") || url.scheme() == QLatin1String("http"))
            QDesktopServices::openUrl(url);
    });
    connect(m_delegate, &TranscriptDelegate::openAsTextRequested, this, &ChatPane::openAsText);
    // A checkpoint's badge opens its review: a click on it, or Enter on it.
    const auto openCheckpoint = [this](const QModelIndex &index) {
        const int number = index.data(TranscriptModel::CheckpointRole).toInt();
        if (number > 0)
            Q_EMIT checkpointActivated(number);
    };
    connect(m_delegate, &TranscriptDelegate::rowClicked, this, openCheckpoint);
    connect(m_view, &QListView::activated, this, openCheckpoint);
    connect(m_delegate, &TranscriptDelegate::saveAsRequested, this, [this](const QModelIndex &i) {
        TextViewer::saveAs(this, i.data(TranscriptModel::TextRole).toString(), suggestedName(i));
    });
    connect(m_delegate,
            &TranscriptDelegate::openTableAsCsvRequested,
            this,
            [this](const QModelIndex &index, qsizetype tableStart) {
                const QString csv = MarkdownTable::toCsv(
                    index.data(TranscriptModel::TextRole).toString(), tableStart);
                if (!csv.isEmpty())
                    Q_EMIT tableAsCsvRequested(csv);
            });
    // Ctrl+C is the transcript's own while it has the focus (as a text field's is): the
    // window's Edit → Copy would otherwise be an ambiguous second owner of the key.
    m_view->installEventFilter(this);
    auto *toggle = new QShortcut(Qt::Key_Space, m_view, nullptr, nullptr, Qt::WidgetShortcut);
    connect(toggle, &QShortcut::activated, this, [this] {
        m_model->toggleExpanded(m_view->currentIndex().row());
    });
}

// The prompt with its Send button, which stops the agent while it works.
void ChatPane::setUpInput()
{
    m_prompt->setObjectName(QStringLiteral("prompt"));
    m_prompt->setMaximumHeight(m_prompt->fontMetrics().lineSpacing() * 5);
    m_sendButton->setObjectName(QStringLiteral("sendButton"));
    m_sendButton->setIcon(actionIcon("send"));

    auto *inputRow = new QHBoxLayout;
    inputRow->addWidget(m_prompt, 1);
    inputRow->addWidget(m_sendButton, 0, Qt::AlignBottom);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_view, 1);
    layout->addLayout(inputRow);

    connect(m_prompt, &PromptEdit::submitted, this, [this](const QString &text) {
        if (m_busy)
            return;
        m_prompt->remember(text);
        Q_EMIT promptSubmitted(text);
    });
    // While the agent works, the button stops it; its menu offers the gentler stops.
    auto *stopMenu = new QMenu(m_sendButton);
    stopMenu->addAction(tr("Stop everything"), this, &ChatPane::stopRequested)
        ->setIcon(actionIcon("stop"));
    stopMenu
        ->addAction(tr("Stop only the running code (the agent goes on)"),
                    this,
                    &ChatPane::stopCodeRequested)
        ->setIcon(actionIcon("stop-code"));
    stopMenu->addAction(tr("Stop after this step"), this, &ChatPane::stopAfterStepRequested)
        ->setIcon(actionIcon("stop-step"));
    m_stopOptions = new QToolButton(this);
    m_stopOptions->setObjectName(QStringLiteral("stopOptions"));
    m_stopOptions->setToolTip(tr("Other ways to stop"));
    m_stopOptions->setMenu(stopMenu);
    m_stopOptions->setPopupMode(QToolButton::InstantPopup);
    m_stopOptions->setArrowType(Qt::DownArrow);
    m_stopOptions->hide();
    inputRow->addWidget(m_stopOptions, 0, Qt::AlignBottom);
    setAcceptDrops(true);
    connect(m_sendButton, &QPushButton::clicked, this, [this] {
        if (m_busy) {
            Q_EMIT stopRequested();
            return;
        }
        const QString text = m_prompt->toPlainText().trimmed();
        if (!text.isEmpty()) {
            m_prompt->remember(text);
            Q_EMIT promptSubmitted(text);
        }
    });
    setFocusProxy(m_prompt);
}

QString ChatPane::transcriptText() const
{
    return m_model->plainText();
}

void ChatPane::addUserMessage(const QString &text)
{
    m_stickToBottom = true; // a new request: follow it
    m_model->addUserMessage(text);
}

void ChatPane::appendAssistantText(const QString &delta)
{
    m_model->appendAssistantText(delta);
}

void ChatPane::appendReasoning(const QString &delta)
{
    m_model->appendReasoning(delta);
}

void ChatPane::addToolCall(const QString &callId, const QString &name, const QString &arguments)
{
    m_model->addToolCall(callId, name, TranscriptModel::toolDetail(name, arguments));
}

void ChatPane::addToolResult(const QString &callId,
                             const QString &status,
                             int exitCode,
                             qint64 durationMs,
                             const QStringList &files)
{
    m_thumbnails->forget(files); // a file written again is read again
    m_model->setToolResult(callId, status, exitCode, durationMs, files);
}

void ChatPane::setWorkspace(const QString &root)
{
    m_thumbnails->setRoot(root);
    m_view->viewport()->update();
}

void ChatPane::addError(const QString &message, bool retryable)
{
    m_model->addError(message, retryable);
}

void ChatPane::addNotice(const QString &message)
{
    m_model->addNotice(message);
}

void ChatPane::addCheckpoint(int number, int turn, const QString &text)
{
    m_model->addCheckpoint(number, turn, text);
}

void ChatPane::endAssistantMessage()
{
    m_model->endAssistantMessage();
}

void ChatPane::openInEditor(const QModelIndex &index)
{
    if (!index.isValid()
        || index.data(TranscriptModel::KindRole).value<TranscriptModel::Kind>()
               != TranscriptModel::Kind::Tool)
        return;
    Q_EMIT openInEditorRequested(index.data(TranscriptModel::CallIdRole).toString(),
                                 index.data(TranscriptModel::ToolNameRole).toString(),
                                 index.data(TranscriptModel::TextRole).toString());
}

bool ChatPane::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_view
        && (event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress)) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->matches(QKeySequence::Copy)) {
            event->accept();
            if (event->type() == QEvent::KeyPress)
                copyCurrent();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void ChatPane::showFind()
{
    if (!m_findBox) {
        m_findBox = new FindBox(
            m_view, [this](const QString &text, bool backwards) { return find(text, backwards); });
        m_findBox->setObjectName(QStringLiteral("chatFind"));
    }
    m_findBox->start();
}

bool ChatPane::find(const QString &text, bool backwards)
{
    const int rows = m_model->rowCount();
    if (text.isEmpty() || rows == 0)
        return false;
    const int current
        = m_view->currentIndex().isValid() ? m_view->currentIndex().row() : (backwards ? rows : -1);
    for (int step = 1; step <= rows; ++step) {
        const int row = ((current + (backwards ? -step : step)) % rows + rows) % rows;
        const QModelIndex index = m_model->index(row, 0);
        if (index.data(TranscriptModel::TextRole).toString().contains(text, Qt::CaseInsensitive)) {
            m_view->setCurrentIndex(index);
            m_view->scrollTo(index, QAbstractItemView::PositionAtCenter);
            return true;
        }
    }
    return false;
}

void ChatPane::copyCurrent()
{
    const QModelIndex index = m_view->currentIndex();
    if (index.isValid())
        QApplication::clipboard()->setText(index.data(TranscriptModel::TextRole).toString());
}

QString ChatPane::suggestedName(const QModelIndex &index)
{
    const auto kind = index.data(TranscriptModel::KindRole).value<TranscriptModel::Kind>();
    if (kind == TranscriptModel::Kind::Assistant)
        return QStringLiteral("answer.md");
    if (kind == TranscriptModel::Kind::Tool)
        return TranscriptModel::runsCode(index.data(TranscriptModel::ToolNameRole).toString())
                   ? QStringLiteral("code.py")
                   : QStringLiteral("arguments.txt");
    return QStringLiteral("message.txt");
}

void ChatPane::openAsText(const QModelIndex &index)
{
    if (!index.isValid())
        return;
    auto *viewer = new TextViewer(tr("Sandcastle — %1").arg(suggestedName(index)),
                                  index.data(TranscriptModel::TextRole).toString(),
                                  this);
    viewer->show();
}

void ChatPane::showContextMenu(const QPoint &pos)
{
    const QModelIndex index = m_view->indexAt(pos);
    if (!index.isValid())
        return;
    m_view->setCurrentIndex(index);
    const auto kind = index.data(TranscriptModel::KindRole).value<TranscriptModel::Kind>();
    QMenu menu(this);
    menu.addAction(kind == TranscriptModel::Kind::Tool ? tr("Copy code") : tr("Copy"),
                   this,
                   &ChatPane::copyCurrent);
    menu.addAction(
        tr("Copy all"), this, [this] { QApplication::clipboard()->setText(m_model->plainText()); });
    menu.addAction(tr("Open as text"), this, [this, index] { openAsText(index); });
    if (kind == TranscriptModel::Kind::Tool) {
        const QString tool = index.data(TranscriptModel::ToolNameRole).toString();
        if (TranscriptModel::runsCode(tool))
            menu.addAction(tr("Open in editor"), this, [this, index] { openInEditor(index); });
        const bool expanded = index.data(TranscriptModel::ExpandedRole).toBool();
        menu.addAction(expanded ? tr("Collapse") : tr("Expand"), this, [this, index] {
            m_model->toggleExpanded(index.row());
        });
    }
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

void ChatPane::setBusy(bool busy)
{
    m_busy = busy;
    m_sendButton->setText(busy ? tr("Stop") : tr("Send"));
    m_sendButton->setIcon(actionIcon(busy ? "stop" : "send"));
    m_stopOptions->setVisible(busy);
}

void ChatPane::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void ChatPane::dropEvent(QDropEvent *event)
{
    QStringList paths;
    const QList<QUrl> urls = event->mimeData()->urls();
    for (const QUrl &url : urls) {
        if (url.isLocalFile())
            paths << url.toLocalFile();
    }
    if (paths.isEmpty())
        return;
    event->acceptProposedAction();
    Q_EMIT filesDropped(paths);
}

void ChatPane::clearPrompt()
{
    m_prompt->clear();
}

void ChatPane::insertPanel(QWidget *panel)
{
    if (auto *box = qobject_cast<QVBoxLayout *>(layout()))
        box->insertWidget(0, panel);
}

void ChatPane::clearTranscript()
{
    m_model->clear();
    m_stickToBottom = true;
}

void ChatPane::showHistory(const nlohmann::json &messages)
{
    m_stickToBottom = true;
    m_model->loadHistory(messages);
}

} // namespace Sandcastle
