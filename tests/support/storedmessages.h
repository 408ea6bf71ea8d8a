#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace Sandcastle::Testing {

// An assistant message in the store's JSON that makes one tool call (see storedmessage.h).
inline nlohmann::json
toolCallMessage(const std::string &id, const std::string &name, const nlohmann::json &args)
{
    return {
        {"role", "assistant"},
        {"content", nullptr},
        {"tool_calls",
         nlohmann::json::array({{{"id", id},
                                 {"type", "function"},
                                 {"function", {{"name", name}, {"arguments", args.dump()}}}}})}};
}

} // namespace Sandcastle::Testing
