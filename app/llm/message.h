#pragma once

#include <nlohmann/json.hpp>

#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

namespace Sandcastle {

// The model types the agent, the context budget and the store work with. No wire format
// shows through them: each model client turns them into its own request and its stream back
// into them (architecture.md §3, model formats).

struct ToolCall
{
    QString id;
    QString name;
    QString arguments; // JSON text as the model wrote it

    bool operator==(const ToolCall &other) const
    {
        return id == other.id && name == other.name && arguments == other.arguments;
    }
    bool operator!=(const ToolCall &other) const { return !(*this == other); }
};

// One message of a conversation. An assistant message may carry tool calls (its text may then
// be empty); a tool message answers one call, named by toolCallId. Reasoning is what the model
// thought aloud: kept and stored, never sent back as text.
struct Message
{
    enum class Role { System, User, Assistant, Tool };

    Role role = Role::User;
    QString text;
    QString reasoning;
    QList<ToolCall> toolCalls; // assistant
    QString toolCallId;        // tool
    // Anthropic's signature of the reasoning, sent back with it while a tool loop goes on.
    // Opaque, in memory only: not stored and not part of equality.
    QString reasoningSignature;

    static Message system(const QString &text) { return {Role::System, text, {}, {}, {}, {}}; }
    static Message user(const QString &text) { return {Role::User, text, {}, {}, {}, {}}; }
    static Message assistant(const QString &text,
                             const QString &reasoning = QString(),
                             const QList<ToolCall> &calls = {})
    {
        return {Role::Assistant, text, reasoning, calls, {}, {}};
    }
    static Message toolResult(const QString &callId, const QString &text)
    {
        return {Role::Tool, text, {}, {}, callId, {}};
    }

    bool operator==(const Message &other) const
    {
        return role == other.role && text == other.text && reasoning == other.reasoning
               && toolCalls == other.toolCalls && toolCallId == other.toolCallId;
    }
    bool operator!=(const Message &other) const { return !(*this == other); }
};

// "system", "user", "assistant", "tool": the names the store and `chat --json` use.
QString roleName(Message::Role role);
std::optional<Message::Role> roleFromName(const QString &name);

// Tokens one model turn used, as the server counted them; -1 where it did not say.
struct Usage
{
    int promptTokens = -1;
    int completionTokens = -1;
    int cachedPromptTokens = -1; // part of promptTokens the server had cached
    int cacheWriteTokens = -1;   // part of promptTokens written to the cache (Anthropic)

    bool isKnown() const { return promptTokens >= 0 || completionTokens >= 0; }
};

// One complete assistant turn, put together from a stream.
struct Completion
{
    QString text;
    QString reasoning;
    QString reasoningSignature; // Anthropic's, for sending the reasoning back
    QList<ToolCall> toolCalls;
    QString finishReason;
    Usage usage;
};

// A tool as the model is told of it; each client wraps it in its format's tool list.
struct ToolSpec
{
    QString name;
    QString description;
    nlohmann::json parameters; // a JSON Schema of the arguments object
};

} // namespace Sandcastle

Q_DECLARE_METATYPE(Sandcastle::Completion)
