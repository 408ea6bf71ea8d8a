#include "editorpane.h"

#include "codeeditor.h"
#include <ui/icons.h>
#include <ui/widgets/findbox.h>

#include <QCheckBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QShortcut>
#include <QStackedWidget>
#include <QTabBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace Sandcastle {

EditorPane::EditorPane(QWidget *parent)
    : QWidget(parent)
    , m_tabs(new QTabBar(this))
    , m_editor(new CodeEditor(this))
    , m_diff(new CodeEditor(this))
    , m_stack(new QStackedWidget(this))
    , m_previous(new QToolButton(this))
    , m_next(new QToolButton(this))
    , m_attemptLabel(new QLabel(this))
    , m_diffButton(new QToolButton(this))
    , m_tellAgent(new QCheckBox(tr("Tell the agent"), this))
{
    QToolButton *run = setUpBar();
    setUpRunning(run);
    setUpTabs();
    reset();
}

// The attempts' arrows, Diff, Tell the agent and Run above the editor; returns Run.
QToolButton *EditorPane::setUpBar()
{
    m_diff->setObjectName(QStringLiteral("diffView"));
    m_diff->setLanguage(QStringLiteral("diff"));
    m_diff->setReadOnly(true);
    m_previous->setObjectName(QStringLiteral("previousAttempt"));
    m_previous->setIcon(actionIcon("previous"));
    m_previous->setToolTip(tr("Earlier attempt"));
    m_next->setObjectName(QStringLiteral("nextAttempt"));
    m_next->setIcon(actionIcon("next"));
    m_next->setToolTip(tr("Later attempt"));
    m_attemptLabel->setObjectName(QStringLiteral("attemptLabel"));
    m_diffButton->setObjectName(QStringLiteral("diffButton"));
    m_diffButton->setText(tr("Diff"));
    m_diffButton->setIcon(actionIcon("diff"));
    m_diffButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
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
    run->setIcon(actionIcon("run"));
    run->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
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
    layout->addWidget(m_tabs);
    layout->addLayout(bar);
    layout->addWidget(m_stack, 1);
    return run;
}

void EditorPane::setUpRunning(QToolButton *run)
{
    connect(m_previous, &QToolButton::clicked, this, [this] { showAttempt(tab().current - 1); });
    connect(m_next, &QToolButton::clicked, this, [this] { showAttempt(tab().current + 1); });
    connect(m_diffButton, &QToolButton::toggled, this, &EditorPane::setDiffShown);
    connect(run, &QToolButton::clicked, this, [this] {
        Q_EMIT runRequested(m_editor->text(), tab().language);
    });
    auto *runShortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this);
    runShortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(runShortcut, &QShortcut::activated, this, [this] {
        Q_EMIT runRequested(m_editor->text(), tab().language);
    });
    auto *save = new QShortcut(QKeySequence::Save, this);
    save->setContext(Qt::WidgetWithChildrenShortcut);
    connect(save, &QShortcut::activated, this, &EditorPane::saveCurrent);
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
        Q_EMIT runRequested(code, tab().language);
    });
}

