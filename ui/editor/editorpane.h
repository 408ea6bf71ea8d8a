#pragma once

#include "attempthistory.h"

#include <QHash>
#include <QWidget>

class QCheckBox;
class QLabel;
class QTabBar;
class QStackedWidget;
class QToolButton;

namespace Sandcastle {

class FindBox;

class CodeEditor;

// The editor pane: a tab per snippet (each request's code, with its self-debug timeline:
// attempt 1, 2, 3 … and how each ended), per tool call opened from the chat and per workspace
// file opened from the files pane; a diff view (an attempt against the one before it, or the
// person's edit against the agent's version), Run (Ctrl+Enter), Run selection
// (Ctrl+Shift+Enter), Save for a file (Ctrl+S) and whether the agent hears about the
// person's runs. One code editor shows the current tab; the others keep their text.
class EditorPane : public QWidget
{
    Q_OBJECT
public:
    explicit EditorPane(QWidget *parent = nullptr);

    CodeEditor *editor() const { return m_editor; }
    CodeEditor *diffView() const { return m_diff; }
    QTabBar *tabBar() const { return m_tabs; }
    // The timeline of the current tab.
    const AttemptHistory &history() const;

    // A new conversation: every tab closes (files with unsaved edits are saved first, through
    // saveRequested) and one empty snippet tab is left.
    void reset();
    // A new request: a new snippet tab with a new timeline (the last one, when it is unused).
    void beginSnippet();
    // The agent is about to write code: its snippet tab comes to the front.
    void showAgentTab();
    // The agent ran this code (tool call `callId`): it becomes the newest attempt of the
    // agent's snippet and is shown.
    int addAttempt(const QString &code, const QString &callId = QString());
    void setAttemptStatus(int number, const QString &status);
    void setCallStatus(const QString &callId, const QString &status);
    void showAttempt(int number);
    int currentAttempt() const;
    // Shows a tool call's code: its attempt when a snippet tab holds it, else a tab of its own.
    void openCode(const QString &callId,
                  const QString &title,
                  const QString &code,
                  const QString &language);
    // The text of the tab that shows tool call or cell `callId` (openCode()), as the person
    // may have edited it; `found` says whether a tab holds it.
    QString codeOf(const QString &callId, bool *found = nullptr) const;
    // A workspace file in a tab of its own (the one already open when there is one).
    void openFile(const QString &relativePath, const QString &text, const QString &language);
    // The file was written: the tab is no longer modified.
    void markSaved(const QString &relativePath, const QString &text);
    // Edit → Find over the editor: the next match (any case), wrapping around.
    void showFind();
    bool find(const QString &text, bool backwards = false);
    // Saves the current tab when it is a file (Ctrl+S).
    void saveCurrent();
    void closeTab(int index);
    QString currentFile() const;
    QString currentLanguage() const;
    bool isModified(int index) const;
    void setDiffShown(bool shown);
    bool isDiffShown() const;
    bool tellsAgent() const;
    QString attemptText() const;

Q_SIGNALS:
    void runRequested(const QString &code, const QString &language);
    void saveRequested(const QString &relativePath, const QString &text);

private:
    QToolButton *setUpBar();
    void setUpRunning(QToolButton *run);
    void setUpTabs();

    struct Tab
    {
        enum class Kind { Snippet, Code, File } kind = Kind::Snippet;
        QString title;
        AttemptHistory history;
        int current = 0;
        QString text;
        QString language = QStringLiteral("python");
        QString file;              // a File tab's workspace path
        QString savedText;         // a File tab's text as it is on disk
        QHash<QString, int> calls; // tool call -> the attempt it ran (0: a Code tab's call)
    };

    Tab &tab() { return m_tabData[m_active]; }
    const Tab &tab() const { return m_tabData[m_active]; }
    int addTab(Tab tab);
    int addSnippetTab();
    // The tab holding a workspace file, or -1.
    int fileTab(const QString &relativePath) const;
    void activate(int index);
    void storeEditor();
    void updateTitle(int index);
    void updateBar();
    void updateDiff();

    QTabBar *m_tabs = nullptr;
    QList<Tab> m_tabData;
    int m_active = 0;
    int m_agentTab = 0; // the snippet the agent's runs go to
    int m_snippets = 0; // numbers the snippet tabs of a conversation
    CodeEditor *m_editor = nullptr;
    CodeEditor *m_diff = nullptr;
    FindBox *m_findBox = nullptr; // made on the first find
    QStackedWidget *m_stack = nullptr;
    QToolButton *m_previous = nullptr;
    QToolButton *m_next = nullptr;
    QLabel *m_attemptLabel = nullptr;
    QToolButton *m_diffButton = nullptr;
    QCheckBox *m_tellAgent = nullptr;
};

} // namespace Sandcastle
