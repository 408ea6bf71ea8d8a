#include "attempthistory.h"

#include <app/agent/unifieddiff.h>

namespace Sandcastle {

void AttemptHistory::clear()
{
    m_attempts.clear();
}

int AttemptHistory::add(const QString &code)
{
    if (!m_attempts.isEmpty() && m_attempts.last().code == code)
        return count();
    m_attempts.append({code, QString()});
    return count();
}

void AttemptHistory::setStatus(int number, const QString &status)
{
    if (number >= 1 && number <= count())
        m_attempts[number - 1].status = status;
}

QString AttemptHistory::diffToPrevious(int number) const
{
    if (number <= 1 || number > count())
        return QString();
    return unifiedDiff(at(number - 1).code,
                       at(number).code,
                       QStringLiteral("attempt %1").arg(number - 1),
                       QStringLiteral("attempt %1").arg(number));
}

QString AttemptHistory::diffToEdited(int number, const QString &edited) const
{
    if (number < 1 || number > count())
        return QString();
    return unifiedDiff(at(number).code,
                       edited,
                       QStringLiteral("attempt %1 (the agent's)").arg(number),
                       QStringLiteral("yours"));
}

} // namespace Sandcastle
