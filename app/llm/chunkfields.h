#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace Sandcastle {

// One tool-call fragment of a delta, as the stream sent it.
struct ToolCallDelta
{
    std::optional<qint64> index;
    QString id;
    QString name;
    bool hasArguments = false;
    QString arguments;
};

// The fields of a chat.completion.chunk that the client uses, read by a validating scanner
// that decodes only those strings and skips the rest. This is the fast path of
// StreamAccumulator (a JSON DOM costs most of the time otherwise). Whenever the chunk is
// unusual in any way the DOM path would treat specially (a non-string "arguments", a
// duplicate key, a number where a string is expected, ...) it answers `fallback`, and the
// caller parses the chunk in full instead; invalid JSON is a fallback too.
struct ChunkFields
{
    bool fallback = false;
    bool hasError = false; // a top-level "error" that is not null
    std::optional<int> promptTokens;
    std::optional<int> completionTokens;
    std::optional<int> cachedPromptTokens; // usage.prompt_tokens_details.cached_tokens
    bool hasUsage = false;
    bool hasChoice = false; // choices[0] is an object
    QString finishReason;
    bool hasDelta = false; // choices[0].delta is an object
    QString content;
    QString reasoningContent;
    QString reasoning;
    bool hasToolCalls = false;
    QList<ToolCallDelta> toolCalls;

    static ChunkFields read(const QByteArray &json);
};

} // namespace Sandcastle
