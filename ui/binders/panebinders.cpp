#include "panebinders.h"

#include <app/agent/unifieddiff.h>
#include <ui/chat/chatpane.h>
#include <ui/console/consolepane.h>
#include <ui/editor/codeeditor.h>
#include <ui/editor/editorpane.h>
#include <ui/files/filespane.h>
#include <ui/widgets/approvalbar.h>

#include <app/agent/agent.h>
#include <app/agent/unifieddiff.h>
#include <app/controller/conversationcontroller.h>
#include <app/mcp/mcptool.h>
#include <sandbox/sandboxsession.h>

#include <QCoreApplication>

namespace Sandcastle::PaneBinders {

namespace {
// Strings keep the window's translation context (Sandcastle::MainWindow), where their
// translations are.

void bindChatToAgent(Agent *agent, ChatPane *chat)
{
    QObject::connect(agent, &Agent::textDelta, chat, &ChatPane::appendAssistantText);
    QObject::connect(agent, &Agent::reasoningDelta, chat, &ChatPane::appendReasoning);
    QObject::connect(agent, &Agent::toolCallStarted, chat, &ChatPane::endAssistantMessage);
    QObject::connect(agent, &Agent::toolCall, chat, &ChatPane::addToolCall);
    QObject::connect(
        agent, &Agent::toolResult, chat, [chat](const QString &id, const ExecutionResult &r) {
            chat->addToolResult(
                id, ExecutionResult::statusName(r.status), r.exitCode, r.durationMs, r.files);
        });
    QObject::connect(
        agent,
        &Agent::toolAnswered,
        chat,
        [chat](
            const QString &id, ToolResultStatus status, const QString &, const QStringList &files) {
            chat->addToolResult(
                id, toolResultStatusName(status), status == ToolResultStatus::Ok ? 0 : 1, 0, files);
        });
    QObject::connect(
        agent, &Agent::retrying, chat, [chat](int attempt, int delayMs, const QString &reason) {
            chat->addNotice(
                QCoreApplication::translate("Sandcastle::MainWindow",
                                            "Model busy, retrying in %1 s (attempt %2): %3")
                    .arg(delayMs / 1000.0, 0, 'f', 1)
                    .arg(attempt)
                    .arg(reason));
        });
    QObject::connect(
        agent, &Agent::contextCompacted, chat, [chat](int summarised, qint64 estimatedTokens) {
            chat->addNotice(
                QCoreApplication::translate(
                    "Sandcastle::MainWindow",
                    "%n older tool result(s) summarised so that the conversation fits the "
                    "model's context window (about %1 tokens now).",
                    nullptr,
                    summarised)
                    .arg(estimatedTokens));
        });
    QObject::connect(agent, &Agent::finished, chat, [chat] {
        chat->endAssistantMessage();
        chat->setBusy(false);
    });
}
} // namespace

void bindChat(ConversationController *controller, ChatPane *chat)
{
    bindChatToAgent(controller->agent(), chat);
    QObject::connect(controller,
                     &ConversationController::agentError,
                     chat,
                     [chat](const QString &, const QString &message, bool retryable) {
                         chat->addError(message, retryable);
                     });
    QObject::connect(controller,
                     &ConversationController::storeProblem,
                     chat,
                     [chat](const QString &message) { chat->addError(message); });
    QObject::connect(controller,
                     &ConversationController::mcpProblem,
                     chat,
                     [chat](const QString &server, const QString &message) {
                         chat->addNotice(
                             QCoreApplication::translate("Sandcastle::MainWindow",
                                                         "MCP server \"%1\": %2 — its tools are "
                                                         "left out until it starts again.")
                                 .arg(server, message));
                     });
    QObject::connect(controller,
                     &ConversationController::conversationSwitched,
                     chat,
                     [chat, controller](const QString &, const nlohmann::json &messages) {
                         chat->clearTranscript();
                         chat->setWorkspace(controller->workspace());
                         chat->showHistory(messages);
                     });
    chat->setWorkspace(controller->workspace());
    QObject::connect(chat, &ChatPane::retryRequested, controller, [controller, chat] {
        if (controller->resume())
            chat->setBusy(true);
    });
    QObject::connect(chat, &ChatPane::stopRequested, controller, &ConversationController::stop);
    QObject::connect(
        chat, &ChatPane::stopCodeRequested, controller, &ConversationController::stopCode);
    QObject::connect(
        chat, &ChatPane::stopAfterStepRequested, controller->agent(), &Agent::stopAfterStep);
}

void bindEditor(ConversationController *controller, EditorPane *pane, ApprovalBar *approvalBar)
{
    Agent *agent = controller->agent();
    CodeEditor *editor = pane->editor();
    QObject::connect(
        agent, &Agent::toolCallStarted, pane, [pane, editor](const QString &, const QString &name) {
            if (name != QLatin1String("run_python") && name != QLatin1String("edit_file"))
                return;
            pane->showAgentTab();
            editor->setLanguage(name == QLatin1String("edit_file") ? QStringLiteral("diff")
                                                                   : QStringLiteral("python"));
            editor->setAgentWriting(true);
            editor->showStreamingCode(QString());
        });
    QObject::connect(
        agent, &Agent::toolCodeChanged, editor, [editor](const QString &, const QString &code) {
            editor->showStreamingCode(code);
        });
    // An edit streams in as the diff it makes (the file is changed only when it is complete).
    QObject::connect(
        agent,
        &Agent::toolEditChanged,
        editor,
        [editor](
            const QString &, const QString &path, const QString &oldText, const QString &newText) {
            const QString name = path.isEmpty() ? QStringLiteral("file") : path;
            editor->showStreamingCode(oldText.isNull() ? QStringLiteral("--- a/%1\n").arg(name)
                                                       : unifiedDiff(oldText,
                                                                     newText,
                                                                     QStringLiteral("a/") + name,
                                                                     QStringLiteral("b/") + name,
                                                                     2));
        });
    QObject::connect(agent, &Agent::toolCall, editor, [editor] { editor->setAgentWriting(false); });
    QObject::connect(agent,
                     &Agent::runStarted,
                     pane,
                     [pane](const QString &id, SandboxRun::Language language, const QString &code) {
                         if (language == SandboxRun::Language::Python)
                             pane->addAttempt(code, id);
                     });
    QObject::connect(
        agent, &Agent::toolResult, pane, [pane](const QString &id, const ExecutionResult &r) {
            pane->setCallStatus(id, ExecutionResult::statusName(r.status));
        });
    QObject::connect(
        agent, &Agent::toolAnswered, pane, [pane](const QString &id, ToolResultStatus status) {
            pane->setCallStatus(id, toolResultStatusName(status));
        });
    QObject::connect(agent,
                     &Agent::approvalRequested,
                     approvalBar,
                     [editor, approvalBar, controller](
                         const QString &, const QString &name, const QString &code) {
                         editor->setAgentWriting(false);
                         const auto *mcp = dynamic_cast<const McpTool *>(
                             controller->agent()->tools().find(name));
                         if (mcp) { // the call's arguments, in the bar: the editor keeps its code
                             approvalBar->askForMcpCall(mcp->serverName(), mcp->toolName(), code);
                             return;
                         }
                         editor->setText(code);
                         approvalBar->askToRunCode();
                         editor->setFocus();
                     });
    QObject::connect(agent, &Agent::finished, approvalBar, [editor, approvalBar] {
        approvalBar->hide();
        editor->setAgentWriting(false);
    });
    QObject::connect(
        controller, &ConversationController::conversationSwitched, pane, [pane] { pane->reset(); });
}

void bindConsole(ConversationController *controller, ConsolePane *console)
{
    Agent *agent = controller->agent();
    SandboxSession *session = controller->session();
    QObject::connect(agent,
                     &Agent::toolCall,
                     console,
                     [console](const QString &, const QString &name) { console->beginRun(name); });
    QObject::connect(agent,
                     &Agent::toolOutput,
                     console,
                     [console](const QString &, OutputStream stream, const QString &text) {
                         console->appendOutput(stream, text);
                     });
    QObject::connect(agent,
                     &Agent::toolResult,
                     console,
                     [console](const QString &, const ExecutionResult &r) { console->endRun(r); });
    // Runs the person starts from the editor share the session with the agent.
    QObject::connect(session,
                     &SandboxSession::outputReady,
                     console,
                     [console, controller](OutputStream stream, const QString &text) {
                         if (controller->isPersonRunning())
                             console->appendOutput(stream, text);
                     });
    QObject::connect(controller, &ConversationController::personRunStarted, console, [console] {
        console->beginRun(QCoreApplication::translate("Sandcastle::MainWindow", "your code"));
    });
    QObject::connect(
        controller, &ConversationController::personRunFinished, console, &ConsolePane::endRun);
    QObject::connect(controller, &ConversationController::sandboxRestarted, console, [console] {
        console->beginRun(QCoreApplication::translate("Sandcastle::MainWindow",
                                                      "sandbox restarted with the new settings"));
    });
    QObject::connect(
        session, &SandboxSession::errorOccurred, console, [console](const QString &message) {
            console->appendOutput(OutputStream::Stderr, message + QLatin1Char('\n'));
        });
    QObject::connect(
        controller, &ConversationController::conversationSwitched, console, &ConsolePane::clear);
}

void bindFiles(ConversationController *controller, FilesPane *files)
{
    Agent *agent = controller->agent();
    QObject::connect(
        agent, &Agent::toolResult, files, [files](const QString &, const ExecutionResult &r) {
            files->highlight(r.files);
        });
    QObject::connect(
        agent,
        &Agent::toolAnswered,
        files,
        [files](const QString &, ToolResultStatus, const QString &, const QStringList &changed) {
            if (!changed.isEmpty())
                files->highlight(changed);
        });
    QObject::connect(controller,
                     &ConversationController::personRunFinished,
                     files,
                     [files](const ExecutionResult &r) { files->highlight(r.files); });
    QObject::connect(controller,
                     &ConversationController::conversationSwitched,
                     files,
                     [files, controller] { files->setRoot(controller->workspace()); });
}

} // namespace Sandcastle::PaneBinders
