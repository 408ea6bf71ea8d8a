#include "contextbudget.h"

#include <string>
#include <vector>

namespace Sandcastle::ContextBudget {

namespace {

constexpr qint64 kPerMessageTokens = 4;

qint64 messageTokens(const nlohmann::json &message, double ratio)
{
    const std::string text = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    const qint64 tokens = qint64(text.size()) / 4 + kPerMessageTokens; // whole tokens, rounded down
    return qint64(double(tokens) * ratio);
}

std::string firstLine(const std::string &text, size_t maxChars)
{
    size_t end = text.find('\n');
    if (end == std::string::npos)
        end = text.size();
    end = std::min(end, maxChars);
    // Do not cut a UTF-8 sequence in half.
    while (end > 0 && end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
        --end;
    return text.substr(0, end);
}

std::string summaryOf(const std::string &content)
{
    const nlohmann::json result = nlohmann::json::parse(content, nullptr, false);
    nlohmann::json summary = nlohmann::json::object();
    std::string firstOutput;
    if (result.is_object()) {
        for (const char *key : {"status", "exit_code", "files", "duration_ms"}) {
            if (result.contains(key))
                summary[key] = result[key];
        }
        for (const char *key : {"error", "stdout", "stderr"}) {
            const auto it = result.find(key);
            if (it != result.end() && it->is_string() && !it->get<std::string>().empty()) {
                firstOutput = firstLine(it->get<std::string>(), 160);
                break;
            }
        }
    } else {
        firstOutput = firstLine(content, 160);
    }
    summary["summary"] = "older output left out to fit the context window ("
                         + std::to_string(content.size()) + " bytes); it began: " + firstOutput;
    return summary.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace

qint64 estimateTokens(const nlohmann::json &messages, double ratio)
{
    qint64 total = 0;
    for (const auto &m : messages)
        total += messageTokens(m, ratio);
    return total;
}

Compacted compact(const nlohmann::json &messages, qint64 budgetTokens, double ratio, int keepRecent)
{
    Compacted out;
    out.messages = messages;
    if (!messages.is_array())
        return out;
    std::vector<qint64> sizes;
    sizes.reserve(messages.size());
    qint64 total = 0;
    for (const auto &m : messages) {
        sizes.push_back(messageTokens(m, ratio));
        total += sizes.back();
    }
    out.estimatedTokens = total;
    if (budgetTokens <= 0 || total <= budgetTokens)
        return out;

    std::vector<size_t> toolResults;
    std::vector<size_t> toolCalls;
    for (size_t i = 0; i < messages.size(); ++i) {
        const std::string role = messages[i].value("role", std::string());
        if (role == "tool")
            toolResults.push_back(i);
        else if (role == "assistant" && messages[i].contains("tool_calls"))
            toolCalls.push_back(i);
    }
    const size_t keep = size_t(qMax(0, keepRecent));
    auto summarise = [&](size_t index) {
        nlohmann::json &m = out.messages[index];
        if (!m.contains("content") || !m["content"].is_string())
            return;
        const std::string summary = summaryOf(m["content"].get<std::string>());
        if (summary.size() >= m["content"].get<std::string>().size())
            return;
        m["content"] = summary;
        const qint64 size = messageTokens(m, ratio);
        total += size - sizes[index];
        sizes[index] = size;
        ++out.summarisedToolResults;
    };
    // First pass: the results of older tool calls.
    for (size_t n = 0; n + keep < toolResults.size() && total > budgetTokens; ++n) {
        summarise(toolResults[n]);
    }
    // Second pass: the code of older tool calls (the model wrote it; its result says how it went).
    for (size_t n = 0; n + keep < toolCalls.size() && total > budgetTokens; ++n) {
        nlohmann::json &m = out.messages[toolCalls[n]];
        bool changed = false;
        for (auto &call : m["tool_calls"]) {
            if (!call.contains("function") || !call["function"].contains("arguments")
                || !call["function"]["arguments"].is_string())
                continue;
            const std::string args = call["function"]["arguments"].get<std::string>();
            if (args.size() <= 200)
                continue;
            call["function"]["arguments"]
                = nlohmann::json{{"note",
                                  "code left out to fit the context window ("
                                      + std::to_string(args.size())
                                      + " bytes); it began: " + firstLine(args, 120)}}
                      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
            changed = true;
        }
        if (!changed)
            continue;
        const qint64 size = messageTokens(m, ratio);
        total += size - sizes[toolCalls[n]];
        sizes[toolCalls[n]] = size;
        ++out.shortenedToolCalls;
    }
    // Last resort: the recent results as well, oldest first, rather than a request the server
    // refuses for its length.
    for (size_t n = toolResults.size() > keep ? toolResults.size() - keep : 0;
         n < toolResults.size() && total > budgetTokens;
         ++n) {
        summarise(toolResults[n]);
    }
    out.estimatedTokens = total;
    return out;
}

} // namespace Sandcastle::ContextBudget
