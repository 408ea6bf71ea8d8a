#pragma once

#include <app/agent/agentoptions.h>
#include <app/agent/fileledger.h>
#include <app/agent/runbudget.h>
#include <app/agent/toolregistry.h>
#include <app/llm/message.h>
#include <base/partialjson.h>
#include <sandbox/executionresult.h>

#include <nlohmann/json.hpp>

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QQueue>
#include <QSet>
#include <QTimer>

#include <array>
#include <map>
#include <optional>

namespace Sandcastle {

class ModelClient;
class SandboxSession;

// The agent loop of one conversation: ask the model, carry out the tool calls it makes (in
// the sandbox, or on the host), hand the results back, and repeat until the model answers
// without a tool call (or the turn limit, a stop, or an error ends it). Every run ends in
// exactly one finished(). It sees neither the model's wire format (a ModelClient turns
// Messages into requests) nor the store's (messageRecorded() carries the Message); the
// tools it offers are those of its ToolRegistry.
class Agent : public QObject
{
    Q_OBJECT
public:
    Agent(ModelClient *client,
          SandboxSession *session,
          AgentOptions options,
          QObject *parent = nullptr);

    void start(const QString &prompt);
    // After a run ended with a model error (rate limit, server down, broken connection): asks
    // the model again with the conversation as it is, without a new message. False when the
    // conversation does not wait for an answer.
    bool resume();
    // Continues a stored conversation: its messages as the store gives them back (tool calls
    // left without a result, as when the app died during a run, get one saying so, so that
    // strict servers accept the history; see historyFromStore()).
    void loadHistory(const nlohmann::json &messages);
    // New options take effect with the next start(); the tool mode only if the server has
    // not already been found to lack tool calls.
    void setOptions(const AgentOptions &options);
    // The person ran code in the conversation's sandbox (edited from the agent's, or not):
    // the next request tells the model what changed, as a diff, and what came out.
    void notePersonRun(const QString &code, const ExecutionResult &result);
    // Something the person did that the model must know before it acts again (files put back
    // by an undo, say): told with the next message.
    void noteForNextMessage(const QString &note);
    // What the sandbox's image has installed, for the system prompt (the image's label).
    void setInstalledPackages(const QString &packages);
    // Three ways to stop. stop(): everything now (the partial answer is kept, running code is
    // killed). stopCode(): only the running code; the model is told the person stopped it and
    // goes on. stopAfterStep(): let the current model turn or tool call finish, then end.
    void stop();
    void stopCode();
    void stopAfterStep();
    // Ask-first mode: runs the waiting code, as the person edited it (the model is told of
    // any change; a host tool's call runs as the model wrote it), or declines it with a
    // reason the model gets.
    void approve(const QString &code);
    void reject(const QString &reason = QString());
    bool isAwaitingApproval() const { return m_awaiting.has_value(); }
    bool isRunning() const { return m_running; }
    // The conversation as the model gets it (before fitting into the context window), the
    // system prompt first when there is one.
    const QList<Message> &messages() const { return m_messages; }
    // The tools offered to the model: the built-ins; more (MCP) may be added before a run.
    ToolRegistry &tools() { return m_tools; }
    const ToolRegistry &tools() const { return m_tools; }
    int turns() const { return m_turns; }
    // The model turn the last usage() was emitted for, with the parts of its prompt the server
    // read from its cache and wrote to it (-1 where the server did not say).
    const Usage &lastUsage() const { return m_lastUsage; }
    // The run's totals of cached and cache-written prompt tokens.
    qint64 runCachedTokens() const { return m_budget.cachedTokens(); }
    bool usesCodeBlocks() const { return m_codeBlockMode; }
    // Which limit ended the last run ("max_turns", "token_budget", "cost_budget",
    // "repeated_error"), or empty.
    QString limitReached() const { return m_limit; }

Q_SIGNALS:
    void textDelta(const QString &text);
    void reasoningDelta(const QString &text);
    void toolCallStarted(const QString &id, const QString &name);
    // The `code` argument decoded as far as it has streamed: lets the editor follow along.
    void toolCodeChanged(const QString &id, const QString &code);
    // An edit_file call as far as it has streamed: the file, the text it replaces and the new
    // text (null until each has started). Lets the editor show the edit as a diff while the
    // model writes it.
    void toolEditChanged(const QString &id,
                         const QString &path,
                         const QString &oldText,
                         const QString &newText);
    void toolCall(const QString &id, const QString &name, const QString &arguments);
    // Ask-first mode: this code waits for approve() or reject(). For a host tool that asks
    // (an MCP tool), `code` is the call's arguments as the model wrote them.
    void approvalRequested(const QString &id, const QString &name, const QString &code);
    void toolOutput(const QString &id, Sandcastle::OutputStream stream, const QString &text);
    void toolResult(const QString &id, const Sandcastle::ExecutionResult &result);
    // A call answered without a sandbox run: the host tools (the file tools), and calls
    // refused before running (unknown tool, arguments that are not JSON, declined).
    void toolAnswered(const QString &id,
                      Sandcastle::ToolResultStatus status,
                      const QString &error,
                      const QStringList &files);
    void messageAdded(const QString &role, const QString &content);
    // The same message whole, as it goes into the history (with its reasoning when the model
    // gave some): what the conversation store writes.
    void messageRecorded(const Sandcastle::Message &message);
    // Code of a tool call is about to run in the sandbox (after any approval and edit).
    void
    runStarted(const QString &id, Sandcastle::SandboxRun::Language language, const QString &code);
    // Per model turn, with the run's running totals (the budgets' counters); the cost is
    // negative when the model's price is not known, and counts cached input at its price.
    // lastUsage() holds the whole turn's counts.
    void usage(int promptTokens, int completionTokens, qint64 totalTokens, double totalCostUsd);
    // Older tool output was summarised away so that the request fits the context window.
    void contextCompacted(int summarisedResults, qint64 estimatedTokens);
    void retrying(int attempt, int delayMs, const QString &reason);
    void errorOccurred(const QString &code, const QString &message);
    void finished(const QString &status, int turns);

private:
    void connectClient(ModelClient *client);
    void onClientError(const QString &code, const QString &message);
    void requestModel();
    void onCompletion(const Completion &received);
    void queueCodeBlockCalls(const Completion &completion);
    void executeNext();
    void dispatchAnnounced();
    // The announced call, its arguments parsed: carried out, or answered with why not.
    void carryOut(const ToolCall &call, const Result<nlohmann::json> &arguments);
    static constexpr qsizetype ParseHereChars = 64 * 1024; // longer: parsed on a worker thread
    void dispatch(const ToolCall &call, const Tool &tool, const nlohmann::json &arguments);
    void invokeHostTool(const ToolCall &call, const Tool &tool, const nlohmann::json &arguments);
    // Whether this call waits for the person (the ask-first setting, or the tool's own rule).
    bool asksFirst(const Tool &tool) const;
    void onSessionFinished(const ExecutionResult &result);
    void addToolMessage(const QString &id, const nlohmann::json &content);
    // announce: say so with toolAnswered() (a sandbox run has said so with toolResult()).
    void recordToolResult(const QString &id, const nlohmann::json &result, bool announce = true);
    void runCode(const QString &id, const SandboxRun &run);
    void switchToCodeBlocks();
    void setSystemPrompt();
    void finish(const QString &status);
    void stopAtLimit(const QString &limit, const QString &status, const QString &message);
    void appendMessage(const Message &message);
    void showStreamingCode();

