#include "modelerror.h"

#include <QStringList>

#include <base/jsonfields.h>

namespace Sandcastle {

namespace {
nlohmann::json parseBody(const QByteArray &body)
{
    return nlohmann::json::parse(body.constData(), body.constData() + body.size(), nullptr, false);
}
// Groq's error.failed_generation: what the model wrote, bounded.
QString failedGeneration(const QByteArray &body)
{
    const QString generation = jsonString(jsonField(parseBody(body), "error"), "failed_generation");
    if (generation.isEmpty())
        return {};
    return QStringLiteral(" The model wrote: ") + generation.left(2000);
}

} // namespace

QString errorMessageFromBody(const QByteArray &body)
{
    const nlohmann::json doc = parseBody(body);
    if (doc.is_object() && doc.contains("error")) {
        const nlohmann::json &error = doc["error"];
        if (error.is_string())
            return QString::fromStdString(error.get<std::string>());
        QString message = jsonString(error, "message");
        if (!message.isEmpty())
            return message;
    }
    if (doc.is_object()) {
        QString message = jsonString(doc, "message");
        if (!message.isEmpty())
            return message;
    }
    return QString::fromUtf8(body.left(300)).simplified();
}

QString errorCodeFromBody(const QByteArray &body)
{
    const nlohmann::json doc = parseBody(body);
    if (!doc.is_object() || !doc.contains("error") || !doc["error"].is_object())
        return {};
    const nlohmann::json &error = doc["error"];
    QString code = jsonString(error, "code");
    if (code.isEmpty())
        code = jsonString(error, "type");
    return code;
}

ModelError classifyHttpError(int status, const QByteArray &body, const QString &model)
{
    const QString detail = errorMessageFromBody(body);
    const QString said
        = detail.isEmpty() ? QString() : QStringLiteral(" The server said: ") + detail;
    const QString errorCode = errorCodeFromBody(body);
    ModelError e;
    if (status == 529 || errorCode == QLatin1String("overloaded_error")) {
        // Anthropic: busy for everyone, not this account's limit.
        return {
            QStringLiteral("overloaded"),
            QStringLiteral("The model server is overloaded (%1); try again in a while.").arg(status)
                + said,
            true};
    }
    if (status == 400 && errorCode == QLatin1String("tool_use_failed")) {
        // Groq checks the model's tool calls against their schemas and refuses a bad one: the
        // server supports tools, the model made a mistake it can correct.
        return {QStringLiteral("tool_call_invalid"),
                QStringLiteral("The server refused the model's tool call (400 tool_use_failed).")
                    + said + failedGeneration(body),
                false};
    }
    switch (status) {
    case 400:
        e = {QStringLiteral("bad_request"),
             QStringLiteral("The server refused the request (400).") + said,
             false};
        break;
    case 401:
        e = {QStringLiteral("auth"),
             QStringLiteral("The API key was rejected (401). Check SANDCASTLE_API_KEY or the key "
                            "in the settings.")
                 + said,
             false};
        break;
    case 403:
        e = {QStringLiteral("forbidden"),
             QStringLiteral("The key may not use this model or endpoint (403).") + said,
             false};
        break;
    case 404:
        e = {QStringLiteral("not_found"),
             QStringLiteral("Model '%1' not found on this server, or the base URL is wrong (404).")
                     .arg(model)
                 + said,
             false};
        break;
    case 408:
        e = {QStringLiteral("timeout"), QStringLiteral("The server timed out (408).") + said, true};
        break;
    case 409:
        e = {QStringLiteral("conflict"),
             QStringLiteral("The server reported a conflict (409).") + said,
             true};
        break;
    case 413:
        e = {QStringLiteral("too_large"),
             QStringLiteral("The conversation is too long for this server (413).") + said,
             false};
        break;
    case 422:
        e = {QStringLiteral("unprocessable"),
             QStringLiteral("The server could not process the request (422).") + said,
             false};
        break;
    case 429:
        if (errorCode == QLatin1String("insufficient_quota")) {
            e = {QStringLiteral("quota"),
                 QStringLiteral("The account has run out of quota (429 insufficient_quota); "
                                "retrying will not help.")
                     + said,
                 false};
        } else {
            e = {QStringLiteral("rate_limited"),
                 QStringLiteral("Rate limited by the server (429).") + said,
                 true};
        }
        break;
    default:
        if (status >= 500) {
            e = {QStringLiteral("server_error"),
                 QStringLiteral("The model server failed (%1).").arg(status) + said,
                 true};
        } else {
            e = {QStringLiteral("http_error"),
                 QStringLiteral("The model server answered HTTP %1.").arg(status) + said,
                 false};
        }
    }
    return e;
}

bool worthAskingAgain(const QString &errorCode)
{
    static const QStringList codes{QStringLiteral("rate_limited"),
                                   QStringLiteral("overloaded"),
                                   QStringLiteral("server_error"),
                                   QStringLiteral("timeout"),
                                   QStringLiteral("stalled"),
                                   QStringLiteral("network"),
                                   QStringLiteral("http_error")};
    return codes.contains(errorCode);
}

} // namespace Sandcastle
