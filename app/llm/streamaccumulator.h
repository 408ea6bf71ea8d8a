#pragma once

#include "chattypes.h"
#include "chunkfields.h"
#include "modelerror.h"
#include "streamdecoder.h"
#include "toolcallaccumulator.h"
#include <base/sseparser.h>

#include <nlohmann/json_fwd.hpp>

#include <QList>

#include <optional>

namespace Sandcastle {

// Turns Chat Completions stream events into one assistant message: content, reasoning (kept
// apart, never sent back as content), tool calls by index, finish reason and usage. Pure: no
// network, no signals; HttpModelClient reports what each event added.
class StreamAccumulator : public StreamDecoder
{
public:
    Outcome add(const SseParser::Event &event) override;

    // Off: every chunk goes through the JSON DOM (the reference the fast path is tested against).
    void setFastPath(bool on) { m_fastPath = on; }

    // The message so far, tool calls included.
    Completion completion() const override;
    ToolCall toolCall(int index) const override { return m_toolCalls.call(index); }
    const ToolCallAccumulator &toolCalls() const { return m_toolCalls; }
    bool sawDone() const { return m_sawDone; }
    // [DONE] or a finish reason arrived: the answer is whole.
    bool isComplete() const override { return m_sawDone || !m_completion.finishReason.isEmpty(); }

private:
    Outcome apply(const ChunkFields &fields, const SseParser::Event &event);
    static ChunkFields fieldsFromDom(const nlohmann::json &chunk);
    static void readContentParts(const nlohmann::json &parts, ChunkFields *f);

    bool m_fastPath = true;
    Completion m_completion;
    ToolCallAccumulator m_toolCalls;
    bool m_sawDone = false;
};

} // namespace Sandcastle
