#include "cli.h"

#include "clicommon.h"
#include "commands.h"

namespace Sandcastle::Cli {

const QStringList &commandNames()
{
    static const QStringList commands{QStringLiteral("chat"),
                                      QStringLiteral("conversations"),
                                      QStringLiteral("checkpoints"),
                                      QStringLiteral("exec"),
                                      QStringLiteral("image"),
                                      QStringLiteral("env"),
                                      QStringLiteral("doctor"),
                                      QStringLiteral("help")};
    return commands;
}

bool isCommand(const QString &firstArgument)
{
    static const QStringList options{QStringLiteral("--version"),
                                     QStringLiteral("-v"),
                                     QStringLiteral("--help"),
                                     QStringLiteral("-h")};
    return commandNames().contains(firstArgument) || options.contains(firstArgument);
}

int usageFailure(const QString &message)
{
    return usageError(message);
}

int run(const QStringList &args)
{
    if (args.isEmpty())
        return usageError(QStringLiteral("no command given"));
    const QString &command = args.first();
    const QStringList rest = args.mid(1);
    if (command == QLatin1String("--version") || command == QLatin1String("-v")) {
        writeOut(QStringLiteral("sandcastle %1\n").arg(QStringLiteral(SANDCASTLE_VERSION)));
        return kExitOk;
    }
    if (command == QLatin1String("--help") || command == QLatin1String("-h")
        || command == QLatin1String("help")) {
        writeOut(usageText());
        return kExitOk;
    }
    if (command == QLatin1String("chat"))
        return runChat(rest);
    if (command == QLatin1String("exec"))
        return runExec(rest);
    if (command == QLatin1String("conversations"))
        return runConversations(rest);
    if (command == QLatin1String("checkpoints"))
        return runCheckpoints(rest);
    if (command == QLatin1String("image"))
        return runImage(rest);
    if (command == QLatin1String("env"))
        return runEnv(rest);
    if (command == QLatin1String("doctor"))
        return runDoctor(rest);
    return usageError(QStringLiteral("unknown command: ") + command);
}

} // namespace Sandcastle::Cli
