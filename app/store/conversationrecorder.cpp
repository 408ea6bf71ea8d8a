#include "conversationrecorder.h"

#include <app/agent/agent.h>

namespace Sandcastle {

ConversationRecorder::ConversationRecorder(ConversationStore *store,
                                           const QString &conversationId,
                                           QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_conversationId(conversationId)
{
    m_poll.setInterval(PollMs);
    connect(&m_poll, &QTimer::timeout, this, &ConversationRecorder::checkSaved);
}

void ConversationRecorder::setConversationId(const QString &id)
{
    closeOpenRuns(QStringLiteral("the conversation was switched"));
    m_conversationId = id;
}

void ConversationRecorder::attach(Agent *agent)
{
    connect(agent, &Agent::messageRecorded, this, [this](const Message &message) {
        if (m_conversationId.isEmpty())
            return;
        // Through the store's writer thread: durable within a commit, without waiting for the
        // disk here; what failed is reported when the turn ends.
        const Result<quint64> queued = m_store->appendMessage(m_conversationId, message);
        if (!queued)
            report(QStringLiteral("a message"), queued.error());
    });
    connect(agent,
            &Agent::runStarted,
            this,
            [this](const QString &id, SandboxRun::Language language, const QString &code) {
                // The store names languages as the export and the transcript read them.
                const quint64 start
                    = beginRun(id, code, languageName(language), QStringLiteral("agent"));
                if (start > 0)
                    m_openRuns.insert(id, start);
            });
    connect(
        agent, &Agent::toolResult, this, [this](const QString &id, const ExecutionResult &result) {
            const quint64 start = m_openRuns.take(id);
            if (start > 0)
                endRun(start, result);
        });
    // A run the stop cut short before its result came back.
    connect(agent, &Agent::finished, this, [this] {
        closeOpenRuns(QStringLiteral("stopped by the person"));
        // Saved on the writer's thread; the window does not wait for the disk (a megabyte
        // answer, fsync'd, took the UI thread 100-200 ms on a slow disk).
        m_flush = m_store->requestFlush();
        m_flushing = true;
        checkSaved();
        if (m_flushing)
            m_poll.start();
    });
}

void ConversationRecorder::flushNow()
{
    if (!m_flushing)
        return;
    settle(m_store->flush());
}

void ConversationRecorder::checkSaved()
{
    if (!m_flushing)
        return;
    if (const std::optional<Result<bool>> saved = m_store->flushed(m_flush))
        settle(*saved);
}

void ConversationRecorder::settle(const Result<bool> &saved)
{
    m_poll.stop();
    m_flushing = false;
    if (!saved)
        report(QStringLiteral("messages"), saved.error());
    Q_EMIT turnSaved();
}

void ConversationRecorder::closeOpenRuns(const QString &why)
{
    const QList<quint64> starts = m_openRuns.values();
    m_openRuns.clear();
    for (const quint64 start : starts) {
        ExecutionResult result;
        result.status = ExecutionResult::Status::Killed;
        result.exitCode = -1;
        result.error = why;
        endRun(start, result);
    }
}

void ConversationRecorder::endRun(quint64 start, const ExecutionResult &result)
{
    const Result<quint64> queued = m_store->appendRunEnd(start, result);
    if (!queued)
        report(QStringLiteral("a run's result"), queued.error());
}

void ConversationRecorder::personRunStarted(const QString &code, const QString &language)
{
    m_personRun = beginRun(QString(), code, language, QStringLiteral("person"));
}

void ConversationRecorder::personRunFinished(const ExecutionResult &result)
{
    const quint64 start = std::exchange(m_personRun, 0);
    if (start > 0)
        endRun(start, result);
}

quint64 ConversationRecorder::beginRun(const QString &toolCallId,
                                       const QString &code,
                                       const QString &language,
                                       const QString &origin)
{
    if (m_conversationId.isEmpty())
        return 0;
    StoredRun run;
    run.conversationId = m_conversationId;
    run.toolCallId = toolCallId;
    run.code = code;
    run.language = language;
    run.origin = origin;
    // Queued behind the messages before it: the window waits neither for them nor for the disk.
    const Result<quint64> start = m_store->appendRunStart(run);
    if (!start) {
        report(QStringLiteral("a run"), start.error());
        return 0;
    }
    return start.value();
}

void ConversationRecorder::report(const QString &what, const QString &error)
{
    Q_EMIT errorOccurred(
        QStringLiteral("Could not save %1 of this conversation: %2").arg(what, error));
}

} // namespace Sandcastle
