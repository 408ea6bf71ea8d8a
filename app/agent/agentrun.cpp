#include "agentrun.h"

#include "contextbudget.h"
#include "filetools.h"
#include "textcalls.h"
#include "tools.h"
#include "unifieddiff.h"

#include <app/llm/chatclient.h>
#include <app/llm/partialjson.h>
#include <sandbox/sandboxsession.h>

namespace Sandcastle {

QString AgentOptions::defaultSystemPrompt()
{
    return QStringLiteral(
        "You are Sandcastle, a careful coding assistant. You can run Python (run_python, a "
        "stateful kernel) and shell commands (run_shell), and write, read and list files "
        "(write_file, read_file, list_files) in a sandbox with no network; the working "
        "directory is /workspace, and files you save there are shown to the person. numpy, "
        "pandas and matplotlib are installed. When a question "
        "needs computation, data or a file, write code and run it instead of guessing, read the "
        "output, fix mistakes and try again. When you have the answer, reply briefly and plainly "
        "without calling a tool.");
}

QString AgentOptions::codeBlockInstructions()
{
    return QStringLiteral(
        "\n\nThis server cannot make tool calls. To run Python, put the code in one fenced "
        "```python block and stop; the next message will give you its output. Reply without a "
        "```python block when you have the answer.");
}

AgentRun::AgentRun(ChatClient *client,
                   SandboxSession *session,
                   AgentOptions options,
                   QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_session(session)
    , m_options(std::move(options))
    , m_codeBlockMode(m_options.toolMode == AgentOptions::ToolMode::CodeBlocks)
{
    connect(client, &ChatClient::textDelta, this, [this](const QString &t) {
        if (m_running)
            Q_EMIT textDelta(t);
    });
    connect(client, &ChatClient::reasoningDelta, this, [this](const QString &t) {
        if (m_running)
            Q_EMIT reasoningDelta(t);
    });
    connect(client,
            &ChatClient::toolCallStarted,
            this,
            [this](int index, const QString &id, const QString &name) {
                if (!m_running)
                    return;
                const QString callId = id.isEmpty() ? QStringLiteral("call_%1").arg(index) : id;
                m_streamingIds.insert(index, callId);
                m_streamingArgs.insert(index, QString());
                Q_EMIT toolCallStarted(callId, name);
            });
    connect(
        client, &ChatClient::toolArgumentsDelta, this, [this](int index, const QString &fragment) {
            if (!m_running)
                return;
            QString &args = m_streamingArgs[index];
            args += fragment;
            const QString code = partialJsonStringField(args, QStringLiteral("code"));
            if (!code.isNull())
                Q_EMIT toolCodeChanged(m_streamingIds.value(index), code);
        });
    connect(client, &ChatClient::finished, this, &AgentRun::onCompletion);
    connect(client,
            &ChatClient::retrying,
            this,
            [this](int attempt, int delayMs, const QString &reason) {
                if (m_running)
                    Q_EMIT retrying(attempt, delayMs, reason);
            });
    connect(client,
            &ChatClient::errorOccurred,
            this,
            [this](const QString &code, const QString &message) {
                if (!m_running)
                    return;
                // Servers without tool calling refuse the `tools` field (Ollama: "does not
                // support tools"); in Auto mode that is a reason to switch, not to fail.
                const bool refusedTools
                    = (code == QLatin1String("bad_request")
                       || code == QLatin1String("unprocessable")
                       || code == QLatin1String("server_error"))
                      && message.contains(QLatin1String("tool"), Qt::CaseInsensitive);
                if (refusedTools && !m_codeBlockMode
                    && m_options.toolMode == AgentOptions::ToolMode::Auto) {
                    switchToCodeBlocks();
                    Q_EMIT retrying(1,
                                    0,
                                    QStringLiteral("the server does not support tool calls; "
                                                   "asking for code blocks instead"));
                    --m_turns; // the refused request does not count
                    requestModel();
                    return;
                }
                Q_EMIT errorOccurred(code, message);
                finish(QStringLiteral("error"));
            });
    connect(session,
            &SandboxSession::outputReady,
            this,
            [this](OutputStream stream, const QString &text) {
                if (!m_activeToolId.isEmpty())
                    Q_EMIT toolOutput(m_activeToolId, stream, text);
            });
    connect(session, &SandboxSession::finished, this, &AgentRun::onSessionFinished);
}

void AgentRun::start(const QString &prompt)
{
    if (m_running)
        return;
    if (m_messages.empty() && !m_options.systemPrompt.isEmpty())
        m_messages.push_back({{"role", "system"}, {"content", ""}});
    setSystemPrompt();
    // What the person did in the sandbox since the last turn comes first, so the model
    // reads the request in the light of it.
    const QString content = m_personNotes.isEmpty() ? prompt
                                                    : m_personNotes.join(QStringLiteral("\n\n"))
                                                          + QStringLiteral("\n\n") + prompt;
    m_personNotes.clear();
    m_running = true;
    appendMessage({{"role", "user"}, {"content", content.toStdString()}});
    m_tokensUsed = 0;
    m_promptTokensUsed = 0;
    m_completionTokensUsed = 0;
    m_limit.clear();
    m_awaiting.reset();
    m_editNote.clear();
    m_stopAfterStep = false;
    m_codeStoppedByPerson = false;
    m_turns = 0;
    m_identicalErrors = 0;
    m_lastErrorSignature.clear();
    requestModel();
}

bool AgentRun::resume()
{
    if (m_running || m_messages.empty())
        return false;
    const std::string role = m_messages.back().value("role", std::string());
    if (role != "user" && role != "tool")
        return false;
    m_running = true;
    m_limit.clear();
    m_stopAfterStep = false;
    m_turns = 0;
    m_identicalErrors = 0;
    m_lastErrorSignature.clear();
    requestModel();
    return true;
}

void AgentRun::loadHistory(const nlohmann::json &messages)
{
    if (m_running || !messages.is_array())
        return;
    m_messages = nlohmann::json::array();
    m_lastAgentCode.clear();
    m_personNotes.clear();
    if (!m_options.systemPrompt.isEmpty())
        m_messages.push_back({{"role", "system"}, {"content", ""}});
    QStringList unanswered; // tool call ids waiting for their result, in order
    auto answerTheRest = [&] {
        for (const QString &id : std::as_const(unanswered))
            m_messages.push_back(
                {{"role", "tool"},
                 {"tool_call_id", id.toStdString()},
                 {"content",
                  Tools::errorJson(QStringLiteral("interrupted: Sandcastle was closed before this "
                                                  "finished; its result is unknown"))
                      .dump()}});
        unanswered.clear();
    };
    for (const auto &stored : messages) {
        if (!stored.is_object() || !stored.contains("role") || !stored["role"].is_string())
            continue;
        const std::string role = stored["role"].get<std::string>();
        if (role == "system")
            continue; // the current system prompt is used
        nlohmann::json message = stored;
        message.erase("reasoning");
        if (role == "tool") {
            const QString id = QString::fromStdString(message.value("tool_call_id", std::string()));
            if (!unanswered.removeOne(id))
                continue; // a result without its call would be refused
        } else {
            answerTheRest();
        }
        if (role == "assistant" && message.contains("tool_calls")
            && message["tool_calls"].is_array()) {
            for (const auto &call : message["tool_calls"]) {
                unanswered << QString::fromStdString(call.value("id", std::string()));
                const auto fn = call.find("function");
                if (fn == call.end() || fn->value("name", std::string()) != "run_python")
                    continue;
                const nlohmann::json args
                    = nlohmann::json::parse(fn->value("arguments", std::string()), nullptr, false);
                if (args.is_object() && args.contains("code") && args["code"].is_string())
                    m_lastAgentCode = QString::fromStdString(args["code"].get<std::string>());
            }
        }
        m_messages.push_back(std::move(message));
    }
    answerTheRest();
    setSystemPrompt();
}

void AgentRun::appendMessage(nlohmann::json message, const QString &reasoning)
{
    m_messages.push_back(message);
    const auto content = message.find("content");
    const QString text = content != message.end() && content->is_string()
                             ? QString::fromStdString(content->get<std::string>())
                             : QString();
    Q_EMIT messageAdded(QString::fromStdString(message.value("role", std::string())), text);
    if (!reasoning.isEmpty())
        message["reasoning"] = reasoning.toStdString();
    Q_EMIT messageRecorded(message);
}

void AgentRun::setOptions(const AgentOptions &options)
{
    m_options = options;
    if (!m_running && m_options.toolMode != AgentOptions::ToolMode::Auto)
        m_codeBlockMode = m_options.toolMode == AgentOptions::ToolMode::CodeBlocks;
}

void AgentRun::notePersonRun(const QString &code, const ExecutionResult &result)
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

void AgentRun::stopCode()
{
    if (!m_running || m_activeToolId.isEmpty())
        return;
    m_codeStoppedByPerson = true;
    m_session->interrupt();
}

void AgentRun::approve(const QString &code)
{
    if (!m_running || !m_awaiting)
        return;
    const Awaiting waiting = *std::exchange(m_awaiting, std::nullopt);
    if (code != waiting.code) {
        m_editNote
            = QStringLiteral("The person edited your code before it ran:\n")
              + unifiedDiff(waiting.code, code, QStringLiteral("yours"), QStringLiteral("ran"));
    }
    runCode(waiting.call.id, waiting.shell, code, waiting.timeoutMs);
}

void AgentRun::runCode(const QString &id, bool shell, const QString &code, int timeoutMs)
{
    m_activeToolId = id; // onSessionFinished() answers this call
    Q_EMIT runStarted(id, shell ? QStringLiteral("shell") : QStringLiteral("python"), code);
    if (shell)
        m_session->runShell(code, timeoutMs);
    else
        m_session->runPython(code, timeoutMs);
}

void AgentRun::reject(const QString &reason)
{
    if (!m_running || !m_awaiting)
        return;
    const Awaiting waiting = *std::exchange(m_awaiting, std::nullopt);
    recordToolResult(
        waiting.call.id,
        Tools::errorJson(QStringLiteral("The person declined to run this code")
                         + (reason.isEmpty() ? QString() : QStringLiteral(": ") + reason)));
    executeNext();
}

void AgentRun::stopAfterStep()
{
    if (m_running)
        m_stopAfterStep = true;
}

void AgentRun::requestModel()
{
    if (m_stopAfterStep) {
        finish(QStringLiteral("stopped"));
        return;
    }
    if (m_identicalErrors >= kMaxIdenticalErrors) {
        stopAtLimit(QStringLiteral("repeated_error"),
                    QStringLiteral("error"),
                    QStringLiteral("Stopped: the last %1 tool results were the same error, so the "
                                   "agent was going round in circles. Change the request or the "
                                   "code and ask again.")
                        .arg(kMaxIdenticalErrors));
        return;
    }
    if (m_options.tokenBudget > 0 && m_tokensUsed >= m_options.tokenBudget) {
        stopAtLimit(QStringLiteral("token_budget"),
                    QStringLiteral("error"),
                    QStringLiteral("Stopped: this run used %1 tokens, over its budget of %2 (raise "
                                   "the token budget in the settings).")
                        .arg(m_tokensUsed)
                        .arg(m_options.tokenBudget));
        return;
    }
    if (m_options.costBudgetUsd > 0) {
        if (!m_options.profile.hasPrice()) {
            stopAtLimit(QStringLiteral("cost_budget"),
                        QStringLiteral("error"),
                        QStringLiteral("Stopped: a cost budget is set, but the price of this model "
                                       "is not known, so the cost cannot be kept under it. Add the "
                                       "model to models.json in the data folder, or clear the "
                                       "cost budget."));
            return;
        }
        const double spent = m_options.profile.cost(m_promptTokensUsed, m_completionTokensUsed);
        if (spent >= m_options.costBudgetUsd) {
            stopAtLimit(QStringLiteral("cost_budget"),
                        QStringLiteral("error"),
                        QStringLiteral("Stopped: this run cost $%1, over its budget of $%2 (raise "
                                       "the cost budget in the settings).")
                            .arg(spent, 0, 'f', 4)
                            .arg(m_options.costBudgetUsd, 0, 'f', 4));
            return;
        }
    }
    if (m_turns >= m_options.maxTurns) {
        stopAtLimit(QStringLiteral("max_turns"),
                    QStringLiteral("max_turns"),
                    QStringLiteral("Stopped after %1 model turns without an answer (the turn "
                                   "limit; raise it in the settings or with --max-turns).")
                        .arg(m_options.maxTurns));
        return;
    }
    ++m_turns;
    m_streamingIds.clear();
    m_streamingArgs.clear();
    const nlohmann::json tools = m_codeBlockMode ? nlohmann::json::array() : Tools::definitions();
    if (m_options.contextTokens <= 0) {
        m_lastEstimate = 0;
        m_client->send(m_messages, tools);
        return;
    }
    // Leave a quarter of the window for the tool definitions and the answer.
    const ContextBudget::Compacted fitted
        = ContextBudget::compact(m_messages, m_options.contextTokens * 3 / 4, m_tokenRatio);
    m_lastEstimate = ContextBudget::estimateTokens(fitted.messages);
    if (fitted.summarisedToolResults + fitted.shortenedToolCalls > 0)
        Q_EMIT contextCompacted(fitted.summarisedToolResults + fitted.shortenedToolCalls,
                                fitted.estimatedTokens);
    m_client->send(fitted.messages, tools);
}

void AgentRun::stopAtLimit(const QString &limit, const QString &status, const QString &message)
{
    m_limit = limit;
    Q_EMIT errorOccurred(limit, message);
    finish(status);
}

void AgentRun::setSystemPrompt()
{
    if (m_messages.empty() || m_messages[0].value("role", std::string()) != "system")
        return;
    const QString prompt = m_options.systemPrompt
                           + (m_codeBlockMode ? AgentOptions::codeBlockInstructions() : QString());
    m_messages[0]["content"] = prompt.toStdString();
}

void AgentRun::switchToCodeBlocks()
{
    m_codeBlockMode = true;
    setSystemPrompt();
}

void AgentRun::onCompletion(const ChatCompletion &received)
{
    if (!m_running)
        return;
    ChatCompletion completion = received;
    if (completion.promptTokens >= 0 || completion.completionTokens >= 0) {
        m_promptTokensUsed += qMax(0, completion.promptTokens);
        m_completionTokensUsed += qMax(0, completion.completionTokens);
        m_tokensUsed = m_promptTokensUsed + m_completionTokensUsed;
        // The server counted the request we estimated: learn how far off the estimate is.
        if (m_lastEstimate > 0 && completion.promptTokens > 0)
            m_tokenRatio
                = qBound(0.5, double(completion.promptTokens) / double(m_lastEstimate), 4.0);
        Q_EMIT usage(completion.promptTokens,
                     completion.completionTokens,
                     m_tokensUsed,
                     m_options.profile.cost(m_promptTokensUsed, m_completionTokensUsed));
    }

    // A model that printed its tool call as JSON text meant to make it.
    if (completion.toolCalls.isEmpty()) {
        std::optional<ToolCall> textCall = toolCallFromText(completion.content, Tools::toolNames());
        if (textCall) {
            textCall->id = QStringLiteral("call_text_%1").arg(++m_textCalls);
            completion.toolCalls = {*textCall};
            if (!m_codeBlockMode)
                completion.content.clear();
        }
    }
    if (m_codeBlockMode) {
        appendMessage({{"role", "assistant"}, {"content", completion.content.toStdString()}},
                      completion.reasoning);
        const QStringList blocks = extractPythonBlocks(completion.content);
        for (qsizetype i = 0; i < blocks.size(); ++i) {
            const std::string args = nlohmann::json{{"code", blocks.at(i).toStdString()}}.dump();
            m_pendingCalls.enqueue({QStringLiteral("block_%1_%2").arg(m_turns).arg(i + 1),
                                    QStringLiteral("run_python"),
                                    QString::fromStdString(args)});
        }
        if (blocks.isEmpty()) {
            for (const ToolCall &call : completion.toolCalls)
                m_pendingCalls.enqueue(call);
        }
        if (m_pendingCalls.isEmpty()) {
            finish(QStringLiteral("answered"));
            return;
        }
        executeNext();
        return;
    }

    nlohmann::json assistant
        = {{"role", "assistant"}, {"content", completion.content.toStdString()}};
    if (!completion.toolCalls.isEmpty()) {
        nlohmann::json calls = nlohmann::json::array();
        for (const ToolCall &call : completion.toolCalls) {
            calls.push_back({{"id", call.id.toStdString()},
                             {"type", "function"},
                             {"function",
                              {{"name", call.name.toStdString()},
                               {"arguments", call.arguments.toStdString()}}}});
        }
        assistant["tool_calls"] = calls;
        if (completion.content.isEmpty())
            assistant["content"] = nullptr;
    }
    appendMessage(assistant, completion.reasoning);
    if (completion.toolCalls.isEmpty()) {
        finish(QStringLiteral("answered"));
        return;
    }
    for (const ToolCall &call : completion.toolCalls)
        m_pendingCalls.enqueue(call);
    executeNext();
}

void AgentRun::executeNext()
{
    if (!m_running)
        return;
    if (m_pendingCalls.isEmpty()) {
        if (m_codeBlockMode && !m_blockResults.isEmpty()) {
            const QString content
                = QStringLiteral("Output of your code:\n") + m_blockResults.join(QLatin1Char('\n'));
            m_blockResults.clear();
            appendMessage({{"role", "user"}, {"content", content.toStdString()}});
        }
        requestModel();
        return;
    }
    const ToolCall call = m_pendingCalls.dequeue();
    Q_EMIT toolCall(call.id, call.name, call.arguments);
    const Result<Tools::Call> parsed = Tools::parseCall(call.name, call.arguments);
    if (!parsed) {
        recordToolResult(call.id, Tools::errorJson(parsed.error()));
        executeNext();
        return;
    }
    const Tools::Call &tool = parsed.value();
    const QString workspace = m_session->config().workspace;
    switch (tool.kind) {
    case Tools::Call::Kind::Python:
    case Tools::Call::Kind::Shell: {
        const bool shell = tool.kind == Tools::Call::Kind::Shell;
        if (!shell) {
            m_lastAgentCode = tool.code;
            Q_EMIT toolCodeChanged(call.id, tool.code);
        }
        if (m_options.askFirst) {
            m_awaiting = Awaiting{call, shell, tool.code, tool.timeoutMs};
            Q_EMIT approvalRequested(call.id, call.name, tool.code);
            return;
        }
        runCode(call.id, shell, tool.code, tool.timeoutMs);
        return;
    }
    case Tools::Call::Kind::WriteFile:
        recordToolResult(call.id, FileTools::writeFile(workspace, tool.path, tool.content));
        break;
    case Tools::Call::Kind::ReadFile:
        recordToolResult(call.id, FileTools::readFile(workspace, tool.path, tool.maxBytes));
        break;
    case Tools::Call::Kind::ListFiles:
        recordToolResult(call.id, FileTools::listFiles(workspace, tool.path));
        break;
    }
    // Host-side tools finish at once; go on from the event loop, not from inside this call.
    QMetaObject::invokeMethod(this, &AgentRun::executeNext, Qt::QueuedConnection);
}

void AgentRun::recordToolResult(const QString &id, const nlohmann::json &result, bool announce)
{
    if (announce) {
        QStringList files;
        if (result.contains("files") && result["files"].is_array()) {
            for (const auto &file : result["files"]) {
                if (file.is_string())
                    files << QString::fromStdString(file.get<std::string>());
            }
        }
        Q_EMIT toolAnswered(id,
                            QString::fromStdString(result.value("status", std::string("error"))),
                            QString::fromStdString(result.value("error", std::string())),
                            files);
    }
    // A result that is an error just like the last two means the model is going round in
    // circles: stop rather than burn turns.
    const bool isError = result.value("status", std::string()) != "ok";
    const std::string signature = isError ? result.value("status", std::string()) + "|"
                                                + result.value("error", std::string())
                                          : std::string();
    m_identicalErrors
        = isError && signature == m_lastErrorSignature ? m_identicalErrors + 1 : (isError ? 1 : 0);
    m_lastErrorSignature = signature;
    addToolMessage(id, result);
}

void AgentRun::onSessionFinished(const ExecutionResult &result)
{
    if (m_activeToolId.isEmpty())
        return; // a run the agent did not start (the person's, from the editor)
    const QString id = std::exchange(m_activeToolId, QString());
    Q_EMIT toolResult(id, result);
    nlohmann::json json = Tools::resultJson(result, m_options.outputLimit);
    if (!m_editNote.isEmpty())
        json["note"] = std::exchange(m_editNote, QString()).toStdString();
    if (std::exchange(m_codeStoppedByPerson, false))
        json["error"] = "stopped by the person before it finished";
    recordToolResult(id, json, false);
    executeNext();
}

void AgentRun::addToolMessage(const QString &id, const nlohmann::json &content)
{
    const std::string text = content.dump();
    if (m_codeBlockMode) {
        m_blockResults << QString::fromStdString(text);
        return;
    }
    appendMessage({{"role", "tool"}, {"tool_call_id", id.toStdString()}, {"content", text}});
}

void AgentRun::stop()
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
        const QString partial = m_client->partial().content;
        if (!partial.isEmpty())
            appendMessage({{"role", "assistant"}, {"content", partial.toStdString()}},
                          m_client->partial().reasoning);
    }
    if (!m_activeToolId.isEmpty()) {
        const QString id = m_activeToolId;
        m_session->release(); // its finished(killed) records the tool result
        if (m_activeToolId == id) {
            m_activeToolId.clear();
            addToolMessage(id, Tools::errorJson(QStringLiteral("stopped by the person")));
        }
    }
    // Every tool call needs an answer, or the next request is refused by strict servers.
    while (!m_pendingCalls.isEmpty())
        addToolMessage(m_pendingCalls.dequeue().id,
                       Tools::errorJson(QStringLiteral("not run: the person stopped the agent")));
    Q_EMIT finished(QStringLiteral("stopped"), m_turns);
}

void AgentRun::finish(const QString &status)
{
    if (!m_running)
        return;
    m_running = false;
    m_pendingCalls.clear();
    m_activeToolId.clear();
    Q_EMIT finished(status, m_turns);
}

} // namespace Sandcastle
