#pragma once

#include <QString>
#include <QStringList>

namespace Sandcastle::Cli {

// What the words after `sandcastle` ask of the window, when they are not a command:
// `--workspace DIR` and Qt's own options (-platform, -style, …). Anything else — a mistyped
// command, an unknown option — is an error said on the command line, never "open the window".
struct WindowArguments
{
    QString workspace; // empty: no folder asked for
    QString error;     // empty: the arguments are fine
    bool ok() const { return error.isEmpty(); }
};

// `args` excludes the program name.
WindowArguments parseWindowArguments(const QStringList &args);

// The command nearest to a mistyped one ("exce" → "exec"), or empty when none is close.
QString nearestCommand(const QString &word);

} // namespace Sandcastle::Cli
