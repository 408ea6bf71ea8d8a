#pragma once

#include <QString>

namespace Sandcastle {

// A unified diff (as `diff -u` writes it) of two texts, line by line, with `context` lines
// around each change; empty when the texts are equal. Used to tell the model exactly what the
// person changed in its code. Texts beyond a few thousand lines are diffed as a whole
// replacement rather than spending quadratic time.
QString unifiedDiff(const QString &before,
                    const QString &after,
                    const QString &beforeName = QStringLiteral("agent.py"),
                    const QString &afterName = QStringLiteral("person.py"),
                    int context = 3);

} // namespace Sandcastle
