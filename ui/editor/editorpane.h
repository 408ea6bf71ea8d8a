#pragma once

#include "attempthistory.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QStackedWidget;
class QToolButton;

namespace Sandcastle {

class CodeEditor;

// The editor pane: the code editor with the self-debug timeline of the agent's snippet
// (attempt 1, 2, 3 … with how each ended), a diff view (an attempt against the one before
// it, or the person's edit against the agent's version), Run (Ctrl+Enter), Run selection
// (Ctrl+Shift+Enter) and whether the agent hears about the person's runs.
class EditorPane : public QWidget
{
    Q_OBJECT
public:
    explicit EditorPane(QWidget *parent = nullptr);

    CodeEditor *editor() const { return m_editor; }
    CodeEditor *diffView() const { return m_diff; }
    const AttemptHistory &history() const { return m_history; }

    // A new request: a new timeline.
    void beginSnippet();
    // The agent ran this code: it becomes the newest attempt and is shown.
    int addAttempt(const QString &code);
    void setAttemptStatus(int number, const QString &status);
    void showAttempt(int number);
    int currentAttempt() const { return m_current; }
    void setDiffShown(bool shown);
    bool isDiffShown() const;
    bool tellsAgent() const;
    QString attemptText() const;

Q_SIGNALS:
    void runRequested(const QString &code);

private:
    void updateBar();
    void updateDiff();

    AttemptHistory m_history;
    int m_current = 0;
    CodeEditor *m_editor = nullptr;
    CodeEditor *m_diff = nullptr;
    QStackedWidget *m_stack = nullptr;
    QToolButton *m_previous = nullptr;
    QToolButton *m_next = nullptr;
    QLabel *m_attemptLabel = nullptr;
    QToolButton *m_diffButton = nullptr;
    QCheckBox *m_tellAgent = nullptr;
};

} // namespace Sandcastle
