#include "modelrequest.h"

namespace Sandcastle {

QNetworkRequest modelRequest(const QUrl &url, const ClientConfig &config)
{
    QNetworkRequest request(url);
    if (config.format == WireFormat::Messages) {
        request.setRawHeader("anthropic-version", config.anthropicVersion);
        if (!config.apiKey.isEmpty())
            request.setRawHeader("x-api-key", config.apiKey.toUtf8());
    } else if (!config.apiKey.isEmpty()) {
        request.setRawHeader("Authorization", "Bearer " + config.apiKey.toUtf8());
    }
    for (const auto &header : config.extraHeaders)
        request.setRawHeader(header.first, header.second);
    return request;
}

} // namespace Sandcastle
