#pragma once

#include <QStringList>

// One function per command of the command line, each in its own file; `args` are the words
// after the command's name.
namespace Sandcastle::Cli {

int runChat(const QStringList &args);
int runConversations(const QStringList &args);
int runCheckpoints(const QStringList &args);
int runExec(const QStringList &args);
int runImage(const QStringList &args);
int runEnv(const QStringList &args);
int runDoctor(const QStringList &args);

} // namespace Sandcastle::Cli
