#pragma once

#include <app/llm/streamaccumulator.h>

#include <QString>

namespace Sandcastle::Testing {

// One-line pictures of what the stream accumulator produced, for comparing two paths.
inline QString describe(const StreamAccumulator::Outcome &outcome)
{
    QString out
        = outcome.error ? QStringLiteral("error:") + outcome.error->code : QStringLiteral("ok");
    for (const auto &d : outcome.deltas)
        out += QStringLiteral(" [%1/%2/%3]").arg(int(d.kind)).arg(d.index).arg(d.text);
    return out;
}

inline QString describe(const Completion &c)
{
    QString out = QStringLiteral("%1|%2|%3|%4|%5|%6")
                      .arg(c.text, c.reasoning, c.finishReason)
                      .arg(c.usage.promptTokens)
                      .arg(c.usage.completionTokens)
                      .arg(c.usage.cachedPromptTokens);
    for (const auto &call : c.toolCalls)
        out += QStringLiteral("|%1:%2:%3").arg(call.id, call.name, call.arguments);
    return out;
}

} // namespace Sandcastle::Testing
