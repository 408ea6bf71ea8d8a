#pragma once

#include <nlohmann/json.hpp>

#include <QAbstractListModel>
#include <QElapsedTimer>
#include <QList>
#include <QStringList>
#include <QTimer>

namespace Sandcastle {

// The chat transcript as a list model: the person's messages, the assistant's answers (with
// their reasoning, collapsed), a card per tool call (tool, code, status, exit code, duration,
// files made; collapsed) and error banners (with Retry when asking again may help).
//
// Streaming text changes the model at once, but views hear about it at most once per frame:
// the changed rows are announced together, at the next turn of the event loop when the last
// announcement is a frame (8 ms, a 120 Hz display's) old, else when it will be. A model that
// sends a thousand tokens a second repaints the chat 125 times a second, not a thousand, and
// no token waits more than a frame to be shown; one that sends fifty is shown token by token
// without waiting at all.
class TranscriptModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum class Kind { User, Assistant, Tool, Error, Notice };
    Q_ENUM(Kind)

    enum Role {
        KindRole = Qt::UserRole + 1,
        TextRole,      // the message, the tool's code (or arguments), the error
        ReasoningRole, // assistant only
        ExpandedRole,  // a tool card shows all of its code; the reasoning is shown
        StreamingRole, // the assistant is still writing this
        ToolNameRole,  // tool only, from here on
        CallIdRole,
        StatusRole,     // "running" until the result, then a result status
        ExitCodeRole,   // -1 when there is none
        DurationRole,   // ms, -1 while running
        FilesRole,      // the files the run made or changed
        RetryableRole,  // error only
        RevisionRole,   // changes whenever anything shown changes (for caches)
        ShowAllRole,    // a long text is shown whole, past the display limits
        CheckpointRole, // notice only: the checkpoint it tells of (its review opens on a click)
    };

    explicit TranscriptModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    void addUserMessage(const QString &text);
    // Streams into the current answer, starting one when there is none.
    void appendAssistantText(const QString &delta);
    void appendReasoning(const QString &delta);
    // The answer is complete; the next text starts a new one.
    void endAssistantMessage();
    // A tool call as the model asked for it; `detail` is its code, or its arguments.
    void addToolCall(const QString &callId, const QString &name, const QString &detail);
    void setToolResult(const QString &callId,
                       const QString &status,
                       int exitCode,
                       qint64 durationMs,
                       const QStringList &files);
    void addError(const QString &message, bool retryable);
    // Something the person should know that is not an error (the model is retried, older
    // output was summarised). A notice right after another replaces it rather than piling up.
    void addNotice(const QString &message);
    // A notice for a recorded checkpoint ("2 files changed, +10 −3"): after the agent turn
    // `turn` (counted from 0 by the person's messages) when the transcript has later ones,
    // else at the end.
    void addCheckpoint(int number, int turn, const QString &text);
    void setExpanded(int row, bool expanded);
    void toggleExpanded(int row);
    // Shows a long text whole (rendered in the background, piece by piece).
    void setShowAll(int row);
    void clear();
    // A stored conversation (Chat Completions messages) as it looked when it was had.
    void loadHistory(const nlohmann::json &messages);

    // What the transcript says, as text (for copying and tests).
    QString plainText() const;
    QString plainText(int row) const;
    // The row of a tool call, or -1.
    int rowOfCall(const QString &callId) const;
    // Announces the rows changed since the last frame now rather than at the next frame.
    void flush();
    int pendingRows() const { return m_dirtyFirst < 0 ? 0 : m_dirtyLast - m_dirtyFirst + 1; }

    // The text a tool card shows for a call's arguments: the code for the run tools, the path
    // (and content) for the file tools, else the arguments as they came.
    static QString toolDetail(const QString &name, const QString &arguments);
    // Whether a tool's detail is code that can be opened in the editor (run_python, run_shell).
    static bool runsCode(const QString &name);

private:
    struct Entry
    {
        Kind kind = Kind::User;
        QString text;
        QString reasoning;
        bool expanded = false;
        bool showAll = false;
        bool streaming = false;
        QString toolName;
        QString callId;
        QString status;
        int exitCode = -1;
        qint64 durationMs = -1;
        QStringList files;
        bool retryable = false;
        int checkpoint = 0;
        quint32 revision = 0;
    };

    void append(Entry entry);
    // The assistant entry being written, started when needed.
    Entry &streamingEntry();
    void markDirty(int row);

    QList<Entry> m_entries;
    int m_streamingRow = -1;
    int m_dirtyFirst = -1;
    int m_dirtyLast = -1;
    QTimer m_frame;
    QElapsedTimer m_sinceFlush; // a change after a quiet frame is shown at once
};

} // namespace Sandcastle
