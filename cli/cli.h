#pragma once

#include <QStringList>

namespace Sandcastle::Cli {

// True when the first argument names a headless command (chat, exec, image, doctor,
// --version, --help): main() then starts a QCoreApplication instead of the window.
bool isCommand(const QString &firstArgument);

// Runs a headless command; `args` excludes the program name. Needs a QCoreApplication.
// Exit codes follow architecture.md §5.
int run(const QStringList &args);

} // namespace Sandcastle::Cli
