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

QString takeEngineOptions(QStringList &args)
{
    const QList<QPair<QString, const char *>> options{
        {QStringLiteral("--engine"), "SANDCASTLE_ENGINE"},
        {QStringLiteral("--context"), "SANDCASTLE_CONTEXT"}};
    for (int i = 0; i < args.size();) {
        bool taken = false;
        for (const auto &[name, variable] : options) {
            QString value;
            if (args.at(i) == name) {
                if (i + 1 >= args.size() || args.at(i + 1).isEmpty()
                    || args.at(i + 1).startsWith(QLatin1Char('-')))
                    return QStringLiteral("%1 needs a value").arg(name);
                value = args.at(i + 1);
                args.remove(i, 2);
            } else if (args.at(i).startsWith(name + QLatin1Char('='))) {
                value = args.at(i).mid(name.size() + 1);
                if (value.isEmpty())
                    return QStringLiteral("%1 needs a value").arg(name);
                args.remove(i);
            } else {
                continue;
            }
            qputenv(variable, value.toUtf8());
            taken = true;
            break;
        }
        if (!taken)
            ++i;
    }
    return {};
}

int run(const QStringList &arguments)
{
    QStringList args = arguments;
    const QString engineProblem = takeEngineOptions(args);
    if (!engineProblem.isEmpty())
        return usageError(engineProblem);
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
