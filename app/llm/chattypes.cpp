#include "chattypes.h"

namespace Sandcastle {

QUrl chatCompletionsUrl(const QUrl &baseUrl)
{
    QUrl url = baseUrl;
    QString path = url.path();
    if (path.endsWith(QLatin1String("/chat/completions")))
        return url;
    while (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    url.setPath(path + QStringLiteral("/chat/completions"));
    return url;
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
