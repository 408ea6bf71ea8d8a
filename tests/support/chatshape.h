#pragma once

#include <app/llm/chattypes.h>

#include <nlohmann/json.hpp>

#include <QByteArray>

namespace Sandcastle::Testing {

// The wire format the agent suites run in: SANDCASTLE_TEST_FORMAT (chat, responses, messages),
// Chat Completions when unset. CMake runs those suites once per format.
inline WireFormat testWireFormat()
{
    return wireFormatFromName(qEnvironmentVariable("SANDCASTLE_TEST_FORMAT"))
        .value_or(WireFormat::ChatCompletions);
}

// A request body of any format read back in Chat Completions' shape ({"messages": [{"role",
// "content", "tool_calls", "tool_call_id"}], "tools": [{"function": {"name"}}]}), so that one
// suite checks what the agent sent whatever the format. Each Responses input item and each
// Messages content block becomes a message of its own; calls that follow each other are one
// assistant message with several tool_calls.
inline nlohmann::json chatShape(const nlohmann::json &body, WireFormat format)
{
    if (format == WireFormat::ChatCompletions)
        return body;
    nlohmann::json messages = nlohmann::json::array();
    bool lastWasCall = false;
    const auto call = [&](const std::string &id, const std::string &name, std::string arguments) {
        const nlohmann::json entry
            = {{"id", id},
               {"type", "function"},
               {"function", {{"name", name}, {"arguments", std::move(arguments)}}}};
        if (lastWasCall) {
            messages.back()["tool_calls"].push_back(entry);
            return;
        }
        messages.push_back({{"role", "assistant"},
                            {"content", nullptr},
                            {"tool_calls", nlohmann::json::array({entry})}});
        lastWasCall = true;
    };
    const auto say = [&](const std::string &role, const nlohmann::json &content) {
        messages.push_back({{"role", role}, {"content", content}});
        lastWasCall = false;
    };
    nlohmann::json tools = nlohmann::json::array();
    if (format == WireFormat::Responses) {
        if (body.contains("instructions"))
            say("system", body["instructions"]);
        for (const nlohmann::json &item : body.value("input", nlohmann::json::array())) {
            const std::string type = item.value("type", "message");
            if (type == "function_call") {
                call(item["call_id"], item["name"], item["arguments"]);
            } else if (type == "function_call_output") {
                messages.push_back({{"role", "tool"},
                                    {"tool_call_id", item["call_id"]},
                                    {"content", item["output"]}});
                lastWasCall = false;
            } else {
                say(item["role"], item["content"]);
            }
        }
        for (const nlohmann::json &tool : body.value("tools", nlohmann::json::array()))
            tools.push_back({{"type", "function"},
                             {"function",
                              {{"name", tool["name"]},
                               {"description", tool["description"]},
                               {"parameters", tool["parameters"]}}}});
    } else {
        if (body.contains("system"))
            say("system", body["system"][0]["text"]);
        for (const nlohmann::json &message : body.value("messages", nlohmann::json::array())) {
            for (const nlohmann::json &block : message["content"]) {
                const std::string type = block["type"];
                if (type == "text") {
                    say(message["role"], block["text"]);
                } else if (type == "tool_use") {
                    call(block["id"], block["name"], block["input"].dump());
                } else if (type == "tool_result") {
                    messages.push_back({{"role", "tool"},
                                        {"tool_call_id", block["tool_use_id"]},
                                        {"content", block.value("content", std::string())}});
                    lastWasCall = false;
                }
            }
        }
        for (const nlohmann::json &tool : body.value("tools", nlohmann::json::array()))
            tools.push_back({{"type", "function"},
                             {"function",
                              {{"name", tool["name"]},
                               {"description", tool["description"]},
                               {"parameters", tool["input_schema"]}}}});
    }
    nlohmann::json shaped = {{"model", body["model"]}, {"messages", messages}};
    if (body.contains("tools"))
        shaped["tools"] = tools;
    return shaped;
}

} // namespace Sandcastle::Testing
