#pragma once

#include <app/llm/message.h>
#include <base/result.h>

#include <nlohmann/json.hpp>

#include <QMetaType>
#include <QString>

#include <functional>

namespace Sandcastle {

// How a tool call ended, as far as the layers above the agent need to know. The model gets
// the whole result JSON, whose "status" field names these ("ok", "error").
enum class ToolResultStatus { Ok, Error };
QString toolResultStatusName(ToolResultStatus status);
// "ok" is Ok; anything else (or no status) is an error.
ToolResultStatus toolResultStatusOf(const nlohmann::json &result);

// A call's arguments as the model wrote them, parsed: an error unless they are a JSON object.
Result<nlohmann::json> parseToolArguments(const QString &toolName, const QString &argumentsJson);

// A checked call of a sandbox tool: the code it runs and how.
struct SandboxRun
{
    enum class Language { Python, Shell };
    Language language = Language::Python;
    QString code;
    int timeoutMs = -1; // -1: the session's default
};
// "python" or "shell": how runs are named to the store and the window.
QString languageName(SandboxRun::Language language);

class FileLedger;

// What a host tool may use.
struct ToolContext
{
    QString workspace;            // the conversation's workspace folder on the host
    FileLedger *ledger = nullptr; // what the model last read of each file (may be null)
    // Why the workspace is read-only (a root-owned folder, mounted read-only for the sandbox);
    // empty when it may be written. The host's file tools then refuse to write, as the code does.
    QString readOnly = QString();
};

// One tool the model can call (architecture.md §5 "Tools offered to the model"). A sandbox tool
// says what code to run and the agent runs it in the conversation's SandboxSession (with its
// streaming output, stop and approval); a host tool answers by itself, at once or later
// (MCP). Arguments reach a tool parsed as a JSON object; a missing or mistyped field is an
// error result the model gets back to recover from.
class Tool
{
public:
    enum class Place { Sandbox, Host };
    // Called exactly once with the tool result JSON ("status", "error", "files", ...).
    using Done = std::function<void(const nlohmann::json &result)>;

    virtual ~Tool() = default;

    virtual const ToolSpec &spec() const = 0;
    virtual Place place() const = 0;
    // In ask-first mode, a call of this tool waits for the person's approval.
    virtual bool needsApproval() const = 0;
    // When a call waits for the person: as the ask-first setting says (the built-ins), or by a
    // rule of the tool's own whatever that setting says (an MCP server's policy): every call,
    // the first call of its group in each conversation, or never.
    enum class Asking { ByAskFirst, Always, OncePerConversation, Never };
    virtual Asking asking() const { return Asking::ByAskFirst; }
    // What "once per conversation" counts by (an MCP tool: its server).
    virtual QString approvalGroup() const { return name(); }
    // A host tool whose answer the person should see as output (an MCP server's text, in the
    // console beside the runs' output); the built-in file tools' answers are not.
    virtual bool showsOutput() const { return false; }
    // A host call the agent has answered already (a stop) whose work may still go on: give it
    // up (an MCP tool cancels the request).
    virtual void abandon() const {}

    // Sandbox tools: the run this call asks for.
    virtual Result<SandboxRun> sandboxRun(const nlohmann::json &arguments) const;
    // Host tools: carries the call out and answers through `done`.
    virtual void
    invoke(const nlohmann::json &arguments, const ToolContext &context, const Done &done) const;

    const QString &name() const { return spec().name; }
};

} // namespace Sandcastle

Q_DECLARE_METATYPE(Sandcastle::ToolResultStatus)
Q_DECLARE_METATYPE(Sandcastle::SandboxRun::Language)
