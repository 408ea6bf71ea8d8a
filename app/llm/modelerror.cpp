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

namespace {
// The statuses whose meaning does not depend on the body: code, message, worth retrying.
ModelError plainStatusError(int status, const QString &model)
{
    switch (status) {
    case 400:
        return {QStringLiteral("bad_request"),
                QStringLiteral("The server refused the request (400)."),
                false};
    case 401:
        return {
            QStringLiteral("auth"),
            QStringLiteral("The API key was rejected (401). Check SANDCASTLE_API_KEY or the key "
                           "in the settings."),
            false};
    case 403:
        return {QStringLiteral("forbidden"),
                QStringLiteral("The key may not use this model or endpoint (403)."),
                false};
    case 404:
        return {
            QStringLiteral("not_found"),
            QStringLiteral("Model '%1' not found on this server, or the base URL is wrong (404).")
                .arg(model),
            false};
    case 408:
        return {QStringLiteral("timeout"), QStringLiteral("The server timed out (408)."), true};
    case 409:
        return {QStringLiteral("conflict"),
                QStringLiteral("The server reported a conflict (409)."),
                true};
    case 413:
        return {QStringLiteral("too_large"),
                QStringLiteral("The conversation is too long for this server (413)."),
                false};
    case 422:
        return {QStringLiteral("unprocessable"),
                QStringLiteral("The server could not process the request (422)."),
                false};
    case 429:
        return {QStringLiteral("rate_limited"),
                QStringLiteral("Rate limited by the server (429)."),
                true};
    default:
        break;
    }
    if (status >= 500)
        return {QStringLiteral("server_error"),
                QStringLiteral("The model server failed (%1).").arg(status),
                true};
    return {QStringLiteral("http_error"),
            QStringLiteral("The model server answered HTTP %1.").arg(status),
            false};
}
} // namespace

ModelError classifyHttpError(int status, const QByteArray &body, const QString &model)
{
    const QString detail = errorMessageFromBody(body);
    const QString said
        = detail.isEmpty() ? QString() : QStringLiteral(" The server said: ") + detail;
    const QString errorCode = errorCodeFromBody(body);
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
    if (status == 429 && errorCode == QLatin1String("insufficient_quota")) {
        return {QStringLiteral("quota"),
                QStringLiteral("The account has run out of quota (429 insufficient_quota); "
                               "retrying will not help.")
                    + said,
                false};
    }
    ModelError e = plainStatusError(status, model);
    e.message += said;
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
