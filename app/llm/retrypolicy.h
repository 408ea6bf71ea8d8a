#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QMap>
#include <QString>

#include <optional>

namespace Sandcastle {

// When to try a failed request again and after how long. Only failures before the first byte
// of an answer are retried (a half-streamed answer is never sent twice). Exponential backoff
// with jitter; the server's Retry-After / retry-after-ms wins when it is given (up to a cap),
// and x-should-retry overrides the status.
class RetryPolicy
{
public:
    int maxRetries = 2;
    int initialDelayMs = 500;
    int maxDelayMs = 8000;
    int maxHonouredDelayMs = 60000;

    struct Decision
    {
        bool retry = false;
        int delayMs = 0;
    };

    // retriesSoFar: how many retries were already made. retryable: what the error's class
    // says (ModelError::retryable). headers: lower-case names. jitter: in [0, 1).
    Decision decide(int retriesSoFar,
                    bool retryable,
                    const QMap<QByteArray, QByteArray> &headers,
                    const QDateTime &now,
                    double jitter) const;

    // The server's requested delay in ms, from retry-after-ms or Retry-After (seconds or an
    // HTTP date); nullopt when absent or unreadable.
    static std::optional<qint64> requestedDelayMs(const QMap<QByteArray, QByteArray> &headers,
                                                  const QDateTime &now);
};

} // namespace Sandcastle
