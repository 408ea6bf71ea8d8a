#pragma once

#include "message.h"

#include <nlohmann/json.hpp>

namespace Sandcastle::ChatFormat {

// The Chat Completions wire format of the neutral model types: what HttpModelClient posts.

// One message: {"role", "content"} and, for an assistant's tool calls, "tool_calls" with
// "content": null when there is no text; a tool result names its call in "tool_call_id".
// Reasoning is not sent back.
nlohmann::json messageJson(const Message &message);
nlohmann::json messagesJson(const QList<Message> &messages);

// The `tools` array: each spec as {"type": "function", "function": {name, description,
// parameters}}.
nlohmann::json toolsJson(const QList<ToolSpec> &tools);

} // namespace Sandcastle::ChatFormat
