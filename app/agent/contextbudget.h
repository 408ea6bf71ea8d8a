#pragma once

#include <app/llm/message.h>

#include <QList>

namespace Sandcastle::ContextBudget {

// A rough token count of a request's messages: about four bytes of a message's stored JSON
// (reasoning left out: it is not sent back) per token, plus a few tokens per message. `ratio`
// scales it (the agent learns it from the server's prompt token counts).
qint64 estimateTokens(const QList<Message> &messages, double ratio = 1.0);

struct Compacted
{
    QList<Message> messages;
    int summarisedToolResults = 0;
    int shortenedToolCalls = 0;
    qint64 estimatedTokens = 0;
};

// The messages to send when the conversation must fit in `budgetTokens`: oldest first, tool
// results (all but the last `keepRecent`) are replaced by a short summary (status, exit code,
// files, the first line of output); if that is not enough, the code in older tool calls is
// shortened too. System and user messages are never changed, nor is the order or any tool
// call id. Within budget, the messages come back untouched.
Compacted compact(const QList<Message> &messages,
                  qint64 budgetTokens,
                  double ratio = 1.0,
                  int keepRecent = 2);

} // namespace Sandcastle::ContextBudget