void EditorPane::setUpTabs()
{
    m_tabs->setObjectName(QStringLiteral("editorTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->setTabsClosable(true);
    m_tabs->setExpanding(false);
    m_tabs->setElideMode(Qt::ElideMiddle);
    m_tabs->setUsesScrollButtons(true);
    connect(m_tabs, &QTabBar::currentChanged, this, [this](int index) {
        if (index >= 0 && index != m_active)
            activate(index);
    });
    connect(m_tabs, &QTabBar::tabCloseRequested, this, &EditorPane::closeTab);
    connect(m_editor, &CodeEditor::textChanged, this, [this] {
        if (m_active >= 0 && tab().kind == Tab::Kind::File)
            updateTitle(m_active);
    });
}

int EditorPane::addTab(Tab tab)
{
    m_tabData.append(std::move(tab));
    const int index = int(m_tabData.size()) - 1;
    const QSignalBlocker block(m_tabs);
    m_tabs->addTab(QString());
    updateTitle(index);
    return index;
}

void EditorPane::storeEditor()
{
    if (m_active >= 0 && m_active < m_tabData.size())
        tab().text = m_editor->text();
}

void EditorPane::activate(int index)
{
    if (index < 0 || index >= m_tabData.size())
        return;
    if (m_editor->isAgentWriting() && index != m_active) {
        // The agent's code is streaming into the editor: its tab stays in front.
        const QSignalBlocker block(m_tabs);
        m_tabs->setCurrentIndex(m_active);
        return;
    }
    storeEditor(); // also for the tab in front: its edits must not be replaced by its old text
    m_active = index;
    {
        const QSignalBlocker block(m_tabs);
        m_tabs->setCurrentIndex(index);
    }
    m_editor->setLanguage(tab().language);
    if (m_editor->text() != tab().text)
        m_editor->setText(tab().text);
    setDiffShown(false);
    updateTitle(index);
    updateBar();
}

void EditorPane::updateTitle(int index)
{
    const Tab &t = m_tabData[index];
    QString title = t.title;
    if (t.kind == Tab::Kind::File && isModified(index))
        title += QStringLiteral(" •");
    m_tabs->setTabText(index, title);
    m_tabs->setTabToolTip(index, t.kind == Tab::Kind::File ? t.file : t.title);
}

bool EditorPane::isModified(int index) const
{
    if (index < 0 || index >= m_tabData.size() || m_tabData[index].kind != Tab::Kind::File)
        return false;
    const QString text = index == m_active ? m_editor->text() : m_tabData[index].text;
    return text != m_tabData[index].savedText;
}

const AttemptHistory &EditorPane::history() const
{
    return tab().history;
}

int EditorPane::currentAttempt() const
{
    return tab().current;
}

QString EditorPane::currentFile() const
{
    return tab().kind == Tab::Kind::File ? tab().file : QString();
}

QString EditorPane::currentLanguage() const
{
    return tab().language;
}

void EditorPane::reset()
{
    storeEditor();
    for (int i = 0; i < m_tabData.size(); ++i) {
        if (isModified(i))
            Q_EMIT saveRequested(m_tabData[i].file, m_tabData[i].text);
    }
    m_tabData.clear();
    {
        const QSignalBlocker block(m_tabs);
        while (m_tabs->count() > 0)
            m_tabs->removeTab(0);
    }
    m_snippets = 0;
    m_active = -1;
    m_agentTab = addSnippetTab();
    activate(m_agentTab);
}

int EditorPane::fileTab(const QString &relativePath) const
{
    for (int i = 0; i < m_tabData.size(); ++i) {
        if (m_tabData[i].kind == Tab::Kind::File && m_tabData[i].file == relativePath)
            return i;
    }
    return -1;
}

int EditorPane::addSnippetTab()
{
    Tab snippet;
    snippet.title = tr("Snippet %1").arg(++m_snippets);
    return addTab(std::move(snippet));
}

void EditorPane::beginSnippet()
{
    // The newest snippet tab is reused when nothing was written in it yet.
    for (int i = int(m_tabData.size()) - 1; i >= 0; --i) {
        const Tab &t = m_tabData[i];
        if (t.kind != Tab::Kind::Snippet)
            continue;
        const QString text = i == m_active ? m_editor->text() : t.text;
        if (t.history.count() == 0 && text.trimmed().isEmpty()) {
            m_agentTab = i;
            activate(i);
            return;
        }
        break;
    }
    m_agentTab = addSnippetTab();
    activate(m_agentTab);
}

void EditorPane::showAgentTab()
{
    if (m_agentTab < 0)
        beginSnippet();
    else
        activate(m_agentTab);
}

int EditorPane::addAttempt(const QString &code, const QString &callId)
{
    if (m_agentTab < 0) // the person closed it while the agent worked
        m_agentTab = addSnippetTab();
    Tab &t = m_tabData[m_agentTab];
    const int number = t.history.add(code);
    if (!callId.isEmpty())
        t.calls.insert(callId, number);
    t.current = number;
    t.text = code;
    if (m_agentTab == m_active) {
        // Code too long to show is withheld already (streamed): not read back, nor set again.
        const bool withheld = m_editor->isWithheld()
                              && CodeEditor::longestLine(code) > CodeEditor::LongestShownLine;
        if (!withheld && m_editor->text() != code)
            m_editor->setText(code);
        updateBar();
        updateDiff();
    }
    return number;
}

void EditorPane::setAttemptStatus(int number, const QString &status)
{
    if (m_agentTab < 0)
        return;
    m_tabData[m_agentTab].history.setStatus(number, status);
    updateBar();
}

void EditorPane::setCallStatus(const QString &callId, const QString &status)
{
    for (Tab &t : m_tabData) {
        const int number = t.calls.value(callId, 0);
        if (number > 0) {
            t.history.setStatus(number, status);
            updateBar();
            return;
        }
    }
}

void EditorPane::showAttempt(int number)
{
    if (number < 1 || number > tab().history.count() || m_editor->isAgentWriting())
        return;
    tab().current = number;
    m_editor->setText(tab().history.at(number).code);
    updateBar();
    updateDiff();
}

void EditorPane::openCode(const QString &callId,
                          const QString &title,
                          const QString &code,
                          const QString &language)
{
    for (int i = 0; i < m_tabData.size(); ++i) {
        const auto found = m_tabData[i].calls.constFind(callId);
        if (callId.isEmpty() || found == m_tabData[i].calls.constEnd())
            continue;
        activate(i);
        if (*found > 0)
            showAttempt(*found);
        return;
    }
    Tab t;
    t.kind = Tab::Kind::Code;
    t.title = title;
    t.text = code;
    t.language = language;
    if (!callId.isEmpty())
        t.calls.insert(callId, 0);
    activate(addTab(std::move(t)));
}

QString EditorPane::codeOf(const QString &callId, bool *found) const
{
    for (int i = 0; i < m_tabData.size(); ++i) {
        if (callId.isEmpty() || !m_tabData[i].calls.contains(callId))
            continue;
        if (found)
            *found = true;
        return i == m_active ? m_editor->text() : m_tabData[i].text;
    }
    if (found)
        *found = false;
    return {};
}

void EditorPane::openFile(const QString &relativePath, const QString &text, const QString &language)
{
    if (const int open = fileTab(relativePath); open >= 0) {
        activate(open); // what is open (and maybe edited) stays as it is
        return;
    }
    Tab t;
    t.kind = Tab::Kind::File;
    t.title = QFileInfo(relativePath).fileName();
    t.file = relativePath;
    t.text = text;
    t.savedText = text;
    t.language = language;
    activate(addTab(std::move(t)));
}

void EditorPane::markSaved(const QString &relativePath, const QString &text)
{
    if (const int open = fileTab(relativePath); open >= 0) {
        m_tabData[open].savedText = text;
        updateTitle(open);
    }
    updateBar();
}

void EditorPane::saveCurrent()
{
    if (tab().kind != Tab::Kind::File)
        return;
    storeEditor();
    Q_EMIT saveRequested(tab().file, tab().text);
}

void EditorPane::closeTab(int index)
{
    if (index < 0 || index >= m_tabData.size()
        || (m_editor->isAgentWriting() && index == m_agentTab))
        return;
    if (isModified(index)) {
        activate(index);
        const auto answer = QMessageBox::question(
            this,
            tr("Close %1").arg(m_tabData[index].title),
            tr("%1 has changes that are not saved.").arg(m_tabData[index].file),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel,
            QMessageBox::Save);
        if (answer == QMessageBox::Cancel)
            return;
        if (answer == QMessageBox::Save)
            saveCurrent();
        else // Discard: back to what is on disk, so that nothing saves the edit later
            m_editor->setText(m_tabData[index].savedText);
    }
    if (m_tabData.size() == 1) { // never empty: a fresh snippet instead
        reset();
        return;
    }
    storeEditor();
    m_tabData.removeAt(index);
    {
        const QSignalBlocker block(m_tabs);
        m_tabs->removeTab(index);
    }
    if (m_agentTab == index)
        m_agentTab = -1;
    else if (m_agentTab > index)
        --m_agentTab;
    const int next
        = m_active > index ? m_active - 1 : std::min(m_active, int(m_tabData.size()) - 1);
    m_active = -1; // the closed tab's text is gone: nothing to store
    activate(next);
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
    const Tab &t = tab();
    const int count = t.history.count();
    const bool snippet = t.kind == Tab::Kind::Snippet;
    m_previous->setVisible(snippet);
    m_next->setVisible(snippet);
    m_previous->setEnabled(t.current > 1);
    m_next->setEnabled(t.current < count);
    m_diffButton->setEnabled(count > 0);
    if (t.kind == Tab::Kind::File) {
        m_attemptLabel->setText(isModified(m_active) ? tr("%1 (not saved; Ctrl+S)").arg(t.file)
                                                     : t.file);
        return;
    }
    if (t.kind == Tab::Kind::Code) {
        m_attemptLabel->setText(t.title);
        return;
    }
    if (count == 0) {
        m_attemptLabel->setText(tr("Your code"));
        return;
    }
    const QString status = t.history.at(t.current).status;
    m_attemptLabel->setText(
        status.isEmpty() ? tr("Attempt %1 of %2").arg(t.current).arg(count)
                         : tr("Attempt %1 of %2 · %3").arg(t.current).arg(count).arg(status));
}

void EditorPane::updateDiff()
{
    const Tab &t = tab();
    if (t.current < 1)
        return;
    // The note that stands for withheld code is not an edit of it.
    const QString edited = m_editor->isWithheld() ? QString() : m_editor->text();
    const bool personEdited = !m_editor->isWithheld() && edited != t.history.at(t.current).code;
    QString diff = personEdited ? t.history.diffToEdited(t.current, edited)
                                : t.history.diffToPrevious(t.current);
    if (diff.isEmpty())
        diff = tr("# Attempt 1: nothing earlier to compare with.\n");
    m_diff->setText(diff);
}

void EditorPane::showFind()
{
    if (!m_findBox) {
        m_findBox = new FindBox(m_editor, [this](const QString &text, bool backwards) {
            return find(text, backwards);
        });
        m_findBox->setObjectName(QStringLiteral("editorFind"));
    }
    if (m_editor->hasSelectedText() && !m_editor->selectedText().contains(QLatin1Char('\n')))
        m_findBox->setText(m_editor->selectedText());
    m_findBox->start();
}

bool EditorPane::find(const QString &text, bool backwards)
{
    if (text.isEmpty())
        return false;
    // Backwards from the start of the current match, forwards from its end; wrapping.
    int line = -1;
    int index = -1;
    if (backwards && m_editor->hasSelectedText()) {
        int toLine = 0;
        int toIndex = 0;
        m_editor->getSelection(&line, &index, &toLine, &toIndex);
    }
    return m_editor->findFirst(text, false, false, false, true, !backwards, line, index);
}

} // namespace Sandcastle
