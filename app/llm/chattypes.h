#pragma once

#include "message.h"

#include <QList>
#include <QPair>
#include <QString>
#include <QUrl>

namespace Sandcastle {

struct ClientConfig
{
    QUrl baseUrl;   // e.g. http://127.0.0.1:11434/v1
    QString apiKey; // sent as a Bearer token when not empty
    QString model;
    QList<QPair<QByteArray, QByteArray>> extraHeaders; // per provider, e.g. OpenRouter's
    int connectTimeoutMs = 15000;                      // until the request is sent
    int idleTimeoutMs = 120000; // between bytes of the answer (and until the first one)
};

// baseUrl + "/chat/completions", tolerating a trailing slash or a full endpoint URL.
QUrl chatCompletionsUrl(const QUrl &baseUrl);
// baseUrl + "/models", tolerating a trailing slash.
QUrl modelsUrl(const QUrl &baseUrl);

} // namespace Sandcastle
