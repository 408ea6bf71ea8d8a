// The agent's part in carrying out the model's tool calls: one at a time, in order, each
// answered exactly once — run in the sandbox (after the person's approval in ask-first mode),
// answered by a host tool, or refused with the reason. (Split from agent.cpp.)
#include "agent.h"

#include "tools.h"
#include "unifieddiff.h"

#include <sandbox/sandboxsession.h>

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace Sandcastle {

void Agent::stopCode()
{
    if (!m_running || m_activeToolId.isEmpty())
        return;
    m_codeStoppedByPerson = true;
    m_session->interrupt();
}

void Agent::approve(const QString &code)
{
    if (!m_running || !m_awaiting)
        return;
    const Awaiting waiting = *std::exchange(m_awaiting, std::nullopt);
    if (waiting.tool->asking() == Tool::Asking::OncePerConversation)
        m_approvedGroups.insert(waiting.tool->approvalGroup());
    if (!waiting.run) {
        invokeHostTool(waiting.call, *waiting.tool, waiting.arguments);
        return;
    }
    SandboxRun run = *waiting.run;
    if (code != run.code) {
        m_editNote = QStringLiteral("The person edited your code before it ran:\n")
                     + unifiedDiff(run.code, code, QStringLiteral("yours"), QStringLiteral("ran"));
        run.code = code;
    }
    runCode(waiting.call.id, run);
}

void Agent::runCode(const QString &id, const SandboxRun &run)
{
    m_activeToolId = id; // onSessionFinished() answers this call
    Q_EMIT runStarted(id, run.language, run.code);
    switch (run.language) {
    case SandboxRun::Language::Shell:
        m_session->runShell(run.code, run.timeoutMs);
        break;
    case SandboxRun::Language::Python:
        m_session->runPython(run.code, run.timeoutMs);
        break;
    }
}

void Agent::reject(const QString &reason)
{
    if (!m_running || !m_awaiting)
        return;
    const Awaiting waiting = *std::exchange(m_awaiting, std::nullopt);
    const QString declined
        = waiting.run
              ? QStringLiteral("The person declined to run this code")
              : QStringLiteral("The person declined this call of %1").arg(waiting.call.name);
    recordToolResult(
        waiting.call.id,
        Tools::errorJson(declined
                         + (reason.isEmpty() ? QString() : QStringLiteral(": ") + reason)));
    executeNext();
}

void Agent::executeNext()
{
    if (!m_running)
        return;
    if (m_pendingCalls.isEmpty()) {
        if (m_codeBlockMode && !m_blockResults.isEmpty()) {
            const QString content
                = QStringLiteral("Output of your code:\n") + m_blockResults.join(QLatin1Char('\n'));
            m_blockResults.clear();
            appendMessage(Message::user(content));
        }
        requestModel();
        return;
    }
    const ToolCall call = m_pendingCalls.dequeue();
    // Read and carried out on the loop's next turn: showing a megabyte call and parsing it are
    // then two short waits for the window rather than one long one. A stop in between (even
    // from a listener of toolCall()) answers it.
    m_announced = call;
    Q_EMIT toolCall(call.id, call.name, call.arguments);
    if (!m_running)
        return;
    // (A zero timer, not a queued call: posted events are all delivered in one pass, and
    // input waiting meanwhile would not come between.)
    QTimer::singleShot(0, this, &Agent::dispatchAnnounced);
}

void Agent::dispatchAnnounced()
{
    if (!m_announced || !m_running)
        return; // a stop answered it
    const ToolCall call = *m_announced;
    if (call.arguments.size() <= ParseHereChars) {
        m_announced.reset();
        carryOut(call, parseToolArguments(call.name, call.arguments));
        return;
    }
    // A megabyte of arguments takes the JSON parser 25-50 ms: on a worker thread, the window
    // answering meanwhile.
    using Parsed = std::shared_ptr<Result<nlohmann::json>>;
    const quint64 serial = ++m_parses;
    auto *watcher = new QFutureWatcher<Parsed>(this);
    connect(watcher, &QFutureWatcher<Parsed>::finished, this, [this, watcher, serial, call] {
        watcher->deleteLater();
        if (serial != m_parses || !m_running || !m_announced || m_announced->id != call.id)
            return; // a stop answered it
        m_announced.reset();
        carryOut(call, *watcher->result());
    });
    watcher->setFuture(QtConcurrent::run([name = call.name, arguments = call.arguments] {
        return std::make_shared<Result<nlohmann::json>>(parseToolArguments(name, arguments));
    }));
}

void Agent::carryOut(const ToolCall &call, const Result<nlohmann::json> &arguments)
{
    const Result<const Tool *> tool = m_tools.lookup(call.name);
    if (!arguments || !tool) {
        recordToolResult(call.id, Tools::errorJson(!arguments ? arguments.error() : tool.error()));
        executeNext();
        return;
    }
    dispatch(call, *tool.value(), arguments.value());
}

bool Agent::asksFirst(const Tool &tool) const
{
    switch (tool.asking()) {
    case Tool::Asking::Always:
        return true;
    case Tool::Asking::OncePerConversation:
        return !m_approvedGroups.contains(tool.approvalGroup());
    case Tool::Asking::Never:
        return false;
    case Tool::Asking::ByAskFirst:
        break;
    }
    return m_options.askFirst && tool.needsApproval();
}

void Agent::dispatch(const ToolCall &call, const Tool &tool, const nlohmann::json &arguments)
{
    const bool ask = asksFirst(tool);
    if (call.name == QLatin1String("edit_file") && arguments.is_object()) {
        // The edit as it is complete (the last streamed frame may have been cut short).
        const auto text = [&arguments](const char *key) {
            const auto it = arguments.find(key);
            return it != arguments.end() && it->is_string()
                       ? QString::fromStdString(it->get<std::string>())
                       : QString();
        };
        Q_EMIT toolEditChanged(call.id, text("path"), text("old_text"), text("new_text"));
    }
    if (tool.place() == Tool::Place::Host) {
        if (ask) {
            m_awaiting = Awaiting{call, &tool, arguments, std::nullopt};
            Q_EMIT approvalRequested(call.id, call.name, call.arguments);
            return;
        }
        invokeHostTool(call, tool, arguments);
        return;
    }
    const Result<SandboxRun> run = tool.sandboxRun(arguments);
    if (!run) {
        recordToolResult(call.id, Tools::errorJson(run.error()));
        executeNext();
        return;
    }
    if (run.value().language == SandboxRun::Language::Python) {
        m_lastAgentCode = run.value().code;
        Q_EMIT toolCodeChanged(call.id, run.value().code);
    }
    if (ask) {
        m_awaiting = Awaiting{call, &tool, arguments, run.value()};
        Q_EMIT approvalRequested(call.id, call.name, run.value().code);
        return;
    }
    runCode(call.id, run.value());
}

void Agent::invokeHostTool(const ToolCall &call, const Tool &tool, const nlohmann::json &arguments)
{
    m_hostCallId = call.id;
    m_hostTool = &tool;
    const quint64 serial = ++m_hostCalls;
    QPointer<Agent> self(this);
    const SandboxConfig &sandbox = m_session->config();
    const ToolContext context{sandbox.workspace,
                              &m_ledger,
                              sandbox.workspaceReadOnly ? sandbox.workspaceNote : QString()};
    const bool shown = tool.showsOutput();
    tool.invoke(
        arguments, context, [self, serial, shown, id = call.id](const nlohmann::json &result) {
            // A late answer for a call that a stop has already answered is dropped.
            if (!self || self->m_hostCalls != serial || self->m_hostCallId != id)
                return;
            if (shown) {
                for (const char *key : {"stdout", "error"}) {
                    const auto text = result.find(key);
                    if (text != result.end() && text->is_string() && !text->empty())
                        Q_EMIT self->toolOutput(id,
                                                *key == 's' ? OutputStream::Stdout
                                                            : OutputStream::Stderr,
                                                QString::fromStdString(text->get<std::string>()));
                }
            }
            self->m_hostCallId.clear();
            self->m_hostTool = nullptr;
            self->recordToolResult(id, result);
            // Go on from the event loop, not from inside the tool's call.
            QMetaObject::invokeMethod(self, &Agent::executeNext, Qt::QueuedConnection);
        });
}

void Agent::recordToolResult(const QString &id, const nlohmann::json &result, bool announce)
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
                            toolResultStatusOf(result),
                            QString::fromStdString(result.value("error", std::string())),
                            files);
    }
    m_budget.noteToolResult(result);
    addToolMessage(id, result);
}

void Agent::onSessionFinished(const ExecutionResult &result)
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

void Agent::addToolMessage(const QString &id, const nlohmann::json &content)
{
    const QString text = QString::fromStdString(content.dump());
    if (m_codeBlockMode) {
        m_blockResults << text;
        return;
    }
    appendMessage(Message::toolResult(id, text));
}

} // namespace Sandcastle
