#pragma once

#include "chattypes.h"
#include "message.h"
#include "streamdecoder.h"

#include <nlohmann/json.hpp>

#include <QMap>

namespace Sandcastle {

// Anthropic's Messages API (POST /messages): the request the neutral types become, and the
// decoder of its streamed events.
namespace MessagesFormat {

// The most cache_control marks one request may carry.
constexpr int kMaxCacheMarks = 4;

// {"model", "max_tokens", "system", "messages", "tools", "stream": true} and, when the config
// has a thinking budget, "thinking". With prompt caching on, cache_control marks go on the last
// tool, the system prompt, the newest message and the one that was newest a turn ago (so that
// a turn which added many blocks still finds the previous prefix): at most kMaxCacheMarks.
nlohmann::json requestBody(const ClientConfig &config,
                           const QList<Message> &messages,
                           const QList<ToolSpec> &tools);
// The conversation as alternating user and assistant messages of content blocks: tool results
// are user blocks (tool_result) and join the user text around them; empty texts are left out.
// Reasoning goes back only as a signed thinking block, when `withThinking`.
nlohmann::json messagesJson(const QList<Message> &messages, bool withThinking);
nlohmann::json toolsJson(const QList<ToolSpec> &tools);
// The arguments object of a tool_use block: the call's JSON when it is an object, else {}.
nlohmann::json toolInput(const QString &arguments);

} // namespace MessagesFormat

// The stream of a Messages request: content blocks by index — text_delta is text,
// thinking_delta reasoning (blocks apart by a blank line) with its signature_delta, tool_use
// blocks are tool calls whose input grows by input_json_delta (or, with no deltas, is the
// block's own input); message_delta brings the stop reason and usage, message_stop ends the
// turn; an error event is an error (overloaded_error: "overloaded").
class MessagesDecoder : public StreamDecoder
{
public:
    Outcome add(const SseParser::Event &event) override;
    Completion completion() const override;
    ToolCall toolCall(int index) const override { return m_calls.value(index); }
    bool isComplete() const override { return m_complete; }

private:
    void readUsage(const nlohmann::json &usage);
    void startBlock(int index, const nlohmann::json &json, const QByteArray &data, Outcome &out);
    void addToBlock(int index, const nlohmann::json &delta, Outcome &out);
    void stopBlock(int index, Outcome &out);

    struct Block
    {
        QString type;
        int call = -1;
        bool hadDeltas = false;
        nlohmann::ordered_json input; // tool_use's input in content_block_start, keys in order
    };

    Completion m_completion;
    QList<ToolCall> m_calls;
    QMap<int, Block> m_blocks;
    bool m_thinkingStarted = false; // a thinking block is under way: its deltas join
    int m_inputTokens = -1;
    int m_cacheRead = -1;
    int m_cacheWrite = -1;
    bool m_complete = false;
};

} // namespace Sandcastle
