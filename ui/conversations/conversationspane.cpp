#include "conversationspane.h"
#include <ui/widgets/clearbutton.h>

#include "conversationlistmodel.h"
#include <ui/icons.h>

#include <QAction>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenu>
#include <QMessageBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace Sandcastle {

ConversationsPane::ConversationsPane(ConversationListModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_search(new QLineEdit(this))
    , m_view(new QListView(this))
    , m_folders(new QComboBox(this))
{
    m_folders->setObjectName(QStringLiteral("folderFilter"));
    m_folders->setToolTip(tr("Show the conversations of one folder"));
    m_folders->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_folders->setMinimumContentsLength(12);
    m_search->setObjectName(QStringLiteral("conversationSearch"));
    m_search->setPlaceholderText(tr("Search conversations"));
    enableClearButtonWhenTyped(m_search);
    m_view->setObjectName(QStringLiteral("conversationList"));
    m_view->setModel(model);
    m_view->setEditTriggers(QAbstractItemView::EditKeyPressed);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setWordWrap(true);
    m_view->setUniformItemSizes(false);
    // Titles wrap, so each row is measured: a thousand of them laid out before the first frame
    // doubled the window's start-up; in batches the first screenful shows at once.
    m_view->setLayoutMode(QListView::Batched);
    m_view->setBatchSize(50);

    auto *newButton = new QToolButton(this);
    newButton->setObjectName(QStringLiteral("newConversationButton"));
    newButton->setText(tr("New"));
    newButton->setIcon(actionIcon("new"));
    newButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    newButton->setToolTip(tr("New conversation (Ctrl+N)"));
    auto *header = new QHBoxLayout;
    header->addWidget(new QLabel(tr("Conversations"), this), 1);
    header->addWidget(newButton);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(header);
    layout->addWidget(m_search);
    layout->addWidget(m_folders);
    layout->addWidget(m_view, 1);

    connect(newButton, &QToolButton::clicked, this, &ConversationsPane::newRequested);
    connect(m_search, &QLineEdit::textChanged, m_model, &ConversationListModel::setFilter);
    connect(m_view, &QListView::activated, this, [this](const QModelIndex &index) {
        Q_EMIT openRequested(index.data(ConversationListModel::IdRole).toString());
    });
    connect(m_view, &QListView::clicked, this, [this](const QModelIndex &index) {
        Q_EMIT openRequested(index.data(ConversationListModel::IdRole).toString());
    });
    connect(m_view, &QListView::customContextMenuRequested, this, &ConversationsPane::showMenu);
    connect(m_folders, &QComboBox::activated, this, [this] {
        m_model->setFolderFilter(m_folders->currentData().toString());
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, &ConversationsPane::refreshFolders);
    refreshFolders();

    auto *remove = new QAction(tr("Delete…"), m_view);
    remove->setShortcut(QKeySequence::Delete);
    remove->setShortcutContext(Qt::WidgetShortcut);
    connect(remove, &QAction::triggered, this, [this] {
        const QString id = m_view->currentIndex().data(ConversationListModel::IdRole).toString();
        if (!id.isEmpty())
            confirmDelete(id);
    });
    m_view->addAction(remove);
}

void ConversationsPane::refreshFolders()
{
    const QStringList folders = m_model->folders();
    const QString chosen = m_model->folderFilter();
    if (!chosen.isEmpty() && !folders.contains(chosen)) {
        m_model->setFolderFilter(QString()); // its conversations are gone: all again
        return;
    }
    m_folders->clear();
    m_folders->addItem(tr("All folders"), QString());
    for (const QString &folder : folders) {
        m_folders->addItem(QFileInfo(folder).fileName(), folder);
        m_folders->setItemData(m_folders->count() - 1, folder, Qt::ToolTipRole);
    }
    m_folders->setCurrentIndex(std::max(0, int(m_folders->findData(chosen))));
    m_folders->setVisible(!folders.isEmpty());
}

void ConversationsPane::setCurrent(const QString &conversationId)
{
    const int row = m_model->rowOf(conversationId);
    if (row >= 0)
        m_view->setCurrentIndex(m_model->index(row));
    else
        m_view->clearSelection();
}

void ConversationsPane::confirmDelete(const QString &conversationId)
{
    const int row = m_model->rowOf(conversationId);
    const QString title
        = row >= 0 ? m_model->index(row).data(Qt::EditRole).toString() : conversationId;
    QMessageBox box(
        QMessageBox::Warning,
        tr("Delete conversation"),
        tr("Delete “%1”, its workspace files and its sandbox? This cannot be undone.").arg(title),
        QMessageBox::Yes | QMessageBox::Cancel,
        this);
    box.setObjectName(QStringLiteral("confirmDelete"));
    box.setDefaultButton(QMessageBox::Cancel);
    if (box.exec() == QMessageBox::Yes)
        Q_EMIT deleteRequested(conversationId);
}

void ConversationsPane::showMenu(const QPoint &position)
{
    const QModelIndex index = m_view->indexAt(position);
    if (!index.isValid())
        return;
    const QString id = index.data(ConversationListModel::IdRole).toString();
    QMenu menu(this);
    menu.addAction(tr("Open"), this, [this, id] { Q_EMIT openRequested(id); });
    menu.addAction(
        actionIcon("rename"), tr("Rename"), this, [this, index] { m_view->edit(index); });
    menu.addSeparator();
    menu.addAction(actionIcon("export"), tr("Export as Markdown…"), this, [this, id] {
        Q_EMIT exportRequested(id, false);
    });
    menu.addAction(actionIcon("export"), tr("Export as a folder that re-runs…"), this, [this, id] {
        Q_EMIT exportRequested(id, true);
    });
    menu.addSeparator();
    menu.addAction(actionIcon("delete"), tr("Delete…"), this, [this, id] { confirmDelete(id); });
    menu.exec(m_view->viewport()->mapToGlobal(position));
}

} // namespace Sandcastle
