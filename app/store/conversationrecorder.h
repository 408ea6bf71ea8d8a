#pragma once

#include "conversationstore.h"

#include <QHash>
#include <QObject>
#include <QTimer>

namespace Sandcastle {

class Agent;

// Writes one conversation to the store as it happens: every message the agent adds, every
// run as it starts (marked `running`) and as it ends, the person's own runs too. Each item is
// committed durably through the store's writer thread, in order (group commit, a commit's time
// later at most); the UI thread never waits for the disk. A failed write is reported, never
// silently dropped; shortly after each agent turn ends (turnSaved(), the UI thread never waiting
// for the disk) every message is on disk or reported.
class ConversationRecorder : public QObject
{
    Q_OBJECT
public:
    ConversationRecorder(ConversationStore *store,
                         const QString &conversationId,
                         QObject *parent = nullptr);

    void attach(Agent *agent);
    QString conversationId() const { return m_conversationId; }
    void setConversationId(const QString &id);

    // The person ran code from the editor.
    void personRunStarted(const QString &code, const QString &language = QStringLiteral("python"));
    void personRunFinished(const ExecutionResult &result);

    // Waits for the save the last turn's end asked for (a command line that is about to print
    // its last words and exit); reports and emits turnSaved() as the poll would have.
    void flushNow();

Q_SIGNALS:
    void errorOccurred(const QString &message);
    // Everything of the turn that just ended is on disk, or errorOccurred() said what is not.
    void turnSaved();

private:
    void report(const QString &what, const QString &error);
    void closeOpenRuns(const QString &why);
    void endRun(quint64 start, const ExecutionResult &result);
    void checkSaved();
    // The turn's save is over: what failed is reported, then turnSaved().
    void settle(const Result<bool> &saved);
    // A run's start, queued; its sequence number (0 when it could not be queued).
    quint64 beginRun(const QString &toolCallId,
                     const QString &code,
                     const QString &language,
                     const QString &origin);

    ConversationStore *m_store;
    QString m_conversationId;
    QHash<QString, quint64> m_openRuns; // tool call id -> its run's start in the store's queue
    quint64 m_personRun = 0;
    static constexpr int PollMs = 10;
    QTimer m_poll; // until the turn's save has settled
    ConversationStore::FlushTicket m_flush;
    bool m_flushing = false;
};

} // namespace Sandcastle
