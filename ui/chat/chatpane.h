#pragma once

#include <nlohmann/json.hpp>

#include <QWidget>

class QToolButton;
class QPushButton;
class QTextBrowser;

namespace Sandcastle {

class PromptEdit;

// The conversation: a transcript that streams the assistant's text and shows tool activity,
// and the prompt box under it. Thin: the agent decides, this only shows and asks.
class ChatPane : public QWidget
{
    Q_OBJECT
public:
    explicit ChatPane(QWidget *parent = nullptr);

    PromptEdit *promptEdit() const { return m_prompt; }
    QString transcriptText() const;

    void addUserMessage(const QString &text);
    void appendAssistantText(const QString &delta);
    void addToolCall(const QString &name);
    void addToolResult(const QString &status, qint64 durationMs, const QStringList &files);
    // A red banner; with a Retry link when asking again may help.
    void addError(const QString &message, bool retryable = false);
    void endAssistantMessage();
    void setBusy(bool busy);
    void clearPrompt();
    void clearTranscript();
    // A panel over the transcript (the first-launch welcome).
    void insertPanel(QWidget *panel);
    // Shows a stored conversation (Chat Completions messages) as it looked when it was had.
    void showHistory(const nlohmann::json &messages);

Q_SIGNALS:
    void promptSubmitted(const QString &text);
    void stopRequested();
    void stopCodeRequested();
    void retryRequested();
    void stopAfterStepRequested();
    // Files dropped on the pane (local paths), to copy into the workspace.
    void filesDropped(const QStringList &paths);

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void appendBlock(const QString &html);

    QTextBrowser *m_transcript = nullptr;
    PromptEdit *m_prompt = nullptr;
    QPushButton *m_sendButton = nullptr;
    QToolButton *m_stopOptions = nullptr;
    bool m_busy = false;
    bool m_inAssistantText = false;
    int m_assistantStart = -1; // where the streaming text began, to render it as Markdown
    QString m_assistantText;
};

} // namespace Sandcastle
