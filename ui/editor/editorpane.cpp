#include "editorpane.h"

#include "codeeditor.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QShortcut>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace Sandcastle {

EditorPane::EditorPane(QWidget *parent)
    : QWidget(parent)
    , m_editor(new CodeEditor(this))
    , m_diff(new CodeEditor(this))
    , m_stack(new QStackedWidget(this))
    , m_previous(new QToolButton(this))
    , m_next(new QToolButton(this))
    , m_attemptLabel(new QLabel(this))
    , m_diffButton(new QToolButton(this))
    , m_tellAgent(new QCheckBox(tr("Tell the agent"), this))
{
    m_diff->setObjectName(QStringLiteral("diffView"));
    m_diff->setLanguage(QStringLiteral("diff"));
    m_diff->setReadOnly(true);
    m_previous->setObjectName(QStringLiteral("previousAttempt"));
    m_previous->setArrowType(Qt::LeftArrow);
    m_previous->setToolTip(tr("Earlier attempt"));
    m_next->setObjectName(QStringLiteral("nextAttempt"));
    m_next->setArrowType(Qt::RightArrow);
    m_next->setToolTip(tr("Later attempt"));
    m_attemptLabel->setObjectName(QStringLiteral("attemptLabel"));
    m_diffButton->setObjectName(QStringLiteral("diffButton"));
    m_diffButton->setText(tr("Diff"));
    m_diffButton->setCheckable(true);
    m_diffButton->setToolTip(
        tr("Compare with the attempt before, or your edit with the agent's version"));
    m_tellAgent->setObjectName(QStringLiteral("tellAgent"));
    m_tellAgent->setChecked(true);
    m_tellAgent->setToolTip(
        tr("Your runs and edits reach the agent with your next message (as a diff)"));
    auto *run = new QToolButton(this);
    run->setObjectName(QStringLiteral("runButton"));
    run->setText(tr("Run"));
    run->setToolTip(tr("Run the code (Ctrl+Enter); the selection only: Ctrl+Shift+Enter"));

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(m_previous);
    bar->addWidget(m_attemptLabel);
    bar->addWidget(m_next);
    bar->addWidget(m_diffButton);
    bar->addStretch(1);
    bar->addWidget(m_tellAgent);
    bar->addWidget(run);
    m_stack->addWidget(m_editor);
    m_stack->addWidget(m_diff);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(m_stack, 1);

    connect(m_previous, &QToolButton::clicked, this, [this] { showAttempt(m_current - 1); });
    connect(m_next, &QToolButton::clicked, this, [this] { showAttempt(m_current + 1); });
    connect(m_diffButton, &QToolButton::toggled, this, &EditorPane::setDiffShown);
    connect(run, &QToolButton::clicked, this, [this] { Q_EMIT runRequested(m_editor->text()); });
    auto *runShortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this);
    runShortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(runShortcut, &QShortcut::activated, this, [this] {
        Q_EMIT runRequested(m_editor->text());
    });
    auto *runSelection = new QShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Return), this);
    runSelection->setContext(Qt::WidgetWithChildrenShortcut);
    connect(runSelection, &QShortcut::activated, this, [this] {
        QString code = m_editor->selectedText();
        if (code.isEmpty()) { // no selection: the line the cursor is on
            int line = 0;
            int column = 0;
            m_editor->getCursorPosition(&line, &column);
            code = m_editor->text(line);
        }
        Q_EMIT runRequested(code);
    });
    updateBar();
}

void EditorPane::beginSnippet()
{
    m_history.clear();
    m_current = 0;
    setDiffShown(false);
    updateBar();
}

int EditorPane::addAttempt(const QString &code)
{
    const int number = m_history.add(code);
    m_current = number;
    if (m_editor->text() != code)
        m_editor->setText(code);
    updateBar();
    updateDiff();
    return number;
}

void EditorPane::setAttemptStatus(int number, const QString &status)
{
    m_history.setStatus(number, status);
    updateBar();
}

void EditorPane::showAttempt(int number)
{
    if (number < 1 || number > m_history.count() || m_editor->isAgentWriting())
        return;
    m_current = number;
    m_editor->setText(m_history.at(number).code);
    updateBar();
    updateDiff();
}

void EditorPane::setDiffShown(bool shown)
{
    if (m_diffButton->isChecked() != shown) {
        m_diffButton->setChecked(shown); // comes back here through toggled()
        return;
    }
    if (shown)
        updateDiff();
    m_stack->setCurrentWidget(shown ? m_diff : m_editor);
}

bool EditorPane::isDiffShown() const
{
    return m_stack->currentWidget() == m_diff;
}

bool EditorPane::tellsAgent() const
{
    return m_tellAgent->isChecked();
}

QString EditorPane::attemptText() const
{
    return m_attemptLabel->text();
}

void EditorPane::updateBar()
{
    const int count = m_history.count();
    m_previous->setEnabled(m_current > 1);
    m_next->setEnabled(m_current < count);
    m_diffButton->setEnabled(count > 0);
    if (count == 0) {
        m_attemptLabel->setText(tr("Your code"));
        return;
    }
    const QString status = m_history.at(m_current).status;
    m_attemptLabel->setText(
        status.isEmpty() ? tr("Attempt %1 of %2").arg(m_current).arg(count)
                         : tr("Attempt %1 of %2 · %3").arg(m_current).arg(count).arg(status));
}

void EditorPane::updateDiff()
{
    if (m_current < 1)
        return;
    const QString edited = m_editor->text();
    const bool personEdited = edited != m_history.at(m_current).code;
    QString diff = personEdited ? m_history.diffToEdited(m_current, edited)
                                : m_history.diffToPrevious(m_current);
    if (diff.isEmpty())
        diff = tr("# Attempt 1: nothing earlier to compare with.\n");
    m_diff->setText(diff);
}

} // namespace Sandcastle
