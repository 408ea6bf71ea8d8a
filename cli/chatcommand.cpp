#include "chatprinter.h"
#include "clicommon.h"
#include "commands.h"

#include <app/agent/agent.h>
#include <app/appsettings.h>
#include <app/controller/conversationcontroller.h>
#include <app/llm/providers.h>
#include <app/mcp/mcptool.h>
#include <app/project/projectenvironment.h>
#include <app/store/conversationrecorder.h>
#include <app/store/conversationstore.h>
#include <sandbox/containerengine.h>

#include <QCommandLineParser>
#include <QEventLoop>
#include <QUrl>

#include <optional>

namespace Sandcastle::Cli {

namespace {

struct ChatRequest
{
    QString prompt;
    QString conversationId; // continue this one; empty for a new conversation
    QString workspace;      // a folder the person chose for a new one
    bool json = false;
    bool list = false;
};

// The options of `chat` into `settings` and a request; a usage error's exit code otherwise.
std::optional<int> parseChat(const QStringList &args, AppSettings &settings, ChatRequest &request)
{
    QCommandLineParser parser;
    const QCommandLineOption prompt(
        QStringLiteral("prompt"), QStringLiteral("what to ask"), QStringLiteral("TEXT"));
    const QCommandLineOption baseUrl(
        QStringLiteral("base-url"), QStringLiteral("model endpoint"), QStringLiteral("URL"));
    const QCommandLineOption model(
        QStringLiteral("model"), QStringLiteral("model name"), QStringLiteral("NAME"));
    const QCommandLineOption workspace(
        QStringLiteral("workspace"), QStringLiteral("workspace folder"), QStringLiteral("DIR"));
    const QCommandLineOption maxTurns(
        QStringLiteral("max-turns"), QStringLiteral("turn limit"), QStringLiteral("N"));
    const QCommandLineOption json(QStringLiteral("json"),
                                  QStringLiteral("one JSON event per line"));
    const QCommandLineOption conversation(QStringLiteral("conversation"),
                                          QStringLiteral("continue a stored conversation"),
                                          QStringLiteral("ID"));
    const QCommandLineOption list(QStringLiteral("list"),
                                  QStringLiteral("list the stored conversations"));
    const QCommandLineOption apiFormat(
        QStringLiteral("api"),
        QStringLiteral("wire format: chat, responses, messages or auto"),
        QStringLiteral("FORMAT"));
    parser.addOptions(
        {prompt, baseUrl, model, apiFormat, workspace, maxTurns, json, conversation, list});
    if (!parseOptions(parser, QStringLiteral("chat"), args))
        return kExitUsage;
    if (!parser.positionalArguments().isEmpty())
        return usageError(QStringLiteral("chat takes no positional arguments: ")
                          + parser.positionalArguments().join(QLatin1Char(' ')));
    request.json = parser.isSet(json);
    request.list = parser.isSet(list);
    if (request.list)
        return std::nullopt;
    request.prompt = parser.value(prompt);
    request.conversationId = parser.value(conversation);
    request.workspace = parser.value(workspace);
    if (request.prompt.trimmed().isEmpty())
        return usageError(QStringLiteral("chat needs --prompt TEXT"));
    if (parser.isSet(conversation) && parser.isSet(workspace))
        return usageError(
            QStringLiteral("--workspace cannot be combined with --conversation (a stored "
                           "conversation keeps its workspace)"));
    if (parser.isSet(baseUrl)) {
        settings.baseUrl = parser.value(baseUrl);
        settings.provider = providerForUrl(QUrl(settings.baseUrl)).id;
    }
    if (parser.isSet(model))
        settings.model = parser.value(model);
    if (parser.isSet(apiFormat)) {
        if (!wireFormatFromName(parser.value(apiFormat))
            && parser.value(apiFormat) != QLatin1String("auto"))
            return usageError(
                QStringLiteral("--api must be chat, responses, messages or auto, not '%1'")
                    .arg(parser.value(apiFormat)));
        settings.apiFormat = parser.value(apiFormat);
    }
    if (parser.isSet(maxTurns)) {
        bool ok = false;
        settings.maxTurns = parser.value(maxTurns).toInt(&ok);
        if (!ok || settings.maxTurns < 1)
            return usageError(QStringLiteral("--max-turns needs a positive number"));
    }
    const QUrl url(settings.baseUrl);
    if (!url.isValid()
        || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
        return usageError(QStringLiteral("--base-url must be an http(s) URL: ") + settings.baseUrl);
    return std::nullopt;
}

// Points the controller at the conversation the request names, or at a new saved one.
std::optional<int> openConversation(ConversationController &controller, const ChatRequest &request)
{
    if (!controller.storeError().isEmpty())
        return failure(QStringLiteral("the conversation store cannot be used: ")
                       + controller.storeError());
    if (!request.conversationId.isEmpty()) {
        const Result<ConversationInfo> found
            = controller.store()->conversation(request.conversationId);
        if (!found)
            return usageError(found.error()
                              + QStringLiteral(" (sandcastle chat --list shows them)"));
        const Result<bool> opened = controller.openConversation(request.conversationId);
        if (!opened)
            return failure(opened.error());
        return std::nullopt;
    }
    const Result<bool> opened = controller.newConversation(request.workspace);
    if (!opened)
        return usageError(opened.error()); // a folder of the person's that is refused
    const Result<bool> saved
        = controller.ensureSaved(ConversationInfo::titleFromPrompt(request.prompt));
    if (!saved)
        return failure(saved.error());
    return std::nullopt;
}

} // namespace

int runChat(const QStringList &args)
{
    AppSettings settings = AppSettings::load();
    ChatRequest request;
    if (const std::optional<int> usage = parseChat(args, settings, request))
        return *usage;
    if (request.list) {
        ConversationStore store;
        const Result<bool> opened = openStore(store, settings);
        if (!opened)
            return failure(opened.error());
        return listConversations(store, request.json);
    }
    loadKeyFromKeychain(settings);
    ConversationController controller(settings);
    if (const std::optional<int> failed = openConversation(controller, request))
        return *failed;
    controller.recordModelSettings(); // what it was had with (never the key)
    const std::unique_ptr<ChatPrinter> printer = ChatPrinter::create(request.json, &controller);
    printer->conversationOpened(!request.conversationId.isEmpty());
    // A folder whose environment is not built says so (there is no one here to approve a build).
    QObject::connect(controller.environment(),
                     &ProjectEnvironment::buildFinished,
                     &controller,
                     [](bool ok, const QString &message) {
                         if (!ok)
                             writeErr(QStringLiteral("sandcastle: ") + message + QLatin1Char('\n'));
                     });

    // Nobody is here to approve an MCP call: those whose server asks are declined, with how to
    // allow them; a server set to "never ask" is used.
    QObject::connect(
        controller.agent(),
        &Agent::approvalRequested,
        &controller,
        [&controller](const QString &, const QString &name, const QString &) {
            if (!McpTool::isMcpName(name))
                return;
            writeErr(QStringLiteral("sandcastle: declined %1: its MCP server asks "
                                    "before each use, and sandcastle chat cannot ask "
                                    "(set its \"approval\" to \"never\" in "
                                    "mcp.json to allow it here)\n")
                         .arg(name));
            controller.agent()->reject(
                QStringLiteral("sandcastle chat has no one to approve MCP calls"));
        },
        Qt::QueuedConnection);
    ContainerEngine(settings.engine, settings.engineContext)
        .reapOrphans();  // left by a crashed run, if any
    controller.warmUp(); // while the model thinks

    int exitCode = kExitFailure;
    QEventLoop loop;
    QObject::connect(
        controller.agent(), &Agent::finished, &loop, [&](const QString &status, int turns) {
            controller.recorder()->flushNow(); // a store problem is said before the last words
            printer->done(status, turns);
            exitCode = status == QLatin1String("answered") ? kExitOk : kExitFailure;
            loop.quit();
        });
    const SigintWatcher sigint([&controller] { controller.stop(); });
    QMetaObject::invokeMethod(
        &controller, [&] { controller.submitPrompt(request.prompt); }, Qt::QueuedConnection);
    loop.exec();
    controller.shutDown(ConversationController::ShutDownMode::Wait);
    return sigint.interrupted() ? kExitInterrupted : exitCode;
}

} // namespace Sandcastle::Cli
