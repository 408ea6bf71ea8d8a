#pragma once

#include <QList>
#include <QString>

namespace Sandcastle {

// The self-debug timeline of one snippet: each version of the code the agent ran for one
// request (attempt 1, 2, 3 …), with how each ended. Pure; the editor pane shows it.
class AttemptHistory
{
public:
    struct Attempt
    {
        QString code;
        QString status; // empty while it runs; then a result status ("ok", "error", …)
    };

    void clear();
    // A new attempt (the agent's code as it ran); returns its number, from 1. The same code
    // as the last attempt is not a new attempt.
    int add(const QString &code);
    void setStatus(int number, const QString &status);
    int count() const { return int(m_attempts.size()); }
    const Attempt &at(int number) const { return m_attempts.at(number - 1); }
    // Unified diff of attempt `number` against the one before it (empty for the first).
    QString diffToPrevious(int number) const;
    // Unified diff of the person's text against attempt `number`.
    QString diffToEdited(int number, const QString &edited) const;

private:
    QList<Attempt> m_attempts;
};

} // namespace Sandcastle
