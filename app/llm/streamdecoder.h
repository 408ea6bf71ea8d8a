#pragma once

#include "message.h"
#include "modelerror.h"
#include <base/sseparser.h>

#include <QList>

#include <optional>

namespace Sandcastle {

// Turns one wire format's stream events into one assistant turn (architecture.md §3, model
// formats): what each event added, as deltas the client emits, and the Completion so far. Pure:
// no network, no signals. Tool calls are numbered from 0 in the order the model starts them.
class StreamDecoder
{
public:
    struct Delta
    {
        enum class Kind { Text, Reasoning, ToolCallStarted, ToolArguments };
        Kind kind;
        int index = 0; // tool calls
        QString text;  // text, reasoning or an arguments fragment
    };

    struct Outcome
    {
        QList<Delta> deltas;
        std::optional<ModelError> error; // the stream reported an error, or was not JSON
    };

    virtual ~StreamDecoder() = default;

    virtual Outcome add(const SseParser::Event &event) = 0;
    // The turn so far, tool calls included.
    virtual Completion completion() const = 0;
    // Tool call `index` as far as it has streamed (id and name are known once it started).
    virtual ToolCall toolCall(int index) const = 0;
    // The stream said the answer is whole ([DONE], a finish reason, response.completed,
    // message_stop).
    virtual bool isComplete() const = 0;

protected:
    static ModelError notJson(const QByteArray &data);
};

} // namespace Sandcastle
