#pragma once

#include <app/llm/message.h>
#include <base/result.h>

#include <nlohmann/json.hpp>

namespace Sandcastle {

// The JSON a message is stored as (ConversationStore::appendMessage / messages(), the export
// and the transcript read it): {"role", "content"}, with "reasoning" when the model gave some,
// an assistant's "tool_calls" as [{"id", "type": "function", "function": {"name",
// "arguments"}}] with "content": null when it said nothing else, and a tool result's
// "tool_call_id". This schema is kept as it is, whatever the model's wire format, so that old
// databases keep loading.
nlohmann::json toStoreJson(const Message &message);
// A stored message back; fails for what is not a message (no role, an unknown role).
Result<Message> fromStoreJson(const nlohmann::json &stored);

} // namespace Sandcastle
