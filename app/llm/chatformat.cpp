#include "chatformat.h"

namespace Sandcastle::ChatFormat {

nlohmann::json messageJson(const Message &message)
{
    nlohmann::json json
        = {{"role", roleName(message.role).toStdString()}, {"content", message.text.toStdString()}};
    switch (message.role) {
    case Message::Role::System:
    case Message::Role::User:
        break;
    case Message::Role::Assistant:
        if (message.toolCalls.isEmpty())
            break;
        json["tool_calls"] = nlohmann::json::array();
        for (const ToolCall &call : message.toolCalls) {
            json["tool_calls"].push_back({{"id", call.id.toStdString()},
                                          {"type", "function"},
                                          {"function",
                                           {{"name", call.name.toStdString()},
                                            {"arguments", call.arguments.toStdString()}}}});
        }
        if (message.text.isEmpty())
            json["content"] = nullptr;
        break;
    case Message::Role::Tool:
        json["tool_call_id"] = message.toolCallId.toStdString();
        break;
    }
    return json;
}

nlohmann::json messagesJson(const QList<Message> &messages)
{
    nlohmann::json json = nlohmann::json::array();
    for (const Message &message : messages)
        json.push_back(messageJson(message));
    return json;
}

nlohmann::json toolsJson(const QList<ToolSpec> &tools)
{
    nlohmann::json json = nlohmann::json::array();
    for (const ToolSpec &tool : tools) {
        json.push_back({{"type", "function"},
                        {"function",
                         {{"name", tool.name.toStdString()},
                          {"description", tool.description.toStdString()},
                          {"parameters", tool.parameters}}}});
    }
    return json;
}

} // namespace Sandcastle::ChatFormat
