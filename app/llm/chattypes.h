#pragma once

#include "message.h"

#include <QList>
#include <QPair>
#include <QString>
#include <QUrl>

#include <optional>

namespace Sandcastle {

// The wire formats a model client speaks (architecture.md §3, model formats).
enum class WireFormat {
    ChatCompletions, // POST /chat/completions (OpenAI and every compatible server)
    Responses,       // POST /responses (OpenAI's Responses API)
    Messages,        // POST /messages (Anthropic's Messages API)
};

// "chat", "responses", "messages": the names settings, the command line and tests use.
QString wireFormatName(WireFormat format);
std::optional<WireFormat> wireFormatFromName(const QString &name);

struct ClientConfig
{
    QUrl baseUrl;   // e.g. http://127.0.0.1:11434/v1
    QString apiKey; // sent as a Bearer token when not empty
    QString model;
    QList<QPair<QByteArray, QByteArray>> extraHeaders; // per provider, e.g. OpenRouter's
    int connectTimeoutMs = 15000;                      // until the request is sent
    int idleTimeoutMs = 120000; // between bytes of the answer (and until the first one)
    WireFormat format = WireFormat::ChatCompletions;
    // Messages: the answer's token limit (the API requires one), the thinking budget (0: no
    // extended thinking; at least 1024 otherwise) and the API version header.
    int maxOutputTokens = 16384;
    int thinkingBudget = 0;
    QByteArray anthropicVersion = QByteArrayLiteral("2023-06-01");
    // Messages: cache_control marks on the tools, the system prompt and the history.
    bool promptCaching = true;
};

// baseUrl + "/chat/completions", tolerating a trailing slash or a full endpoint URL.
QUrl chatCompletionsUrl(const QUrl &baseUrl);
// The endpoint of `format` under baseUrl: /chat/completions, /responses or /messages; a base URL
// that already names that endpoint is kept.
QUrl endpointUrl(const QUrl &baseUrl, WireFormat format);
// baseUrl + "/models", tolerating a trailing slash.
QUrl modelsUrl(const QUrl &baseUrl);

} // namespace Sandcastle
