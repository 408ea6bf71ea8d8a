#pragma once

#include <QByteArray>
#include <QString>

namespace Sandcastle {

// A failure talking to the model, in words a person can act on, with a short code for
// scripts (`chat --json` prints it) and whether trying again could help.
struct ModelError
{
    QString code; // auth, forbidden, not_found, bad_request, rate_limited, quota, overloaded, ...
    QString message;
    bool retryable = false;
};

// The message the server put in its error body: OpenAI's {"error": {"message"}}, Ollama's
// {"error": "..."}, or the start of the body.
QString errorMessageFromBody(const QByteArray &body);
// OpenAI's error.code or error.type ("insufficient_quota", ...), empty when absent.
QString errorCodeFromBody(const QByteArray &body);

ModelError classifyHttpError(int status, const QByteArray &body, const QString &model);

// Whether a person asking again (after the automatic retries gave up) could help: the server
// was busy, down or cut off (rate_limited, server_error, timeout, stalled, network,
// http_error), not a refused key, a missing model or a bad request.
bool worthAskingAgain(const QString &errorCode);

} // namespace Sandcastle
