#pragma once

#include "chattypes.h"
#include "chunkfields.h"

#include <nlohmann/json_fwd.hpp>

#include <QList>
#include <QMap>

namespace Sandcastle {

// Puts streamed tool-call deltas back together. OpenAI sends `index` on every fragment and the
// id and name only on the first; some servers omit the index, and some send a whole call in
// one chunk. Arguments are concatenated as text and parsed only at the end.
class ToolCallAccumulator
{
public:
    struct Update
    {
        int index = 0;
        bool started = false;   // first fragment of this call: id and name are known
        QString argumentsDelta; // what this fragment added
    };

    // `toolCalls` is the delta's `tool_calls` array.
    QList<Update> add(const nlohmann::json &toolCalls);
    QList<Update> add(const QList<ToolCallDelta> &deltas);
    // The fragments of a `tool_calls` array; elements that are not objects are left out.
    static QList<ToolCallDelta> deltasFromJson(const nlohmann::json &toolCalls);
    QList<ToolCall> calls() const;
    ToolCall call(int index) const { return m_calls.value(index); }

private:
    QMap<int, ToolCall> m_calls;
    int m_lastIndex = -1;
};

} // namespace Sandcastle
