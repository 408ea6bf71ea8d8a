#include "chattypes.h"

namespace Sandcastle {

QString wireFormatName(WireFormat format)
{
    switch (format) {
    case WireFormat::ChatCompletions:
        return QStringLiteral("chat");
    case WireFormat::Responses:
        return QStringLiteral("responses");
    case WireFormat::Messages:
        return QStringLiteral("messages");
    }
    return QStringLiteral("chat");
}

std::optional<WireFormat> wireFormatFromName(const QString &name)
{
    for (WireFormat format :
         {WireFormat::ChatCompletions, WireFormat::Responses, WireFormat::Messages}) {
        if (name == wireFormatName(format))
            return format;
    }
    return std::nullopt;
}

QUrl endpointUrl(const QUrl &baseUrl, WireFormat format)
{
    const QString endpoint = format == WireFormat::Responses  ? QStringLiteral("/responses")
                             : format == WireFormat::Messages ? QStringLiteral("/messages")
                                                              : QStringLiteral("/chat/completions");
    QUrl url = baseUrl;
    QString path = url.path();
    if (path.endsWith(endpoint))
        return url;
    while (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    url.setPath(path + endpoint);
    return url;
}

QUrl chatCompletionsUrl(const QUrl &baseUrl)
{
    return endpointUrl(baseUrl, WireFormat::ChatCompletions);
}

QUrl modelsUrl(const QUrl &baseUrl)
{
    QUrl url = baseUrl;
    QString path = url.path();
    while (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    url.setPath(path + QStringLiteral("/models"));
    return url;
}

} // namespace Sandcastle
