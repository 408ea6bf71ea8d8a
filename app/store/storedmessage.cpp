#include "storedmessage.h"

#include <base/jsonfields.h>

namespace Sandcastle {

namespace {

nlohmann::json storedCalls(const QList<ToolCall> &calls)
{
    nlohmann::json stored = nlohmann::json::array();
    for (const ToolCall &call : calls) {
        nlohmann::json function
            = {{"name", call.name.toStdString()}, {"arguments", call.arguments.toStdString()}};
        stored.push_back(
            {{"id", call.id.toStdString()}, {"type", "function"}, {"function", function}});
    }
    return stored;
}

QList<ToolCall> callsFromStore(const nlohmann::json &stored)
{
    QList<ToolCall> calls;
    for (const auto &item : stored) {
        if (!item.is_object())
            continue;
        ToolCall call;
        call.id = jsonString(item, "id");
        const auto function = item.find("function");
        if (function != item.end() && function->is_object()) {
            call.name = jsonString(*function, "name");
            const auto arguments = function->find("arguments");
            if (arguments != function->end() && !arguments->is_string() && !arguments->is_null())
                call.arguments = QString::fromStdString(arguments->dump()); // written as an object
            else
                call.arguments = jsonString(*function, "arguments");
        }
        calls.append(call);
    }
    return calls;
}

} // namespace

nlohmann::json toStoreJson(const Message &message)
{
    nlohmann::json stored = {{"role", roleName(message.role).toStdString()}};
    if (message.role == Message::Role::Assistant && !message.toolCalls.isEmpty()) {
        stored["tool_calls"] = storedCalls(message.toolCalls);
        stored["content"] = message.text.isEmpty() ? nlohmann::json(nullptr)
                                                   : nlohmann::json(message.text.toStdString());
    } else {
        stored["content"] = message.text.toStdString();
    }
    if (message.role == Message::Role::Tool)
        stored["tool_call_id"] = message.toolCallId.toStdString();
    if (!message.reasoning.isEmpty())
        stored["reasoning"] = message.reasoning.toStdString();
    return stored;
}

Result<Message> fromStoreJson(const nlohmann::json &stored)
{
    const std::optional<Message::Role> role = roleFromName(jsonString(stored, "role"));
    if (!role)
        return Result<Message>::failure(
            QStringLiteral("a stored message without a known role: ")
            + QString::fromStdString(
                  stored.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
                  .left(200));
    Message message;
    message.role = *role;
    message.text = jsonString(stored, "content");
    message.reasoning = jsonString(stored, "reasoning");
    if (message.role == Message::Role::Tool)
        message.toolCallId = jsonString(stored, "tool_call_id");
    const auto calls = stored.find("tool_calls");
    if (message.role == Message::Role::Assistant && calls != stored.end() && calls->is_array())
        message.toolCalls = callsFromStore(*calls);
    return Result<Message>::ok(message);
}

} // namespace Sandcastle
