#include "streamaccumulator.h"

#include <base/jsonfields.h>

namespace Sandcastle {

namespace {

// The text of a part's "thinking": a string, or a list of {"type": "text", "text"} parts.
QString thinkingText(const nlohmann::json &thinking)
{
    if (thinking.is_string())
        return QString::fromStdString(thinking.get<std::string>());
    QString text;
    if (thinking.is_array()) {
        for (const nlohmann::json &part : thinking) {
            if (part.is_object())
                text += jsonString(part, "text");
        }
    }
    return text;
}

} // namespace

// Mistral's reasoning models send delta.content as typed parts: [{"type": "thinking",
// "thinking": [{"type": "text", "text": …}]}, {"type": "text", "text": …}], in any order.
void StreamAccumulator::readContentParts(const nlohmann::json &parts, ChunkFields *f)
{
    for (const nlohmann::json &part : parts) {
        if (!part.is_object())
            continue;
        const QString type = jsonString(part, "type");
        if (type == QLatin1String("text")) {
            f->content += jsonString(part, "text");
        } else if (type == QLatin1String("thinking")) {
            const auto thinking = part.find("thinking");
            if (thinking != part.end())
                f->reasoningContent += thinkingText(*thinking);
        }
    }
}

StreamAccumulator::Outcome StreamAccumulator::add(const SseParser::Event &event)
{
    Outcome out;
    if (event.data.trimmed() == "[DONE]") {
        m_sawDone = true;
        return out;
    }
    if (event.event == "error") {
        out.error = ModelError{QStringLiteral("model_error"),
                               QStringLiteral("The model server reported an error mid-stream: ")
                                   + errorMessageFromBody(event.data),
                               false};
        return out;
    }
    if (m_fastPath) {
        const ChunkFields fields = ChunkFields::read(event.data);
        if (!fields.fallback)
            return apply(fields, event);
    }
    const nlohmann::json chunk = nlohmann::json::parse(
        event.data.constData(), event.data.constData() + event.data.size(), nullptr, false);
    if (chunk.is_discarded() || !chunk.is_object()) {
        out.error = notJson(event.data);
        return out;
    }
    return apply(fieldsFromDom(chunk), event);
}

ChunkFields StreamAccumulator::fieldsFromDom(const nlohmann::json &chunk)
{
    ChunkFields f;
    const auto error = chunk.find("error");
    f.hasError = error != chunk.end() && !error->is_null();
    const auto usage = chunk.find("usage");
    if (usage != chunk.end() && usage->is_object()) {
        f.hasUsage = true;
        for (const auto &[key, target] : {std::pair{"prompt_tokens", &f.promptTokens},
                                          std::pair{"completion_tokens", &f.completionTokens}}) {
            const auto it = usage->find(key);
            if (it != usage->end() && it->is_number_integer())
                *target = it->get<int>();
        }
        const auto details = usage->find("prompt_tokens_details");
        if (details != usage->end() && details->is_object()) {
            const auto cached = details->find("cached_tokens");
            if (cached != details->end() && cached->is_number_integer())
                f.cachedPromptTokens = cached->get<int>();
        }
    }
    const auto choices = chunk.find("choices");
    if (choices == chunk.end() || !choices->is_array() || choices->empty()
        || !(*choices)[0].is_object())
        return f;
    const nlohmann::json &choice = (*choices)[0];
    f.hasChoice = true;
    f.finishReason = jsonString(choice, "finish_reason");
    const auto delta = choice.find("delta");
    if (delta == choice.end() || !delta->is_object())
        return f;
    f.hasDelta = true;
    f.content = jsonString(*delta, "content");
    f.reasoningContent = jsonString(*delta, "reasoning_content");
    f.reasoning = jsonString(*delta, "reasoning");
    const auto content = delta->find("content");
    if (content != delta->end() && content->is_array())
        readContentParts(*content, &f);
    const auto toolCalls = delta->find("tool_calls");
    if (toolCalls != delta->end()) {
        f.hasToolCalls = true;
        f.toolCalls = ToolCallAccumulator::deltasFromJson(*toolCalls);
    }
    return f;
}

StreamAccumulator::Outcome StreamAccumulator::apply(const ChunkFields &f,
                                                    const SseParser::Event &event)
{
    Outcome out;
    if (f.hasError) {
        out.error = ModelError{QStringLiteral("model_error"),
                               QStringLiteral("The model server reported an error mid-stream: ")
                                   + errorMessageFromBody(event.data),
                               false};
        return out;
    }
    if (f.hasUsage) {
        m_completion.usage.promptTokens = f.promptTokens.value_or(-1);
        m_completion.usage.completionTokens = f.completionTokens.value_or(-1);
        m_completion.usage.cachedPromptTokens = f.cachedPromptTokens.value_or(-1);
    }
    if (!f.hasChoice)
        return out;
    if (!f.finishReason.isEmpty())
        m_completion.finishReason = f.finishReason;
    if (!f.hasDelta)
        return out;
    // DeepSeek and vLLM name it reasoning_content; Ollama and OpenRouter reasoning.
    const QString reasoning = f.reasoningContent.isEmpty() ? f.reasoning : f.reasoningContent;
    if (!reasoning.isEmpty()) {
        m_completion.reasoning += reasoning;
        out.deltas.append({Delta::Kind::Reasoning, 0, reasoning});
    }
    if (!f.content.isEmpty()) {
        m_completion.text += f.content;
        out.deltas.append({Delta::Kind::Text, 0, f.content});
    }
    if (f.hasToolCalls) {
        const QList<ToolCallAccumulator::Update> updates = m_toolCalls.add(f.toolCalls);
        for (const ToolCallAccumulator::Update &update : updates) {
            if (update.started)
                out.deltas.append({Delta::Kind::ToolCallStarted, update.index, {}});
            if (!update.argumentsDelta.isEmpty())
                out.deltas.append(
                    {Delta::Kind::ToolArguments, update.index, update.argumentsDelta});
        }
    }
    return out;
}

Completion StreamAccumulator::completion() const
{
    Completion completion = m_completion;
    completion.toolCalls = m_toolCalls.calls();
    return completion;
}

} // namespace Sandcastle
