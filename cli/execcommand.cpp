#include "clicommon.h"
#include "commands.h"

#include <app/appsettings.h>
#include <app/store/conversationstore.h>
#include <sandbox/sandboxsession.h>

#include <QCommandLineParser>
#include <QDir>
#include <QEventLoop>
#include <QFile>

#include <optional>

namespace Sandcastle::Cli {

namespace {

// The options and the code of `exec` into `config` and `code`; a usage error's exit code
// otherwise.
std::optional<int> parseExec(const QStringList &args, SandboxConfig &config, QByteArray &code)
{
    QCommandLineParser parser;
    const QCommandLineOption fresh(QStringLiteral("fresh"),
                                   QStringLiteral("a new container for this run"));
    const QCommandLineOption timeout(
        QStringLiteral("timeout"), QStringLiteral("seconds"), QStringLiteral("S"));
    const QCommandLineOption memory(
        QStringLiteral("memory"), QStringLiteral("memory limit"), QStringLiteral("SIZE"));
    const QCommandLineOption network(QStringLiteral("network"),
                                     QStringLiteral("allow network access"));
    const QCommandLineOption workspace(
        QStringLiteral("workspace"), QStringLiteral("workspace folder"), QStringLiteral("DIR"));
    parser.addOptions({fresh, timeout, memory, network, workspace});
    if (!parseOptions(parser, QStringLiteral("exec"), args))
        return kExitUsage;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        return usageError(QStringLiteral("exec needs exactly one FILE, or - for standard input"));

    if (positional.first() == QLatin1String("-")) {
        QFile in;
        if (!in.open(stdin, QIODevice::ReadOnly))
            return usageError(QStringLiteral("cannot read standard input"));
        code = in.readAll();
    } else {
        QFile file(positional.first());
        if (!file.open(QIODevice::ReadOnly))
            return usageError(
                QStringLiteral("cannot read %1: %2").arg(positional.first(), file.errorString()));
        code = file.readAll();
    }

    const AppSettings settings = AppSettings::load();
    const QString id = QStringLiteral("exec-") + newConversationId();
    const QString workspaceDir = parser.isSet(workspace)
                                     ? QDir(parser.value(workspace)).absolutePath()
                                     : settings.workspaceFor(id);
    config = settings.sandboxConfig(id, workspaceDir, parser.isSet(workspace));
    config.keepsVolume = false; // one run: a remote engine's volume goes with the container
    config.preimports.clear();  // one run: it imports what it needs itself
    // A folder of the person's with requirements.txt or apt.txt runs in its environment.
    if (parser.isSet(workspace))
        config.image = projectImage(settings, workspaceDir);
    if (parser.isSet(timeout)) {
        bool ok = false;
        const double seconds = parser.value(timeout).toDouble(&ok);
        if (!ok || seconds <= 0)
            return usageError(QStringLiteral("--timeout needs a positive number of seconds"));
        config.timeoutMs = int(seconds * 1000);
    }
    if (parser.isSet(memory)) {
        if (!SandboxConfig::isValidMemory(parser.value(memory)))
            return usageError(QStringLiteral("--memory takes a size such as 512m or 2g"));
        config.memory = parser.value(memory);
    }
    config.network = parser.isSet(network);
    // A single run either way; --fresh also makes the kernel the container's main process.
    config.fresh = parser.isSet(fresh);
    return std::nullopt;
}

// What `exec` exits with for a run's result (architecture.md §5), saying why on stderr.
int exitCodeFor(const ExecutionResult &result, const SandboxConfig &config)
{
    if (!result.workspaceNote.isEmpty())
        writeErr(QStringLiteral("sandcastle: ") + result.workspaceNote + QLatin1Char('\n'));
    switch (result.status) {
    case ExecutionResult::Status::Ok:
        return 0;
    case ExecutionResult::Status::Error:
        writeErr(result.error);
        return result.exitCode == 0 ? 1 : result.exitCode;
    case ExecutionResult::Status::Timeout:
        writeErr(
            QStringLiteral("sandcastle: timed out after %1 s\n").arg(config.timeoutMs / 1000.0));
        return 124;
    case ExecutionResult::Status::OutOfMemory:
        writeErr(QStringLiteral("sandcastle: ") + result.error + QLatin1Char('\n'));
        return 137;
    case ExecutionResult::Status::Killed:
        writeErr(QStringLiteral("sandcastle: ") + result.error + QLatin1Char('\n'));
        return 137;
    case ExecutionResult::Status::EngineError:
        writeErr(QStringLiteral("sandcastle: ") + result.error + QLatin1Char('\n'));
        return kExitEngine;
    }
    return kExitEngine;
}

} // namespace

int runExec(const QStringList &args)
{
    SandboxConfig config;
    QByteArray code;
    if (const std::optional<int> usage = parseExec(args, config, code))
        return *usage;
    SandboxSession session(config);
    int exitCode = kExitEngine;
    QEventLoop loop;
    QObject::connect(&session,
                     &SandboxSession::outputReady,
                     &loop,
                     [](OutputStream stream, const QString &text) {
                         (stream == OutputStream::Stdout ? writeOut : writeErr)(text);
                     });
    QObject::connect(
        &session, &SandboxSession::finished, &loop, [&](const ExecutionResult &result) {
            exitCode = exitCodeFor(result, config);
            loop.quit();
        });
    const SigintWatcher sigint([&session] {
        if (session.state() == SandboxSession::State::Running)
            session.interrupt(); // the code gets a KeyboardInterrupt
        else
            session.stop(); // still starting: end the pending run
    });
    QMetaObject::invokeMethod(
        &session, [&] { session.runPython(QString::fromUtf8(code)); }, Qt::QueuedConnection);
    loop.exec();
    session.stop();
    return sigint.interrupted() ? kExitInterrupted : exitCode;
}

} // namespace Sandcastle::Cli
