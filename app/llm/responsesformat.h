#pragma once

#include "chattypes.h"
#include "message.h"
#include "streamdecoder.h"

#include <nlohmann/json.hpp>

#include <QHash>
#include <QMap>
#include <QSet>

namespace Sandcastle {

// OpenAI's Responses API (POST /responses): the request the neutral types become, and the
// decoder of its streamed events.
namespace ResponsesFormat {

// {"model", "instructions" (the system messages), "input" (user and assistant messages,
// function_call and function_call_output items joined by call_id), "tools", "stream": true,
// "store": false}; reasoning models are asked for reasoning summaries.
nlohmann::json requestBody(const ClientConfig &config,
                           const QList<Message> &messages,
                           const QList<ToolSpec> &tools);
nlohmann::json inputJson(const QList<Message> &messages);
// Function tools, flat: {"type": "function", "name", "description", "parameters"}.
nlohmann::json toolsJson(const QList<ToolSpec> &tools);
// o-series, gpt-5 and codex models reason and can summarise it; others refuse the parameter.
bool isReasoningModel(const QString &model);

} // namespace ResponsesFormat

// The stream of a Responses request: response.output_text.delta is text,
// response.reasoning_summary_text.delta (and reasoning_text.delta) reasoning, parts apart by a
// blank line; function_call output items are tool calls (id = call_id) whose arguments grow by
// response.function_call_arguments.delta and are checked against the .done event;
// response.completed (or .incomplete) ends the turn with its usage; response.failed and error
// events are errors.
class ResponsesDecoder : public StreamDecoder
{
public:
    Outcome add(const SseParser::Event &event) override;
    Completion completion() const override;
    ToolCall toolCall(int index) const override { return m_calls.value(index); }
    bool isComplete() const override { return m_complete; }

private:
    int callAt(int outputIndex, const nlohmann::json &item, Outcome *out);
    void appendArguments(int call, const QString &delta, Outcome *out);
    void settleArguments(int call, const QString &final, Outcome *out);
    void appendText(const QString &part, const QString &delta, Outcome *out);
    void appendReasoning(const QString &part, const QString &delta, Outcome *out);
    void finish(const nlohmann::json &response, bool incomplete);

    Completion m_completion;
    QList<ToolCall> m_calls;
    QMap<int, int> m_callByOutput; // output_index -> call index
    QSet<QString> m_partsWithText; // "output:content" keys that streamed text or reasoning
    QString m_lastReasoningPart;
    bool m_complete = false;
};

} // namespace Sandcastle
