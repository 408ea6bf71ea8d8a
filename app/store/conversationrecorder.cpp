#include "conversationrecorder.h"

#include <app/agent/agent.h>

namespace Sandcastle {

ConversationRecorder::ConversationRecorder(ConversationStore *store,
                                           const QString &conversationId,
                                           QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_conversationId(conversationId)
{}

void ConversationRecorder::setConversationId(const QString &id)
{
    closeOpenRuns(QStringLiteral("the conversation was switched"));
    m_conversationId = id;
}

void ConversationRecorder::attach(Agent *agent)
{
    connect(agent, &Agent::messageRecorded, this, [this](const nlohmann::json &message) {
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
                const qint64 row
                    = beginRun(id, code, languageName(language), QStringLiteral("agent"));
                if (row > 0)
                    m_openRuns.insert(id, row);
            });
    connect(
        agent, &Agent::toolResult, this, [this](const QString &id, const ExecutionResult &result) {
            const qint64 row = m_openRuns.take(id);
            if (row <= 0)
                return;
            const Result<bool> saved = m_store->finishRun(row, result);
            if (!saved)
                report(QStringLiteral("a run's result"), saved.error());
        });
    // A run the stop cut short before its result came back.
    connect(agent, &Agent::finished, this, [this] {
        closeOpenRuns(QStringLiteral("stopped by the person"));
        const Result<bool> saved = m_store->flush();
        if (!saved)
            report(QStringLiteral("messages"), saved.error());
    });
}

void ConversationRecorder::closeOpenRuns(const QString &why)
{
    const QList<qint64> rows = m_openRuns.values();
    m_openRuns.clear();
    for (const qint64 row : rows) {
        ExecutionResult result;
        result.status = ExecutionResult::Status::Killed;
        result.exitCode = -1;
        result.error = why;
        const Result<bool> saved = m_store->finishRun(row, result);
        if (!saved)
            report(QStringLiteral("a run's result"), saved.error());
    }
}

void ConversationRecorder::personRunStarted(const QString &code, const QString &language)
{
    m_personRun = beginRun(QString(), code, language, QStringLiteral("person"));
}

void ConversationRecorder::personRunFinished(const ExecutionResult &result)
{
    const qint64 row = std::exchange(m_personRun, 0);
    if (row <= 0)
        return;
    const Result<bool> saved = m_store->finishRun(row, result);
    if (!saved)
        report(QStringLiteral("a run's result"), saved.error());
}

qint64 ConversationRecorder::beginRun(const QString &toolCallId,
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
    const Result<qint64> row = m_store->beginRun(run);
    if (!row) {
        report(QStringLiteral("a run"), row.error());
        return 0;
    }
    return row.value();
}

void ConversationRecorder::report(const QString &what, const QString &error)
{
    Q_EMIT errorOccurred(
        QStringLiteral("Could not save %1 of this conversation: %2").arg(what, error));
}

} // namespace Sandcastle
