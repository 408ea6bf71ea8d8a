#include "messagesformat.h"

#include <base/jsonfields.h>

namespace Sandcastle {

namespace MessagesFormat {

namespace {

const nlohmann::json kEphemeral = {{"type", "ephemeral"}};

nlohmann::json textBlock(const QString &text)
{
    return {{"type", "text"}, {"text", text.toStdString()}};
}

// A request that goes on with a tool loop must send the reasoning of the turn that called the
// tools back, signed; when the signature is not known (a conversation resumed from the store),
// that request goes without extended thinking.
bool canThink(const QList<Message> &messages)
{
    for (qsizetype i = messages.size() - 1; i >= 0; --i) {
        const Message &message = messages.at(i);
        if (message.role == Message::Role::Tool)
            continue;
        return message.role != Message::Role::Assistant || message.toolCalls.isEmpty()
               || !message.reasoningSignature.isEmpty();
    }
    return true;
}

void markLastBlock(nlohmann::json &message)
{
    nlohmann::json &content = message["content"];
    if (content.is_array() && !content.empty())
        content.back()["cache_control"] = kEphemeral;
}

} // namespace

nlohmann::json toolInput(const QString &arguments)
{
    const std::string text = arguments.toStdString();
    nlohmann::json input = nlohmann::json::parse(text, nullptr, false);
    return input.is_object() ? input : nlohmann::json::object();
}

nlohmann::json messagesJson(const QList<Message> &messages, bool withThinking)
{
    nlohmann::json out = nlohmann::json::array();
    const auto push = [&out](const char *role, nlohmann::json block) {
        if (!out.empty() && out.back()["role"] == role) {
            out.back()["content"].push_back(std::move(block));
            return;
        }
        out.push_back({{"role", role}, {"content", nlohmann::json::array({std::move(block)})}});
    };
    for (const Message &message : messages) {
        switch (message.role) {
        case Message::Role::System:
            break;
        case Message::Role::User:
            if (!message.text.isEmpty())
                push("user", textBlock(message.text));
            break;
        case Message::Role::Tool: {
            nlohmann::json block
                = {{"type", "tool_result"}, {"tool_use_id", message.toolCallId.toStdString()}};
            if (!message.text.isEmpty())
                block["content"] = message.text.toStdString();
            push("user", std::move(block));
            break;
        }
        case Message::Role::Assistant:
            if (withThinking && !message.reasoning.isEmpty()
                && !message.reasoningSignature.isEmpty()) {
                push("assistant",
                     {{"type", "thinking"},
                      {"thinking", message.reasoning.toStdString()},
                      {"signature", message.reasoningSignature.toStdString()}});
            }
            if (!message.text.isEmpty())
                push("assistant", textBlock(message.text));
            for (const ToolCall &call : message.toolCalls) {
                push("assistant",
                     {{"type", "tool_use"},
                      {"id", call.id.toStdString()},
                      {"name", call.name.toStdString()},
                      {"input", toolInput(call.arguments)}});
            }
            break;
        }
    }
    return out;
}

nlohmann::json toolsJson(const QList<ToolSpec> &tools)
{
    nlohmann::json json = nlohmann::json::array();
    for (const ToolSpec &tool : tools) {
        json.push_back({{"name", tool.name.toStdString()},
                        {"description", tool.description.toStdString()},
                        {"input_schema", tool.parameters}});
    }
    return json;
}

nlohmann::json requestBody(const ClientConfig &config,
                           const QList<Message> &messages,
                           const QList<ToolSpec> &tools)
{
    const bool thinking = config.thinkingBudget >= 1024 && canThink(messages);
    nlohmann::json body
        = {{"model", config.model.toStdString()},
           {"max_tokens",
            thinking ? std::max(config.maxOutputTokens, config.thinkingBudget + 1024)
                     : config.maxOutputTokens},
           {"messages", messagesJson(messages, thinking)},
           {"stream", true}};
    QStringList system;
    for (const Message &message : messages) {
        if (message.role == Message::Role::System && !message.text.isEmpty())
            system.append(message.text);
    }
    if (!system.isEmpty()) {
        nlohmann::json block = textBlock(system.join(QStringLiteral("\n\n")));
        if (config.promptCaching)
            block["cache_control"] = kEphemeral;
        body["system"] = nlohmann::json::array({block});
    }
    if (!tools.isEmpty()) {
        body["tools"] = toolsJson(tools);
        if (config.promptCaching)
            body["tools"].back()["cache_control"] = kEphemeral;
    }
    if (thinking)
        body["thinking"] = {{"type", "enabled"}, {"budget_tokens", config.thinkingBudget}};
    nlohmann::json &history = body["messages"];
    if (config.promptCaching && !history.empty()) {
        // The newest message, and the user message before the newest user message: the end of
        // the prefix the previous request cached.
        markLastBlock(history.back());
        int users = 0;
        for (auto it = history.rbegin(); it != history.rend(); ++it) {
            if ((*it)["role"] == "user" && ++users == 2) {
                markLastBlock(*it);
                break;
            }
        }
    }
    return body;
}

} // namespace MessagesFormat

namespace {

QString finishReason(const QString &stopReason)
{
    if (stopReason == QLatin1String("end_turn") || stopReason == QLatin1String("stop_sequence")
        || stopReason == QLatin1String("pause_turn"))
        return QStringLiteral("stop");
    if (stopReason == QLatin1String("tool_use"))
        return QStringLiteral("tool_calls");
    if (stopReason == QLatin1String("max_tokens")
        || stopReason == QLatin1String("model_context_window_exceeded"))
        return QStringLiteral("length");
    if (stopReason == QLatin1String("refusal"))
        return QStringLiteral("content_filter");
    return stopReason;
}

} // namespace

MessagesDecoder::Outcome MessagesDecoder::add(const SseParser::Event &event)
{
    Outcome out;
    const nlohmann::json json = nlohmann::json::parse(
        event.data.constData(), event.data.constData() + event.data.size(), nullptr, false);
    if (json.is_discarded() || !json.is_object()) {
        out.error = notJson(event.data);
        return out;
    }
    QString type = jsonString(json, "type");
    if (type.isEmpty())
        type = QString::fromUtf8(event.event);
    const int index = jsonInt(json, "index").value_or(-1);
    if (type == QLatin1String("message_start")) {
        readUsage(jsonField(jsonField(json, "message"), "usage"));
    } else if (type == QLatin1String("content_block_start")) {
        startBlock(index, json, event.data, out);
    } else if (type == QLatin1String("content_block_delta")) {
        addToBlock(index, jsonField(json, "delta"), out);
    } else if (type == QLatin1String("content_block_stop")) {
        stopBlock(index, out);
    } else if (type == QLatin1String("message_delta")) {
        const QString stop = jsonString(jsonField(json, "delta"), "stop_reason");
        if (!stop.isEmpty())
            m_completion.finishReason = finishReason(stop);
        readUsage(jsonField(json, "usage"));
    } else if (type == QLatin1String("message_stop")) {
        m_complete = true;
        if (m_completion.finishReason.isEmpty())
            m_completion.finishReason
                = m_calls.isEmpty() ? QStringLiteral("stop") : QStringLiteral("tool_calls");
    } else if (type == QLatin1String("error")) {
        const nlohmann::json &error = jsonField(json, "error");
        const QString kind = jsonString(error, "type");
        const QString message = jsonString(error, "message");
        out.error
            = ModelError{kind == QLatin1String("overloaded_error") ? QStringLiteral("overloaded")
                                                                   : QStringLiteral("model_error"),
                         QStringLiteral("The model server reported an error mid-stream: ")
                             + (message.isEmpty() ? kind : message),
                         false};
    }
    return out;
}

void MessagesDecoder::startBlock(int index,
                                 const nlohmann::json &json,
                                 const QByteArray &data,
                                 Outcome &out)
{
    const nlohmann::json &content = jsonField(json, "content_block");
    Block block;
    block.type = jsonString(content, "type");
    m_thinkingStarted = false;
    if (block.type == QLatin1String("tool_use")) {
        block.call = int(m_calls.size());
        const nlohmann::ordered_json ordered = nlohmann::ordered_json::parse(
            data.constData(), data.constData() + data.size(), nullptr, false);
        if (ordered.is_object() && ordered.contains("content_block")
            && ordered["content_block"].is_object() && ordered["content_block"].contains("input"))
            block.input = ordered["content_block"]["input"];
        m_calls.append({jsonString(content, "id"), jsonString(content, "name"), {}});
        out.deltas.append({Delta::Kind::ToolCallStarted, block.call, {}});
    } else if (block.type == QLatin1String("text")) {
        const QString text = jsonString(content, "text");
        if (!text.isEmpty()) {
            m_completion.text += text;
            out.deltas.append({Delta::Kind::Text, 0, text});
        }
    }
    m_blocks.insert(index, block);
}

void MessagesDecoder::addToBlock(int index, const nlohmann::json &delta, Outcome &out)
{
    const QString kind = jsonString(delta, "type");
    Block &block = m_blocks[index];
    if (kind == QLatin1String("text_delta")) {
        const QString text = jsonString(delta, "text");
        m_completion.text += text;
        if (!text.isEmpty())
            out.deltas.append({Delta::Kind::Text, 0, text});
    } else if (kind == QLatin1String("thinking_delta")) {
        QString text = jsonString(delta, "thinking");
        if (!text.isEmpty()) {
            if (!m_thinkingStarted && !m_completion.reasoning.isEmpty())
                text.prepend(QStringLiteral("\n\n"));
            m_thinkingStarted = true;
            m_completion.reasoning += text;
            out.deltas.append({Delta::Kind::Reasoning, 0, text});
        }
    } else if (kind == QLatin1String("signature_delta")) {
        m_completion.reasoningSignature += jsonString(delta, "signature");
    } else if (kind == QLatin1String("input_json_delta") && block.call >= 0) {
        const QString text = jsonString(delta, "partial_json");
        block.hadDeltas = true;
        m_calls[block.call].arguments += text;
        if (!text.isEmpty())
            out.deltas.append({Delta::Kind::ToolArguments, block.call, text});
    }
}

void MessagesDecoder::stopBlock(int index, Outcome &out)
{
    const Block block = m_blocks.value(index);
    if (block.call >= 0 && !block.hadDeltas) {
        // The whole input came with the start (or the call takes no arguments), written back in
        // the order the model wrote its keys.
        const QString text = block.input.is_object() ? QString::fromStdString(block.input.dump())
                                                     : QStringLiteral("{}");
        m_calls[block.call].arguments = text;
        out.deltas.append({Delta::Kind::ToolArguments, block.call, text});
    } else if (block.call >= 0 && m_calls.at(block.call).arguments.isEmpty()) {
        // A tool without arguments streams one empty partial_json: its input is {}.
        m_calls[block.call].arguments = QStringLiteral("{}");
        out.deltas.append({Delta::Kind::ToolArguments, block.call, QStringLiteral("{}")});
    }
    m_thinkingStarted = false;
}

void MessagesDecoder::readUsage(const nlohmann::json &usage)
{
    if (!usage.is_object())
        return;
    // message_delta's counts are cumulative: the newest value of each wins.
    if (const auto n = jsonInt(usage, "input_tokens"))
        m_inputTokens = *n;
    if (const auto n = jsonInt(usage, "cache_read_input_tokens"))
        m_cacheRead = *n;
    if (const auto n = jsonInt(usage, "cache_creation_input_tokens"))
        m_cacheWrite = *n;
    if (const auto n = jsonInt(usage, "output_tokens"))
        m_completion.usage.completionTokens = *n;
    // Anthropic's input_tokens leaves out what was read from or written to the cache; here the
    // prompt counts them all, as OpenAI's prompt_tokens does.
    if (m_inputTokens >= 0)
        m_completion.usage.promptTokens
            = m_inputTokens + std::max(m_cacheRead, 0) + std::max(m_cacheWrite, 0);
    m_completion.usage.cachedPromptTokens = m_cacheRead;
    m_completion.usage.cacheWriteTokens = m_cacheWrite;
}

Completion MessagesDecoder::completion() const
{
    Completion completion = m_completion;
    completion.toolCalls = m_calls;
    return completion;
}

} // namespace Sandcastle
