#include "commandpalette.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLineEdit>
#include <QListWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace Sandcastle {

QString CommandPalette::label(const QAction *action)
{
    QString text = action->text();
    text.replace(QStringLiteral("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    text.replace(QStringLiteral("\x01"), QStringLiteral("&"));
    if (text.endsWith(QStringLiteral("…")))
        text.chop(1);
    return text;
}

bool CommandPalette::matches(const QString &label, const QString &filter)
{
    const QStringList words = filter.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (const QString &word : words) {
        if (!label.contains(word, Qt::CaseInsensitive))
            return false;
    }
    return true;
}

CommandPalette::CommandPalette(const QList<QAction *> &actions, QWidget *parent)
    : QDialog(parent)
    , m_actions(actions)
    , m_filter(new QLineEdit(this))
    , m_list(new QListWidget(this))
{
    setObjectName(QStringLiteral("commandPalette"));
    setWindowTitle(tr("Commands"));
    m_filter->setObjectName(QStringLiteral("commandFilter"));
    m_filter->setPlaceholderText(tr("Type a command"));
    m_list->setObjectName(QStringLiteral("commandList"));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_filter);
    layout->addWidget(m_list, 1);
    resize(480, 360);
    connect(m_filter, &QLineEdit::textChanged, this, &CommandPalette::refilter);
    connect(m_filter, &QLineEdit::returnPressed, this, &CommandPalette::runCurrent);
    connect(m_list, &QListWidget::itemActivated, this, &CommandPalette::runCurrent);
    // Up and Down in the filter box move through the list.
    auto *down = new QAction(this);
    down->setShortcut(QKeySequence(Qt::Key_Down));
    connect(down, &QAction::triggered, this, [this] {
        m_list->setCurrentRow(qMin(m_list->currentRow() + 1, m_list->count() - 1));
    });
    auto *up = new QAction(this);
    up->setShortcut(QKeySequence(Qt::Key_Up));
    connect(up, &QAction::triggered, this, [this] {
        m_list->setCurrentRow(qMax(m_list->currentRow() - 1, 0));
    });
    m_filter->addActions({down, up});
    refilter();
}

void CommandPalette::refilter()
{
    m_list->clear();
    for (QAction *action : std::as_const(m_actions)) {
        const QString text = label(action);
        if (text.isEmpty() || !action->isEnabled() || !matches(text, m_filter->text()))
            continue;
        auto *item
            = new QListWidgetItem(action->shortcut().isEmpty()
                                      ? text
                                      : text + QStringLiteral("    ")
                                            + action->shortcut().toString(QKeySequence::NativeText),
                                  m_list);
        item->setData(Qt::UserRole, QVariant::fromValue(static_cast<QObject *>(action)));
    }
    m_list->setCurrentRow(0);
}

void CommandPalette::runCurrent()
{
    QListWidgetItem *item = m_list->currentItem();
    if (!item)
        return;
    auto *action = qobject_cast<QAction *>(item->data(Qt::UserRole).value<QObject *>());
    accept();
    if (action)
        action->trigger();
}

ShortcutsDialog::ShortcutsDialog(const QList<QAction *> &actions, QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard shortcuts"));
    auto *table = new QTableWidget(this);
    table->setObjectName(QStringLiteral("shortcutsTable"));
    table->setColumnCount(2);
    table->setHorizontalHeaderLabels({tr("Action"), tr("Shortcut")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (const QAction *action : actions) {
        const QString text = CommandPalette::label(action);
        if (text.isEmpty() || action->shortcut().isEmpty())
            continue;
        const int row = table->rowCount();
        table->insertRow(row);
        table->setItem(row, 0, new QTableWidgetItem(text));
        table->setItem(
            row, 1, new QTableWidgetItem(action->shortcut().toString(QKeySequence::NativeText)));
    }
    // Keys that are not menu actions.
    const QList<QPair<QString, QKeySequence>> more{
        {tr("Send the prompt"), QKeySequence(Qt::Key_Return)},
        {tr("New line in the prompt"), QKeySequence(Qt::SHIFT | Qt::Key_Return)},
        {tr("Earlier prompts"), QKeySequence(Qt::Key_Up)},
        {tr("Run the editor's code"), QKeySequence(Qt::CTRL | Qt::Key_Return)},
        {tr("Run the selection or line"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Return)},
        {tr("Rename the conversation"), QKeySequence(Qt::Key_F2)},
    };
    for (const auto &[text, keys] : more) {
        const int row = table->rowCount();
        table->insertRow(row);
        table->setItem(row, 0, new QTableWidgetItem(text));
        table->setItem(row, 1, new QTableWidgetItem(keys.toString(QKeySequence::NativeText)));
    }
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    table->resizeColumnToContents(1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(table, 1);
    layout->addWidget(buttons);
    resize(520, 440);
}

} // namespace Sandcastle
