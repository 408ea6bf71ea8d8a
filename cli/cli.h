#pragma once

#include <QStringList>

namespace Sandcastle::Cli {

// True when the first argument names a headless command (chat, exec, image, doctor,
// --version, --help): main() then starts a QCoreApplication instead of the window.
bool isCommand(const QString &firstArgument);
// The headless commands by name (chat, exec, …, help).
const QStringList &commandNames();

// Prints "sandcastle: message" and the usage on stderr; returns the usage exit code (2).
int usageFailure(const QString &message);

// Runs a headless command; `args` excludes the program name. Needs a QCoreApplication.
// Exit codes follow architecture.md §5.
int run(const QStringList &arguments);

// --engine NAME and --context NAME, anywhere on the line (--name=VALUE too): taken out of the
// arguments into the environment the settings read (SANDCASTLE_ENGINE, SANDCASTLE_CONTEXT), so
// that every command, the window and the engines they start use them. Empty when they were
// well formed; otherwise what was wrong.
QString takeEngineOptions(QStringList &args);

} // namespace Sandcastle::Cli