    QPointer<ModelClient> m_client;
    QPointer<SandboxSession> m_session;
    AgentOptions m_options;
    ToolRegistry m_tools = ToolRegistry::withBuiltIns();
    RunBudget m_budget;
    Usage m_lastUsage;
    QList<Message> m_messages;
    QQueue<ToolCall> m_pendingCalls;
    QHash<int, QString> m_streamingIds;
    QHash<int, QString> m_streamingArgs;
    QHash<int, QString> m_streamingNames;
    std::map<int, PartialJsonStringField> m_streamingCode; // the code read out of them so far
    // edit_file's path, old_text and new_text read out of its arguments so far
    std::map<int, std::array<PartialJsonStringField, 3>> m_streamingEdits;
    QSet<int> m_codeChanged; // calls whose streaming code is not shown yet
    QTimer m_codeFrame;
    QString m_activeToolId; // the sandbox run under way
    QString m_hostCallId;   // the host tool call under way
    const Tool *m_hostTool = nullptr;
    QSet<QString> m_approvedGroups; // "ask once" groups the person approved in this conversation
    quint64 m_hostCalls = 0;
    bool m_running = false;
    bool m_codeBlockMode = false;
    int m_refusedCallsInARow = 0; // tool calls the server refused (tool_call_invalid)
    QStringList m_blockResults;   // code-block mode: results go back as one user message
    int m_turns = 0;
    int m_textCalls = 0;
    QString m_lastAgentCode;
    QString m_installedPackages;
    bool m_codeStoppedByPerson = false;
    struct Awaiting
    {
        ToolCall call;
        const Tool *tool = nullptr;
        nlohmann::json arguments;
        std::optional<SandboxRun> run; // a sandbox tool's; a host tool has none
    };
    std::optional<Awaiting> m_awaiting;
    // A call announced by toolCall() whose arguments are read on the loop's next turn.
    std::optional<ToolCall> m_announced;
    FileLedger m_ledger;  // what the model last read of each file
    quint64 m_parses = 0; // the worker parse that may still carry it out
    QString m_editNote;   // the person's changes to the code about to run, for its result
    bool m_stopAfterStep = false;
    QStringList m_personNotes;
    QString m_limit;
};

} // namespace Sandcastle
