#include "responsesformat.h"

#include <base/jsonfields.h>

#include <QRegularExpression>

namespace Sandcastle {

namespace ResponsesFormat {

nlohmann::json inputJson(const QList<Message> &messages)
{
    nlohmann::json input = nlohmann::json::array();
    for (const Message &message : messages) {
        switch (message.role) {
        case Message::Role::System:
            break; // instructions
        case Message::Role::User:
            input.push_back({{"role", "user"}, {"content", message.text.toStdString()}});
            break;
        case Message::Role::Assistant:
            if (!message.text.isEmpty())
                input.push_back({{"role", "assistant"}, {"content", message.text.toStdString()}});
            for (const ToolCall &call : message.toolCalls) {
                input.push_back({{"type", "function_call"},
                                 {"call_id", call.id.toStdString()},
                                 {"name", call.name.toStdString()},
                                 {"arguments", call.arguments.toStdString()}});
            }
            break;
        case Message::Role::Tool:
            input.push_back({{"type", "function_call_output"},
                             {"call_id", message.toolCallId.toStdString()},
                             {"output", message.text.toStdString()}});
            break;
        }
    }
    return input;
}

nlohmann::json toolsJson(const QList<ToolSpec> &tools)
{
    nlohmann::json json = nlohmann::json::array();
    for (const ToolSpec &tool : tools) {
        json.push_back({{"type", "function"},
                        {"name", tool.name.toStdString()},
                        {"description", tool.description.toStdString()},
                        {"parameters", tool.parameters}});
    }
    return json;
}

bool isReasoningModel(const QString &model)
{
    static const QRegularExpression reasoning(QStringLiteral("(^|/)(o\\d|gpt-5|codex)"),
                                              QRegularExpression::CaseInsensitiveOption);
    return reasoning.match(model).hasMatch();
}

nlohmann::json requestBody(const ClientConfig &config,
                           const QList<Message> &messages,
                           const QList<ToolSpec> &tools)
{
    QStringList instructions;
    for (const Message &message : messages) {
        if (message.role == Message::Role::System && !message.text.isEmpty())
            instructions.append(message.text);
    }
    nlohmann::json body = {{"model", config.model.toStdString()},
                           {"input", inputJson(messages)},
                           {"stream", true},
                           // Nothing kept on the server: the whole conversation is sent each time.
                           {"store", false}};
    if (!instructions.isEmpty())
        body["instructions"] = instructions.join(QStringLiteral("\n\n")).toStdString();
    if (!tools.isEmpty())
        body["tools"] = toolsJson(tools);
    if (isReasoningModel(config.model))
        body["reasoning"] = {{"summary", "auto"}};
    return body;
}

} // namespace ResponsesFormat

namespace {

ModelError streamError(const QString &code, const QString &message)
{
    const bool busy
        = code.contains(QLatin1String("rate_limit")) || code.contains(QLatin1String("overloaded"));
    return {busy ? QStringLiteral("overloaded") : QStringLiteral("model_error"),
            QStringLiteral("The model server reported an error mid-stream: ")
                + (message.isEmpty() ? code : message),
            false};
}

QString partKey(const nlohmann::json &event, const char *inner)
{
    return QStringLiteral("%1:%2")
        .arg(jsonInt(event, "output_index").value_or(-1))
        .arg(jsonInt(event, inner).value_or(0));
}

} // namespace

ResponsesDecoder::Outcome ResponsesDecoder::add(const SseParser::Event &event)
{
    Outcome out;
    if (event.data.trimmed() == "[DONE]")
        return out; // some compatible servers end with it; response.completed is what counts
    const nlohmann::json json = nlohmann::json::parse(
        event.data.constData(), event.data.constData() + event.data.size(), nullptr, false);
    if (json.is_discarded() || !json.is_object()) {
        out.error = notJson(event.data);
        return out;
    }
    QString type = jsonString(json, "type");
    if (type.isEmpty())
        type = QString::fromUtf8(event.event);
    const int outputIndex = jsonInt(json, "output_index").value_or(-1);
    if (type == QLatin1String("response.output_text.delta")
        || type == QLatin1String("response.refusal.delta")) {
        appendText(partKey(json, "content_index"), jsonString(json, "delta"), &out);
    } else if (type == QLatin1String("response.output_text.done")) {
        const QString key = partKey(json, "content_index");
        if (!m_partsWithText.contains(key))
            appendText(key, jsonString(json, "text"), &out);
    } else if (type == QLatin1String("response.reasoning_summary_text.delta")) {
        appendReasoning(partKey(json, "summary_index"), jsonString(json, "delta"), &out);
    } else if (type == QLatin1String("response.reasoning_text.delta")) {
        appendReasoning(
            QStringLiteral("r") + partKey(json, "content_index"), jsonString(json, "delta"), &out);
    } else if (type == QLatin1String("response.reasoning_summary_text.done")) {
        const QString key = partKey(json, "summary_index");
        if (!m_partsWithText.contains(key))
            appendReasoning(key, jsonString(json, "text"), &out);
    } else if (type == QLatin1String("response.output_item.added")
               || type == QLatin1String("response.output_item.done")) {
        const nlohmann::json &item = jsonField(json, "item");
        if (jsonString(item, "type") == QLatin1String("function_call")) {
            const int call = callAt(outputIndex, item, &out);
            const nlohmann::json &arguments = jsonField(item, "arguments");
            if (arguments.is_string()) {
                const QString text = QString::fromStdString(arguments.get<std::string>());
                if (type.endsWith(QLatin1String(".done")))
                    settleArguments(call, text, &out);
                else
                    appendArguments(call, text, &out);
            }
        }
    } else if (type == QLatin1String("response.function_call_arguments.delta")) {
        appendArguments(callAt(outputIndex, {}, &out), jsonString(json, "delta"), &out);
    } else if (type == QLatin1String("response.function_call_arguments.done")) {
        settleArguments(callAt(outputIndex, {}, &out), jsonString(json, "arguments"), &out);
    } else if (type == QLatin1String("response.completed")
               || type == QLatin1String("response.incomplete")) {
        finish(jsonField(json, "response"), type.endsWith(QLatin1String("incomplete")));
    } else if (type == QLatin1String("response.failed")) {
        const nlohmann::json &error = jsonField(jsonField(json, "response"), "error");
        out.error = streamError(jsonString(error, "code"), jsonString(error, "message"));
    } else if (type == QLatin1String("error")) {
        // {"type": "error", "code", "message"}; some servers nest them in "error".
        const nlohmann::json &nested = jsonField(json, "error");
        const nlohmann::json &error = nested.is_object() ? nested : json;
        QString code = jsonString(error, "code");
        if (code.isEmpty())
            code = jsonString(error, "type");
        out.error = streamError(code, jsonString(error, "message"));
    }
    return out;
}

int ResponsesDecoder::callAt(int outputIndex, const nlohmann::json &item, Outcome *out)
{
    auto found = m_callByOutput.constFind(outputIndex);
    int index = 0;
    if (found == m_callByOutput.cend()) {
        index = int(m_calls.size());
        m_calls.append(ToolCall());
        m_callByOutput.insert(outputIndex, index);
    } else {
        index = found.value();
    }
    ToolCall &call = m_calls[index];
    const bool wasStarted = !call.id.isEmpty() || !call.name.isEmpty();
    if (call.id.isEmpty())
        call.id = jsonString(item, "call_id");
    if (call.name.isEmpty())
        call.name = jsonString(item, "name");
    if (!wasStarted && (!call.id.isEmpty() || !call.name.isEmpty()))
        out->deltas.append({Delta::Kind::ToolCallStarted, index, {}});
    return index;
}

void ResponsesDecoder::appendArguments(int call, const QString &delta, Outcome *out)
{
    if (delta.isEmpty())
        return;
    m_calls[call].arguments += delta;
    out->deltas.append({Delta::Kind::ToolArguments, call, delta});
}

void ResponsesDecoder::settleArguments(int call, const QString &final, Outcome *out)
{
    QString &arguments = m_calls[call].arguments;
    if (final.isEmpty() || final == arguments)
        return;
    if (final.startsWith(arguments)) {
        appendArguments(call, final.mid(arguments.size()), out);
        return;
    }
    arguments = final; // the deltas disagreed with the whole: the whole wins
}

void ResponsesDecoder::appendText(const QString &part, const QString &delta, Outcome *out)
{
    if (delta.isEmpty())
        return;
    m_partsWithText.insert(part);
    m_completion.text += delta;
    out->deltas.append({Delta::Kind::Text, 0, delta});
}

void ResponsesDecoder::appendReasoning(const QString &part, const QString &delta, Outcome *out)
{
    if (delta.isEmpty())
        return;
    m_partsWithText.insert(part);
    QString text = delta;
    if (part != m_lastReasoningPart && !m_completion.reasoning.isEmpty())
        text.prepend(QStringLiteral("\n\n"));
    m_lastReasoningPart = part;
    m_completion.reasoning += text;
    out->deltas.append({Delta::Kind::Reasoning, 0, text});
}

void ResponsesDecoder::finish(const nlohmann::json &response, bool incomplete)
{
    m_complete = true;
    const nlohmann::json &usage = jsonField(response, "usage");
    if (usage.is_object()) {
        m_completion.usage.promptTokens = jsonInt(usage, "input_tokens").value_or(-1);
        m_completion.usage.completionTokens = jsonInt(usage, "output_tokens").value_or(-1);
        m_completion.usage.cachedPromptTokens
            = jsonInt(jsonField(usage, "input_tokens_details"), "cached_tokens").value_or(-1);
    }
    if (incomplete) {
        const QString reason = jsonString(jsonField(response, "incomplete_details"), "reason");
        m_completion.finishReason
            = reason == QLatin1String("content_filter") ? reason : QStringLiteral("length");
    } else {
        m_completion.finishReason
            = m_calls.isEmpty() ? QStringLiteral("stop") : QStringLiteral("tool_calls");
    }
}

Completion ResponsesDecoder::completion() const
{
    Completion completion = m_completion;
    completion.toolCalls = m_calls;
    return completion;
}

} // namespace Sandcastle
