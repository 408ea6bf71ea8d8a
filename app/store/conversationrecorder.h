#pragma once

#include "conversationstore.h"

#include <QHash>
#include <QObject>

namespace Sandcastle {

class Agent;

// Writes one conversation to the store as it happens: every message the agent adds, every
// run as it starts (marked `running`) and as it ends, the person's own runs too. Each item is
// committed durably when it completes: runs at once, messages through the store's writer
// thread (group commit, a commit's time later at most). A failed write is reported, never
// silently dropped; by the end of each agent turn every message is on disk or reported.
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

Q_SIGNALS:
    void errorOccurred(const QString &message);

private:
    void report(const QString &what, const QString &error);
    void closeOpenRuns(const QString &why);
    qint64 beginRun(const QString &toolCallId,
                    const QString &code,
                    const QString &language,
                    const QString &origin);

    ConversationStore *m_store;
    QString m_conversationId;
    QHash<QString, qint64> m_openRuns; // tool call id -> run row
    qint64 m_personRun = 0;
};

} // namespace Sandcastle
