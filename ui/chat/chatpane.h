#pragma once

#include <nlohmann/json.hpp>

#include <QWidget>

class QListView;
class QToolButton;
class QPushButton;

namespace Sandcastle {

class FindBox;
class Thumbnails;
class PromptEdit;
class TranscriptDelegate;
class TranscriptModel;

// The conversation: the transcript (a list model shown by a delegate: Markdown answers,
// collapsed reasoning, a collapsible card per tool call, error banners with Retry) and the
// prompt box under it. Thin: the agent decides, this only shows and asks.
class ChatPane : public QWidget
{
    Q_OBJECT
public:
    explicit ChatPane(QWidget *parent = nullptr);

    PromptEdit *promptEdit() const { return m_prompt; }
    QListView *transcriptView() const { return m_view; }
    TranscriptModel *transcriptModel() const { return m_model; }
    TranscriptDelegate *transcriptDelegate() const { return m_delegate; }
    QString transcriptText() const;

    void addUserMessage(const QString &text);
    void appendAssistantText(const QString &delta);
    void appendReasoning(const QString &delta);
    // `arguments` as the model sent them; the card shows the code or the path.
    void addToolCall(const QString &callId, const QString &name, const QString &arguments);
    void addToolResult(const QString &callId,
                       const QString &status,
                       int exitCode,
                       qint64 durationMs,
                       const QStringList &files);
    // A red banner; with a Retry link when asking again may help.
    void addError(const QString &message, bool retryable = false);
    void addNotice(const QString &message);
    // A recorded checkpoint's change badge, after its turn; a click (or Enter) on it asks for
    // its review.
    void addCheckpoint(int number, int turn, const QString &text);
    void endAssistantMessage();
    void setBusy(bool busy);
    void clearPrompt();
    void clearTranscript();
    // A panel over the transcript (the first-launch welcome).
    void insertPanel(QWidget *panel);
    // Shows a stored conversation (Chat Completions messages) as it looked when it was had.
    void showHistory(const nlohmann::json &messages);
    // Edit → Find over the transcript: the next message holding the text (any case) becomes
    // the current one, wrapping around.
    void showFind();
    bool find(const QString &text, bool backwards = false);
    // Edit → Copy with the transcript focused: the current message's text.
    void copyCurrent();
    // The workspace the runs' images are read from, for the pictures in their cards.
    void setWorkspace(const QString &root);
    Thumbnails *thumbnails() const { return m_thumbnails; }

Q_SIGNALS:
    void promptSubmitted(const QString &text);
    void stopRequested();
    void stopCodeRequested();
    void retryRequested();
    void stopAfterStepRequested();
    // "Open in editor" on a tool card: its code and the tool that ran it.
    void openInEditorRequested(const QString &callId, const QString &tool, const QString &code);
    // Files dropped on the pane (local paths), to copy into the workspace.
    void filesDropped(const QStringList &paths);
    void checkpointActivated(int number);
    // "Open table as CSV" under a long answer: the table, to put in the workspace and show.
    void tableAsCsvRequested(const QString &csv);
    // A picture in a run's card was clicked: the image's path in the workspace.
    void imageActivated(const QString &relativePath);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void setUpTranscript();
    void setUpInput();
    void showContextMenu(const QPoint &pos);
    void openInEditor(const QModelIndex &index);
    void openAsText(const QModelIndex &index);
    static QString suggestedName(const QModelIndex &index);

    TranscriptModel *m_model = nullptr;
    QListView *m_view = nullptr;
    FindBox *m_findBox = nullptr; // made on the first find
    Thumbnails *m_thumbnails = nullptr;
    TranscriptDelegate *m_delegate = nullptr;
    PromptEdit *m_prompt = nullptr;
    QPushButton *m_sendButton = nullptr;
    QToolButton *m_stopOptions = nullptr;
    bool m_busy = false;
    bool m_stickToBottom = true; // follows new output until the person scrolls up
};

} // namespace Sandcastle
