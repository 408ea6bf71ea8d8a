#include "agent.h"

#include "contextbudget.h"
#include "fileledger.h"
#include "storedhistory.h"
#include "textcalls.h"
#include "tools.h"
#include "unifieddiff.h"

#include <app/llm/modelclient.h>
#include <app/store/storedmessage.h>
#include <base/partialjson.h>
#include <sandbox/sandboxsession.h>

namespace Sandcastle {

Agent::Agent(ModelClient *client, SandboxSession *session, AgentOptions options, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_session(session)
    , m_options(std::move(options))
    , m_codeBlockMode(m_options.toolMode == AgentOptions::ToolMode::CodeBlocks)
{
    m_codeFrame.setSingleShot(true);
    m_codeFrame.setInterval(16);
    connect(&m_codeFrame, &QTimer::timeout, this, &Agent::showStreamingCode);
    connectClient(client);
    connect(session,
            &SandboxSession::outputReady,
            this,
            [this](OutputStream stream, const QString &text) {
                if (!m_activeToolId.isEmpty())
                    Q_EMIT toolOutput(m_activeToolId, stream, text);
            });
    connect(session, &SandboxSession::finished, this, &Agent::onSessionFinished);
}

void Agent::connectClient(ModelClient *client)
{
    connect(client, &ModelClient::textDelta, this, [this](const QString &t) {
        if (m_running)
            Q_EMIT textDelta(t);
    });
    connect(client, &ModelClient::reasoningDelta, this, [this](const QString &t) {
        if (m_running)
            Q_EMIT reasoningDelta(t);
    });
    connect(client,
            &ModelClient::toolCallStarted,
            this,
            [this](int index, const QString &id, const QString &name) {
                if (!m_running)
                    return;
                const QString callId = id.isEmpty() ? QStringLiteral("call_%1").arg(index) : id;
                m_streamingIds.insert(index, callId);
                m_streamingArgs.insert(index, QString());
                m_streamingNames.insert(index, name);
                m_streamingCode.erase(index);
                m_streamingEdits.erase(index);
                Q_EMIT toolCallStarted(callId, name);
            });
    connect(
        client, &ModelClient::toolArgumentsDelta, this, [this](int index, const QString &fragment) {
            if (!m_running)
                return;
            m_streamingArgs[index] += fragment;
            // Shown at most once a frame: reading the code out of the arguments costs as much as
            // they are long, and a model may send a megabyte of them in a thousand pieces.
            // The first change after a quiet frame is shown at once.
            m_codeChanged.insert(index);
            if (!m_codeFrame.isActive())
                showStreamingCode();
        });
    connect(client, &ModelClient::finished, this, &Agent::onCompletion);
    connect(client,
            &ModelClient::retrying,
            this,
            [this](int attempt, int delayMs, const QString &reason) {
                if (m_running)
                    Q_EMIT retrying(attempt, delayMs, reason);
            });
    connect(client, &ModelClient::errorOccurred, this, &Agent::onClientError);
}

void Agent::showStreamingCode()
{
    const QSet<int> changed = std::exchange(m_codeChanged, {});
    if (!m_running || changed.isEmpty())
        return;
    if (!m_codeFrame.isActive())
        m_codeFrame.start(); // the next change waits for the frame's end
    for (const int index : changed) {
        if (m_streamingNames.value(index) == QLatin1String("edit_file")) {
            auto edit = m_streamingEdits.find(index);
            if (edit == m_streamingEdits.end())
                edit = m_streamingEdits
                           .emplace(index,
                                    std::array<PartialJsonStringField, 3>{
                                        PartialJsonStringField(QStringLiteral("path")),
                                        PartialJsonStringField(QStringLiteral("old_text")),
                                        PartialJsonStringField(QStringLiteral("new_text"))})
                           .first;
            const QString &args = m_streamingArgs[index];
            const QString path = edit->second[0].read(args);
            const QString oldText = edit->second[1].read(args);
            const QString newText = edit->second[2].read(args);
            Q_EMIT toolEditChanged(m_streamingIds.value(index), path, oldText, newText);
            continue;
        }
        auto reader = m_streamingCode.find(index);
        if (reader == m_streamingCode.end())
            reader = m_streamingCode.emplace(index, QStringLiteral("code")).first;
        const QString code = reader->second.read(m_streamingArgs.value(index));
        if (!code.isNull())
            Q_EMIT toolCodeChanged(m_streamingIds.value(index), code);
    }
}

void Agent::onClientError(const QString &code, const QString &message)
{
    if (!m_running)
        return;
    // Servers without tool calling refuse the `tools` field (Ollama: "does not support
    // tools"); in Auto mode that is a reason to switch, not to fail.
    const bool refusedTools
        = (code == QLatin1String("bad_request") || code == QLatin1String("unprocessable")
           || code == QLatin1String("server_error"))
          && message.contains(QLatin1String("tool"), Qt::CaseInsensitive);
    if (refusedTools && !m_codeBlockMode && m_options.toolMode == AgentOptions::ToolMode::Auto) {
        switchToCodeBlocks();
        Q_EMIT retrying(1,
                        0,
                        QStringLiteral("the server does not support tool calls; asking for code "
                                       "blocks instead"));
        --m_turns; // the refused request does not count
        requestModel();
        return;
    }
    // A server that checks tool calls (Groq) refused one the model wrote: the model hears why
    // and writes it again, tools kept; twice in a row is an error.
    if (code == QLatin1String("tool_call_invalid") && !m_codeBlockMode
        && m_refusedCallsInARow < 2) {
        ++m_refusedCallsInARow;
        appendMessage(Message::user(
            QStringLiteral("[Your last tool call was refused by the model server before it ran. "
                           "%1 Write the call again with arguments that match the tool's "
                           "schema.]")
                .arg(message)));
        Q_EMIT retrying(m_refusedCallsInARow,
                        0,
                        QStringLiteral("the server refused the model's tool call; the model was "
                                       "told why"));
        requestModel();
        return;
    }
    Q_EMIT errorOccurred(code, message);
    finish(QStringLiteral("error"));
}

void Agent::start(const QString &prompt)
{
    if (m_running)
        return;
    if (m_messages.isEmpty() && !m_options.systemPrompt.isEmpty())
        m_messages.append(Message::system(QString()));
    setSystemPrompt();
    // What the person did in the sandbox since the last turn comes first, so the model
    // reads the request in the light of it.
    const QString content = m_personNotes.isEmpty() ? prompt
                                                    : m_personNotes.join(QStringLiteral("\n\n"))
                                                          + QStringLiteral("\n\n") + prompt;
    m_personNotes.clear();
    m_running = true;
    appendMessage(Message::user(content));
    m_budget.startRun();
    m_limit.clear();
    m_refusedCallsInARow = 0;
    m_awaiting.reset();
    m_announced.reset();
    m_editNote.clear();
    m_stopAfterStep = false;
    m_codeStoppedByPerson = false;
    m_turns = 0;
    requestModel();
}

bool Agent::resume()
{
    if (m_running || m_messages.isEmpty())
        return false;
    const Message::Role role = m_messages.constLast().role;
    if (role != Message::Role::User && role != Message::Role::Tool)
        return false;
    m_running = true;
    m_limit.clear();
    m_stopAfterStep = false;
    m_turns = 0;
    m_budget.resume();
    requestModel();
    return true;
}

void Agent::loadHistory(const nlohmann::json &messages)
{
    if (m_running || !messages.is_array())
        return;
    m_messages.clear();
    m_personNotes.clear();
    m_approvedGroups.clear(); // "ask once" is once per conversation
    if (!m_options.systemPrompt.isEmpty())
        m_messages.append(Message::system(QString()));
    m_messages += historyFromStore(messages);
    m_lastAgentCode = lastPythonCode(m_messages);
    setSystemPrompt();
}

void Agent::appendMessage(const Message &message)
{
    m_messages.append(message);
    Q_EMIT messageAdded(roleName(message.role), message.text);
    Q_EMIT messageRecorded(message);
}

void Agent::setOptions(const AgentOptions &options)
{
    m_options = options;
    if (!m_running && m_options.toolMode != AgentOptions::ToolMode::Auto)
        m_codeBlockMode = m_options.toolMode == AgentOptions::ToolMode::CodeBlocks;
}

void Agent::notePersonRun(const QString &code, const ExecutionResult &result)
{
    const std::string outcome = Tools::resultJson(result, m_options.outputLimit).dump();
    QString note;
    if (m_lastAgentCode.isEmpty()) {
        note = QStringLiteral(
                   "[The person ran this code in the sandbox themselves:]\n```python\n%1\n```\n"
                   "[Result:] %2")
                   .arg(code.trimmed(), QString::fromStdString(outcome));
    } else if (code == m_lastAgentCode) {
        note = QStringLiteral("[The person re-ran your last code unchanged. Result:] %1")
                   .arg(QString::fromStdString(outcome));
    } else {
        note = QStringLiteral(
                   "[The person edited your last code and ran it. Their changes:]\n```diff\n%1```\n"
                   "[Result:] %2")
                   .arg(unifiedDiff(m_lastAgentCode, code), QString::fromStdString(outcome));
    }
    m_personNotes << note;
}

void Agent::noteForNextMessage(const QString &note)
{
    m_personNotes << note;
}

void Agent::stopAfterStep()
{
    if (m_running)
        m_stopAfterStep = true;
}

void Agent::requestModel()
{
    if (m_stopAfterStep) {
        finish(QStringLiteral("stopped"));
        return;
    }
    if (const std::optional<RunBudget::Stop> stop = m_budget.check(m_options, m_turns)) {
        stopAtLimit(stop->limit, stop->status, stop->message);
        return;
    }
    ++m_turns;
    m_streamingIds.clear();
    m_streamingArgs.clear();
    m_streamingNames.clear();
    m_streamingCode.clear();
    m_streamingEdits.clear();
    m_codeChanged.clear();
    const QList<ToolSpec> tools = m_codeBlockMode ? QList<ToolSpec>() : m_tools.specs();
    if (m_options.contextTokens <= 0) {
        m_budget.noteEstimate(0);
        m_client->send(m_messages, tools);
        return;
    }
    // Leave a quarter of the window for the tool definitions and the answer.
    const ContextBudget::Compacted fitted = ContextBudget::compact(
        m_messages, m_options.contextTokens * 3 / 4, m_budget.tokenRatio());
    m_budget.noteEstimate(ContextBudget::estimateTokens(fitted.messages));
    if (fitted.summarisedToolResults + fitted.shortenedToolCalls > 0)
        Q_EMIT contextCompacted(fitted.summarisedToolResults + fitted.shortenedToolCalls,
                                fitted.estimatedTokens);
    m_client->send(fitted.messages, tools);
}

void Agent::stopAtLimit(const QString &limit, const QString &status, const QString &message)
{
    m_limit = limit;
    Q_EMIT errorOccurred(limit, message);
    finish(status);
}

void Agent::setInstalledPackages(const QString &packages)
{
    m_installedPackages = packages;
    setSystemPrompt();
}

void Agent::setSystemPrompt()
{
    if (m_messages.isEmpty() || m_messages.constFirst().role != Message::Role::System)
        return;
    m_messages.first().text
        = m_options.systemPrompt + AgentOptions::packagesSection(m_installedPackages)
          + (m_codeBlockMode ? AgentOptions::codeBlockInstructions() : QString());
}

void Agent::switchToCodeBlocks()
{
    m_codeBlockMode = true;
    setSystemPrompt();
}

void Agent::onCompletion(const Completion &received)
{
    if (!m_running)
        return;
    // The calls are complete: their code is shown whole from here, never a part of it again.
    m_codeChanged.clear();
    m_codeFrame.stop();
    m_refusedCallsInARow = 0;
    Completion completion = received;
    if (completion.usage.isKnown()) {
        m_budget.addUsage(completion.usage);
        m_lastUsage = completion.usage;
        Q_EMIT usage(completion.usage.promptTokens,
                     completion.usage.completionTokens,
                     m_budget.tokensUsed(),
                     m_budget.cost(m_options.profile));
    }

    // A model that printed its tool call as JSON text meant to make it.
    if (completion.toolCalls.isEmpty()) {
        std::optional<ToolCall> textCall = toolCallFromText(completion.text, m_tools.names());
        if (textCall) {
            textCall->id = QStringLiteral("call_text_%1").arg(++m_textCalls);
            completion.toolCalls = {*textCall};
            if (!m_codeBlockMode)
                completion.text.clear();
        }
    }
    if (m_codeBlockMode) {
        appendMessage(Message::assistant(completion.text, completion.reasoning));
        queueCodeBlockCalls(completion);
    } else {
        Message reply
            = Message::assistant(completion.text, completion.reasoning, completion.toolCalls);
        reply.reasoningSignature = completion.reasoningSignature;
        appendMessage(reply);
        for (const ToolCall &call : std::as_const(completion.toolCalls))
            m_pendingCalls.enqueue(call);
    }
    if (m_pendingCalls.isEmpty()) {
        finish(QStringLiteral("answered"));
        return;
    }
    executeNext();
}

void Agent::queueCodeBlockCalls(const Completion &completion)
{
    // The answer's ```python blocks are its calls; a call it printed as JSON counts only
    // when there is no block.
    const QList<ToolCall> blocks = pythonBlockCalls(completion.text, m_turns);
    for (const ToolCall &call : blocks.isEmpty() ? completion.toolCalls : blocks)
        m_pendingCalls.enqueue(call);
}

void Agent::stop()
{
    if (!m_running)
        return;
    m_running = false; // from here on, late signals only record, they do not continue
    if (m_awaiting) {
        addToolMessage(m_awaiting->call.id,
                       Tools::errorJson(QStringLiteral("not run: the person stopped the agent")));
        m_awaiting.reset();
    }
    const bool modelWasStreaming = m_client->isBusy();
    m_client->cancel();
    if (modelWasStreaming) {
        // Keep what the model said before the stop; its unfinished tool calls are dropped.
        const Completion partial = m_client->partial();
        if (!partial.text.isEmpty())
            appendMessage(Message::assistant(partial.text, partial.reasoning));
    }
    if (!m_activeToolId.isEmpty()) {
        const QString id = m_activeToolId;
        m_session->release(); // its finished(killed) records the tool result
        if (m_activeToolId == id) {
            m_activeToolId.clear();
            addToolMessage(id, Tools::errorJson(QStringLiteral("stopped by the person")));
        }
    }
    if (!m_hostCallId.isEmpty()) {
        if (const Tool *tool = std::exchange(m_hostTool, nullptr))
            tool->abandon();
        addToolMessage(std::exchange(m_hostCallId, QString()),
                       Tools::errorJson(QStringLiteral("stopped by the person")));
    }
    if (m_announced)
        addToolMessage(std::exchange(m_announced, std::nullopt)->id,
                       Tools::errorJson(QStringLiteral("not run: the person stopped the agent")));
    // Every tool call needs an answer, or the next request is refused by strict servers.
    while (!m_pendingCalls.isEmpty())
        addToolMessage(m_pendingCalls.dequeue().id,
                       Tools::errorJson(QStringLiteral("not run: the person stopped the agent")));
    Q_EMIT finished(QStringLiteral("stopped"), m_turns);
}

void Agent::finish(const QString &status)
{
    if (!m_running)
        return;
    m_running = false;
    m_pendingCalls.clear();
    m_announced.reset();
    m_activeToolId.clear();
    m_hostCallId.clear();
    Q_EMIT finished(status, m_turns);
}

} // namespace Sandcastle
