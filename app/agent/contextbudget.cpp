#include "contextbudget.h"

#include <app/store/storedmessage.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace Sandcastle::ContextBudget {

namespace {

constexpr qint64 kPerMessageTokens = 4;

qint64 messageTokens(const Message &message, double ratio)
{
    Message sent = message;
    sent.reasoning.clear();
    const std::string text
        = toStoreJson(sent).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
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

// Shortens the long arguments of a message's tool calls to a note; false if none was long.
bool shortenCalls(Message *message)
{
    bool changed = false;
    for (ToolCall &call : message->toolCalls) {
        const std::string args = call.arguments.toStdString();
        if (args.size() <= 200)
            continue;
        call.arguments = QString::fromStdString(nlohmann::json{
            {"note",
             "code left out to fit the context window (" + std::to_string(args.size())
                 + " bytes); it began: "
                 + firstLine(args,
                             120)}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
        changed = true;
    }
    return changed;
}

} // namespace

qint64 estimateTokens(const QList<Message> &messages, double ratio)
{
    qint64 total = 0;
    for (const auto &m : messages)
        total += messageTokens(m, ratio);
    return total;
}

Compacted compact(const QList<Message> &messages, qint64 budgetTokens, double ratio, int keepRecent)
{
    Compacted out;
    out.messages = messages;
    std::vector<qint64> sizes;
    sizes.reserve(size_t(messages.size()));
    qint64 total = 0;
    for (const Message &m : messages) {
        sizes.push_back(messageTokens(m, ratio));
        total += sizes.back();
    }
    out.estimatedTokens = total;
    if (budgetTokens <= 0 || total <= budgetTokens)
        return out;

    std::vector<qsizetype> toolResults;
    std::vector<qsizetype> toolCalls;
    for (qsizetype i = 0; i < messages.size(); ++i) {
        if (messages[i].role == Message::Role::Tool)
            toolResults.push_back(i);
        else if (messages[i].role == Message::Role::Assistant && !messages[i].toolCalls.isEmpty())
            toolCalls.push_back(i);
    }
    const size_t keep = size_t(qMax(0, keepRecent));
    auto resize = [&](qsizetype index) {
        const qint64 size = messageTokens(out.messages[index], ratio);
        total += size - sizes[size_t(index)];
        sizes[size_t(index)] = size;
    };
    auto summarise = [&](qsizetype index) {
        Message &m = out.messages[index];
        const std::string content = m.text.toStdString();
        const std::string summary = summaryOf(content);
        if (summary.size() >= content.size())
            return;
        m.text = QString::fromStdString(summary);
        resize(index);
        ++out.summarisedToolResults;
    };
    // First pass: the results of older tool calls.
    for (size_t n = 0; n + keep < toolResults.size() && total > budgetTokens; ++n)
        summarise(toolResults[n]);
    // Second pass: the code of older tool calls (the model wrote it; its result says how it went).
    for (size_t n = 0; n + keep < toolCalls.size() && total > budgetTokens; ++n) {
        if (!shortenCalls(&out.messages[toolCalls[n]]))
            continue;
        resize(toolCalls[n]);
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
