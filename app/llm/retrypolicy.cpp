#include "retrypolicy.h"

#include <QLocale>
#include <QTimeZone>

#include <algorithm>
#include <cmath>

namespace Sandcastle {

std::optional<qint64> RetryPolicy::requestedDelayMs(const QMap<QByteArray, QByteArray> &headers,
                                                    const QDateTime &now)
{
    bool ok = false;
    const QByteArray ms = headers.value("retry-after-ms").trimmed();
    if (!ms.isEmpty()) {
        const double value = ms.toDouble(&ok);
        if (ok && std::isfinite(value) && value >= 0)
            return qint64(value);
    }
    const QByteArray after = headers.value("retry-after").trimmed();
    if (after.isEmpty())
        return std::nullopt;
    const double seconds = after.toDouble(&ok);
    if (ok && std::isfinite(seconds) && seconds >= 0)
        return qint64(seconds * 1000);
    // An HTTP date: "Wed, 21 Oct 2015 07:28:00 GMT".
    QDateTime when = QLocale::c().toDateTime(QString::fromLatin1(after),
                                             QStringLiteral("ddd, dd MMM yyyy HH:mm:ss 'GMT'"));
    if (!when.isValid())
        when = QDateTime::fromString(QString::fromLatin1(after), Qt::RFC2822Date);
    if (!when.isValid())
        return std::nullopt;
    when.setTimeZone(QTimeZone::utc());
    return std::max<qint64>(0, now.msecsTo(when));
}

RetryPolicy::Decision RetryPolicy::decide(int retriesSoFar,
                                          bool retryable,
                                          const QMap<QByteArray, QByteArray> &headers,
                                          const QDateTime &now,
                                          double jitter) const
{
    const QByteArray shouldRetry = headers.value("x-should-retry").trimmed().toLower();
    if (shouldRetry == "true")
        retryable = true;
    else if (shouldRetry == "false")
        retryable = false;
    if (!retryable || retriesSoFar >= maxRetries)
        return {};
    const std::optional<qint64> requested = requestedDelayMs(headers, now);
    if (requested && *requested <= maxHonouredDelayMs)
        return {true, int(*requested)};
    const double backoff
        = std::min<double>(maxDelayMs, initialDelayMs * std::pow(2.0, retriesSoFar));
    const double jittered = backoff * (1.0 - 0.25 * std::clamp(jitter, 0.0, 1.0));
    return {true, int(jittered)};
}

} // namespace Sandcastle
