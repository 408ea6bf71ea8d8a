#include "cli.h"

#include <app/agent/agentrun.h>
#include <app/appsettings.h>
#include <app/keystore.h>
#include <app/llm/chatclient.h>
#include <app/llm/providers.h>
#include <app/store/conversationexport.h>
#include <app/store/conversationmanager.h>
#include <app/store/conversationrecorder.h>
#include <app/store/conversationstore.h>
#include <sandbox/containerengine.h>
#include <sandbox/resources.h>
#include <sandbox/sandboxsession.h>

#include <nlohmann/json.hpp>

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QUuid>

#include <QSocketNotifier>

#include <csignal>
#include <cstdio>
#include <functional>

#include <fcntl.h>
#include <unistd.h>

namespace Sandcastle::Cli {

namespace {

// Ctrl-C while a command runs: the signal handler only writes a byte to a pipe; the event loop
// reads it and stops the agent or the run cleanly, so the transcript stays consistent.
class SigintWatcher : public QObject
{
public:
    explicit SigintWatcher(std::function<void()> onInterrupt)
        : m_onInterrupt(std::move(onInterrupt))
    {
        if (::pipe2(s_fds, O_CLOEXEC | O_NONBLOCK) != 0)
            return;
        struct sigaction action
        {
        };
        action.sa_handler = [](int) {
            const char byte = 1;
            [[maybe_unused]] const ssize_t n = ::write(s_fds[1], &byte, 1);
        };
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESTART;
        ::sigaction(SIGINT, &action, &m_previous);
        m_notifier = new QSocketNotifier(s_fds[0], QSocketNotifier::Read, this);
        connect(m_notifier, &QSocketNotifier::activated, this, [this] {
            char buffer[16];
            while (::read(s_fds[0], buffer, sizeof buffer) > 0) {
            }
            ++m_count;
            if (m_count > 1)
                ::_exit(130); // a second Ctrl-C: the person means it
            m_onInterrupt();
        });
    }

    ~SigintWatcher() override
    {
        if (!m_notifier)
            return;
        ::sigaction(SIGINT, &m_previous, nullptr);
        ::close(s_fds[0]);
        ::close(s_fds[1]);
    }

    bool interrupted() const { return m_count > 0; }

private:
    static inline int s_fds[2] = {-1, -1};
    std::function<void()> m_onInterrupt;
    QSocketNotifier *m_notifier = nullptr;
    struct sigaction m_previous
    {
    };
    int m_count = 0;
};

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;
constexpr int kExitEngine = 125;

void writeOut(const QString &text)
{
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
    std::fflush(stdout);
}

void writeErr(const QString &text)
{
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stderr);
    std::fflush(stderr);
}

void emitJson(const nlohmann::ordered_json &event)
{
    writeOut(
        QString::fromStdString(event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
        + QLatin1Char('\n'));
}

std::string utf8(const QString &s)
{
    return s.toStdString();
}

QString usageText()
{
    return QStringLiteral(
        "usage: sandcastle [--version | --help]\n"
        "       sandcastle chat --prompt TEXT [--conversation ID] [--base-url URL]\n"
        "                       [--model NAME] [--workspace DIR] [--max-turns N] [--json]\n"
        "       sandcastle chat --list [--json]\n"
        "       sandcastle conversations list|search TEXT|show ID|rename ID TITLE|delete ID\n"
        "       sandcastle conversations export ID (--markdown FILE | --bundle DIR)\n"
        "       sandcastle exec [--fresh] [--timeout S] [--memory SIZE] [--network]\n"
        "                       [--workspace DIR] FILE|-\n"
        "       sandcastle image build\n"
        "       sandcastle doctor\n"
        "Without a command, sandcastle opens its window.\n");
}

int usageError(const QString &message)
{
    writeErr(QStringLiteral("sandcastle: ") + message + QLatin1Char('\n') + usageText());
    return kExitUsage;
}

// Parses `args` (the words after the subcommand); on failure prints and returns false.
bool parseOptions(QCommandLineParser &parser, const QString &command, const QStringList &args)
{
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    if (!parser.parse(QStringList{QStringLiteral("sandcastle ") + command} + args)) {
        usageError(parser.errorText());
        return false;
    }
    return true;
}

// The environment wins; otherwise the system keychain, if there is one and it holds a key.
QString loadKeyFromKeychain(AppSettings &settings)
{
    if (!settings.apiKey.isEmpty())
        return QStringLiteral("from the environment");
    const Result<QString> key = KeyStore::readBlocking(settings.keyAccount(), 3000);
    if (!key)
        return key.error();
    settings.apiKey = key.value();
    return QStringLiteral("from the system keychain");
}

QString newConversationId()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces).left(8);
}

// The conversation store of the data folder, or a message saying why it cannot be used.
Result<bool> openStore(ConversationStore &store, const AppSettings &settings)
{
    const Result<bool> opened = store.open(ConversationStore::defaultPath(settings.dataDir));
    if (!opened)
        return Result<bool>::failure(QStringLiteral("the conversation store cannot be used: ")
                                     + opened.error());
    return opened;
}

QString timeText(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm"));
}

int listConversations(const ConversationStore &store, bool asJson)
{
    const Result<QList<ConversationInfo>> all = store.list();
    if (!all) {
        writeErr(QStringLiteral("sandcastle: ") + all.error() + QLatin1Char('\n'));
        return kExitFailure;
    }
    for (const ConversationInfo &c : all.value()) {
        if (asJson)
            emitJson({{"type", "conversation"},
                      {"id", utf8(c.id)},
                      {"title", utf8(c.title)},
                      {"messages", c.messageCount},
                      {"updated_ms", c.updatedMs},
                      {"workspace", utf8(c.workspace)}});
        else
            writeOut(QStringLiteral("%1  %2  %3 messages  %4\n")
                         .arg(c.id, timeText(c.updatedMs))
                         .arg(c.messageCount, 4)
                         .arg(c.title));
    }
    if (!asJson && all.value().isEmpty())
        writeOut(QStringLiteral("no conversations yet\n"));
    return kExitOk;
}

// ---------------------------------------------------------------- chat

int runChat(const QStringList &args)
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
    parser.addOptions({prompt, baseUrl, model, workspace, maxTurns, json, conversation, list});
    if (!parseOptions(parser, QStringLiteral("chat"), args))
        return kExitUsage;
    if (!parser.positionalArguments().isEmpty())
        return usageError(QStringLiteral("chat takes no positional arguments: ")
                          + parser.positionalArguments().join(QLatin1Char(' ')));
    const bool asJson = parser.isSet(json);
    AppSettings settings = AppSettings::load();
    ConversationStore store;
    if (parser.isSet(list)) {
        const Result<bool> opened = openStore(store, settings);
        if (!opened) {
            writeErr(QStringLiteral("sandcastle: ") + opened.error() + QLatin1Char('\n'));
            return kExitFailure;
        }
        return listConversations(store, asJson);
    }
    const QString promptText = parser.value(prompt);
    if (promptText.trimmed().isEmpty())
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

    const Result<bool> opened = openStore(store, settings);
    if (!opened) {
        writeErr(QStringLiteral("sandcastle: ") + opened.error() + QLatin1Char('\n'));
        return kExitFailure;
    }
    ConversationInfo info;
    nlohmann::json history = nlohmann::json::array();
    if (parser.isSet(conversation)) {
        const Result<ConversationInfo> found = store.conversation(parser.value(conversation));
        if (!found)
            return usageError(found.error()
                              + QStringLiteral(" (sandcastle chat --list shows them)"));
        info = found.value();
        const Result<nlohmann::json> stored = store.messages(info.id);
        if (!stored) {
            writeErr(QStringLiteral("sandcastle: ") + stored.error() + QLatin1Char('\n'));
            return kExitFailure;
        }
        history = stored.value();
    } else {
        const QString id = newConversationId();
        const bool chosenWorkspace = parser.isSet(workspace);
        const Result<ConversationInfo> created
            = store.create(id,
                           ConversationManager::titleFromPrompt(promptText),
                           chosenWorkspace ? QDir(parser.value(workspace)).absolutePath()
                                           : settings.workspaceFor(id),
                           !chosenWorkspace);
        if (!created) {
            writeErr(QStringLiteral("sandcastle: ") + created.error() + QLatin1Char('\n'));
            return kExitFailure;
        }
        info = created.value();
    }
    // What the conversation was had with (never the key).
    store.setSetting(info.id, QStringLiteral("model"), utf8(settings.model));
    store.setSetting(info.id, QStringLiteral("base_url"), utf8(settings.baseUrl));
    loadKeyFromKeychain(settings);
    const QString conversationId = info.id;
    const QString workspaceDir = info.workspace;
    if (asJson)
        emitJson({{"type", "conversation"},
                  {"id", utf8(info.id)},
                  {"title", utf8(info.title)},
                  {"workspace", utf8(info.workspace)},
                  {"continued", parser.isSet(conversation)}});

    ContainerEngine(settings.engine, settings.engineContext)
        .reapOrphans(); // left by a crashed run, if any
    ChatClient client(settings.clientConfig());
    SandboxSession session(settings.sandboxConfig(conversationId, workspaceDir));
    AgentRun agent(&client, &session, settings.agentOptions());
    agent.loadHistory(history);
    ConversationRecorder recorder(&store, conversationId);
    recorder.attach(&agent);
    session.start(); // warm the sandbox while the model thinks

    int exitCode = kExitFailure;
    QEventLoop loop;
    bool midLine = false;
    QObject::connect(&agent, &AgentRun::textDelta, &loop, [&](const QString &text) {
        if (asJson) {
            emitJson({{"type", "text_delta"}, {"text", utf8(text)}});
        } else {
            writeOut(text);
            midLine = !text.endsWith(QLatin1Char('\n'));
        }
    });
    QObject::connect(&agent, &AgentRun::reasoningDelta, &loop, [&](const QString &text) {
        if (asJson)
            emitJson({{"type", "reasoning_delta"}, {"text", utf8(text)}});
    });
    QObject::connect(
        &agent,
        &AgentRun::toolCall,
        &loop,
        [&](const QString &id, const QString &name, const QString &arguments) {
            if (asJson) {
                emitJson({{"type", "tool_call"},
                          {"id", utf8(id)},
                          {"name", utf8(name)},
                          {"arguments", utf8(arguments)}});
                return;
            }
            if (midLine)
                writeOut(QStringLiteral("\n"));
            midLine = false;
            const nlohmann::json parsed = nlohmann::json::parse(utf8(arguments), nullptr, false);
            QString code = arguments;
            if (parsed.is_object() && parsed.contains("code") && parsed["code"].is_string())
                code = QString::fromStdString(parsed["code"].get<std::string>());
            writeOut(QStringLiteral("--- %1\n%2\n---\n").arg(name, code.trimmed()));
        });
    QObject::connect(&agent,
                     &AgentRun::toolOutput,
                     &loop,
                     [&](const QString &id, OutputStream stream, const QString &text) {
                         const char *streamName
                             = stream == OutputStream::Stdout ? "stdout" : "stderr";
                         if (asJson)
                             emitJson({{"type", "tool_output"},
                                       {"id", utf8(id)},
                                       {"stream", streamName},
                                       {"text", utf8(text)}});
                         else
                             writeOut(text);
                     });
    QObject::connect(&agent,
                     &AgentRun::toolAnswered,
                     &loop,
                     [&](const QString &id,
                         ToolResultStatus result,
                         const QString &error,
                         const QStringList &answeredFiles) {
                         const QString status = toolResultStatusName(result);
                         const int answeredExit = result == ToolResultStatus::Ok ? 0 : 1;
                         if (asJson) {
                             nlohmann::ordered_json files = nlohmann::ordered_json::array();
                             for (const QString &f : answeredFiles)
                                 files.push_back(utf8(f));
                             emitJson({{"type", "tool_result"},
                                       {"id", utf8(id)},
                                       {"status", utf8(status)},
                                       {"exit_code", answeredExit},
                                       {"duration_ms", 0},
                                       {"files", files}});
                             return;
                         }
                         if (!error.isEmpty())
                             writeOut(error.trimmed() + QLatin1Char('\n'));
                         writeOut(QStringLiteral("--- %1\n").arg(status));
                     });
    QObject::connect(&agent,
                     &AgentRun::toolResult,
                     &loop,
                     [&](const QString &id, const ExecutionResult &result) {
                         if (asJson) {
                             nlohmann::ordered_json files = nlohmann::ordered_json::array();
                             for (const QString &f : result.files)
                                 files.push_back(utf8(f));
                             emitJson({{"type", "tool_result"},
                                       {"id", utf8(id)},
                                       {"status", utf8(ExecutionResult::statusName(result.status))},
                                       {"exit_code", result.exitCode},
                                       {"duration_ms", result.durationMs},
                                       {"files", files}});
                             return;
                         }
                         if (!result.error.isEmpty())
                             writeOut(result.error.trimmed() + QLatin1Char('\n'));
                         writeOut(QStringLiteral("--- %1 in %2 ms%3\n")
                                      .arg(ExecutionResult::statusName(result.status))
                                      .arg(result.durationMs)
                                      .arg(result.files.isEmpty()
                                               ? QString()
                                               : QStringLiteral(", files: ")
                                                     + result.files.join(QStringLiteral(", "))));
                     });
    QObject::connect(
        &agent, &AgentRun::messageAdded, &loop, [&](const QString &role, const QString &content) {
            if (asJson)
                emitJson({{"type", "message"}, {"role", utf8(role)}, {"content", utf8(content)}});
        });
    QObject::connect(&agent,
                     &AgentRun::usage,
                     &loop,
                     [&](int promptTokens, int completionTokens, qint64 total, double cost) {
                         if (!asJson)
                             return;
                         nlohmann::ordered_json event = {{"type", "usage"},
                                                         {"prompt_tokens", promptTokens},
                                                         {"completion_tokens", completionTokens},
                                                         {"run_total_tokens", total},
                                                         {"turn", agent.turns()}};
                         if (cost >= 0)
                             event["run_cost_usd"] = cost;
                         emitJson(event);
                     });
    QObject::connect(
        &recorder, &ConversationRecorder::errorOccurred, &loop, [&](const QString &message) {
            if (asJson)
                emitJson({{"type", "error"}, {"code", "store"}, {"message", utf8(message)}});
            else
                writeErr(QStringLiteral("sandcastle: ") + message + QLatin1Char('\n'));
        });
    QObject::connect(
        &agent, &AgentRun::retrying, &loop, [&](int attempt, int delayMs, const QString &reason) {
            if (asJson) {
                emitJson({{"type", "retry"},
                          {"attempt", attempt},
                          {"delay_ms", delayMs},
                          {"reason", utf8(reason)}});
            } else {
                writeErr(QStringLiteral("sandcastle: retrying in %1 ms (attempt %2): %3\n")
                             .arg(delayMs)
                             .arg(attempt)
                             .arg(reason));
            }
        });
    QObject::connect(
        &agent, &AgentRun::errorOccurred, &loop, [&](const QString &code, const QString &message) {
            if (asJson)
                emitJson({{"type", "error"}, {"code", utf8(code)}, {"message", utf8(message)}});
            else
                writeErr(QStringLiteral("sandcastle: ") + message + QLatin1Char('\n'));
        });
    QObject::connect(&agent, &AgentRun::finished, &loop, [&](const QString &status, int turns) {
        if (asJson) {
            nlohmann::ordered_json event
                = {{"type", "done"}, {"status", utf8(status)}, {"turns", turns}};
            if (!agent.limitReached().isEmpty())
                event["limit"] = utf8(agent.limitReached());
            event["conversation"] = utf8(conversationId);
            emitJson(event);
        } else {
            if (midLine)
                writeOut(QStringLiteral("\n"));
            if (status != QLatin1String("answered"))
                writeErr(
                    QStringLiteral("sandcastle: the agent ended with status %1 after %2 turns\n")
                        .arg(status)
                        .arg(turns));
            writeErr(QStringLiteral("sandcastle: saved as conversation %1 (continue with "
                                    "--conversation %1)\n")
                         .arg(conversationId));
        }
        exitCode = status == QLatin1String("answered") ? kExitOk : kExitFailure;
        loop.quit();
    });
    const SigintWatcher sigint([&agent] { agent.stop(); });
    QMetaObject::invokeMethod(
        &agent, [&] { agent.start(promptText); }, Qt::QueuedConnection);
    loop.exec();
    session.stop();
    return sigint.interrupted() ? 130 : exitCode;
}

// ---------------------------------------------------------------- conversations

int runConversations(const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption json(QStringLiteral("json"),
                                  QStringLiteral("one JSON object per line"));
    const QCommandLineOption markdownFile(
        QStringLiteral("markdown"), QStringLiteral("export as Markdown"), QStringLiteral("FILE"));
    const QCommandLineOption bundleDir(QStringLiteral("bundle"),
                                       QStringLiteral("export as a re-runnable folder"),
                                       QStringLiteral("DIR"));
    parser.addOptions({json, markdownFile, bundleDir});
    if (!parseOptions(parser, QStringLiteral("conversations"), args))
        return kExitUsage;
    const QStringList words = parser.positionalArguments();
    const QString action = words.value(0, QStringLiteral("list"));
    auto needs = [&](int count, const QString &shape) {
        if (words.size() == count)
            return true;
        usageError(QStringLiteral("conversations ") + shape);
        return false;
    };
    const AppSettings settings = AppSettings::load();
    ConversationStore store;
    const Result<bool> opened = openStore(store, settings);
    if (!opened) {
        writeErr(QStringLiteral("sandcastle: ") + opened.error() + QLatin1Char('\n'));
        return kExitFailure;
    }
    auto fail = [](const QString &message) {
        writeErr(QStringLiteral("sandcastle: ") + message + QLatin1Char('\n'));
        return kExitFailure;
    };
    if (action == QLatin1String("list"))
        return needs(words.isEmpty() ? 0 : 1, QStringLiteral("list"))
                   ? listConversations(store, parser.isSet(json))
                   : kExitUsage;
    if (action == QLatin1String("search")) {
        if (words.size() < 2)
            return usageError(QStringLiteral("conversations search TEXT"));
        const Result<QList<SearchHit>> hits = store.search(words.mid(1).join(QLatin1Char(' ')));
        if (!hits)
            return fail(hits.error());
        for (const SearchHit &hit : hits.value()) {
            if (parser.isSet(json))
                emitJson({{"type", "hit"},
                          {"conversation", utf8(hit.conversationId)},
                          {"title", utf8(hit.title)},
                          {"role", utf8(hit.role)},
                          {"snippet", utf8(hit.snippet)}});
            else
                writeOut(
                    QStringLiteral("%1  %2  (%3) %4\n")
                        .arg(hit.conversationId, hit.title, hit.role, hit.snippet.simplified()));
        }
        return hits.value().isEmpty() ? kExitFailure : kExitOk;
    }
    if (action == QLatin1String("show")) {
        if (!needs(2, QStringLiteral("show ID")))
            return kExitUsage;
        const Result<QString> text = ConversationExport::markdown(store, words.at(1));
        if (!text)
            return fail(text.error());
        writeOut(text.value());
        return kExitOk;
    }
    if (action == QLatin1String("rename")) {
        if (words.size() < 3)
            return usageError(QStringLiteral("conversations rename ID TITLE"));
        const Result<bool> renamed = store.rename(words.at(1), words.mid(2).join(QLatin1Char(' ')));
        return renamed ? kExitOk : fail(renamed.error());
    }
    if (action == QLatin1String("delete")) {
        if (!needs(2, QStringLiteral("delete ID")))
            return kExitUsage;
        const Result<QString> removed
            = ConversationManager::remove(store,
                                          ContainerEngine(settings.engine, settings.engineContext),
                                          settings.dataDir,
                                          words.at(1));
        if (!removed)
            return fail(removed.error());
        if (!removed.value().isEmpty())
            writeErr(QStringLiteral("sandcastle: note: ") + removed.value() + QLatin1Char('\n'));
        return kExitOk;
    }
    if (action == QLatin1String("export")) {
        if (!needs(2, QStringLiteral("export ID (--markdown FILE | --bundle DIR)")))
            return kExitUsage;
        if (parser.isSet(markdownFile) == parser.isSet(bundleDir))
            return usageError(
                QStringLiteral("export takes either --markdown FILE or --bundle DIR"));
        const QString id = words.at(1);
        if (parser.isSet(bundleDir)) {
            const Result<QStringList> written
                = ConversationExport::bundle(store, id, parser.value(bundleDir));
            if (!written)
                return fail(written.error());
            writeOut(QStringLiteral("exported %1 files to %2\n")
                         .arg(written.value().size())
                         .arg(parser.value(bundleDir)));
            return kExitOk;
        }
        const Result<bool> written
            = ConversationExport::writeMarkdown(store, id, parser.value(markdownFile));
        if (!written)
            return fail(written.error());
        return kExitOk;
    }
    return usageError(QStringLiteral("unknown conversations action: ") + action);
}

// ---------------------------------------------------------------- exec

int runExec(const QStringList &args)
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

    QByteArray code;
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
    SandboxConfig config = settings.sandboxConfig(id, workspaceDir);
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
            switch (result.status) {
            case ExecutionResult::Status::Ok:
                exitCode = 0;
                break;
            case ExecutionResult::Status::Error:
                writeErr(result.error);
                exitCode = result.exitCode == 0 ? 1 : result.exitCode;
                break;
            case ExecutionResult::Status::Timeout:
                writeErr(QStringLiteral("sandcastle: timed out after %1 s\n")
                             .arg(config.timeoutMs / 1000.0));
                exitCode = 124;
                break;
            case ExecutionResult::Status::OutOfMemory:
                writeErr(QStringLiteral("sandcastle: ") + result.error + QLatin1Char('\n'));
                exitCode = 137;
                break;
            case ExecutionResult::Status::Killed:
                writeErr(QStringLiteral("sandcastle: ") + result.error + QLatin1Char('\n'));
                exitCode = 137;
                break;
            case ExecutionResult::Status::EngineError:
                writeErr(QStringLiteral("sandcastle: ") + result.error + QLatin1Char('\n'));
                exitCode = kExitEngine;
                break;
            }
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
    return sigint.interrupted() ? 130 : exitCode;
}

// ---------------------------------------------------------------- image build

int runImage(const QStringList &args)
{
    initSandboxResources();
    if (args.size() != 1 || args.first() != QLatin1String("build"))
        return usageError(QStringLiteral("the image command is: sandcastle image build"));
    QTemporaryDir context;
    if (!context.isValid()) {
        writeErr(QStringLiteral("sandcastle: cannot create a temporary folder\n"));
        return kExitEngine;
    }
    for (const char *name : {"Dockerfile", "kernel.py", "build-image.sh"}) {
        const QString fileName = QString::fromLatin1(name);
        QFile::copy(QStringLiteral(":/sandbox/image/") + fileName, context.filePath(fileName));
        QFile::setPermissions(context.filePath(fileName),
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner
                                  | QFile::ReadGroup | QFile::ReadOther);
    }
    QProcess build;
    build.setProcessChannelMode(QProcess::ForwardedChannels);
    build.setInputChannelMode(QProcess::ForwardedInputChannel);
    build.start(QStringLiteral("bash"), {context.filePath(QStringLiteral("build-image.sh"))});
    if (!build.waitForStarted()) {
        writeErr(QStringLiteral("sandcastle: cannot run bash to build the image\n"));
        return kExitEngine;
    }
    build.waitForFinished(-1);
    if (build.exitStatus() != QProcess::NormalExit)
        return kExitEngine;
    return build.exitCode() == 0 ? kExitOk : kExitEngine;
}

// ---------------------------------------------------------------- doctor

int runDoctor(const QStringList &args)
{
    if (!args.isEmpty())
        return usageError(QStringLiteral("doctor takes no arguments"));
    AppSettings settings = AppSettings::load();
    const QString keySource = loadKeyFromKeychain(settings);
    bool allOk = true;
    auto report = [&](bool ok, const QString &check, const QString &detail) {
        allOk = allOk && ok;
        writeOut(QStringLiteral("%1  %2  %3\n")
                     .arg(ok ? QStringLiteral("ok  ") : QStringLiteral("FAIL"),
                          check.leftJustified(8),
                          detail));
    };

    const QString enginePath = QStandardPaths::findExecutable(settings.engine);
    report(!enginePath.isEmpty(),
           QStringLiteral("engine"),
           enginePath.isEmpty()
               ? QStringLiteral("'%1' not found (apt-get install docker.io)").arg(settings.engine)
               : QStringLiteral("%1 at %2").arg(settings.engine, enginePath));
    const ContainerEngine engine(settings.engine, settings.engineContext);
    const Result<QString> daemon = enginePath.isEmpty()
                                       ? Result<QString>::failure(QStringLiteral("no engine"))
                                       : engine.checkDaemon();
    report(daemon.isOk(),
           QStringLiteral("daemon"),
           daemon ? QStringLiteral("running, version %1").arg(daemon.value()) : daemon.error());
    if (daemon) {
        const Result<bool> image = engine.imageExists(settings.image);
        const bool present = image && image.value();
        report(present,
               QStringLiteral("image"),
               present ? settings.image
                       : QStringLiteral("%1 is missing: run 'sandcastle image build'")
                             .arg(settings.image));
    } else {
        report(false, QStringLiteral("image"), QStringLiteral("cannot check without the daemon"));
    }

    // The endpoint: any HTTP answer from GET /models means it is reachable.
    QNetworkAccessManager network;
    QNetworkRequest request(modelsUrl(QUrl(settings.baseUrl)));
    request.setTransferTimeout(5000);
    if (!settings.apiKey.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + settings.apiKey.toUtf8());
    QNetworkReply *reply = network.get(request);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const bool reachable = status > 0;
    report(reachable,
           QStringLiteral("endpoint"),
           reachable ? QStringLiteral("%1 answers (HTTP %2)").arg(settings.baseUrl).arg(status)
                     : QStringLiteral("%1 cannot be reached: %2")
                           .arg(settings.baseUrl, reply->errorString()));
    reply->deleteLater();

    const QString host = QUrl(settings.baseUrl).host();
    const bool local = host == QLatin1String("localhost") || host.startsWith(QLatin1String("127."))
                       || host == QLatin1String("::1");
    const bool keyOk = !settings.apiKey.isEmpty() || local;
    const bool rejected = status == 401 || status == 403;
    report(keyOk && !rejected,
           QStringLiteral("key"),
           rejected ? QStringLiteral("the endpoint refused the API key (HTTP %1)").arg(status)
           : !settings.apiKey.isEmpty() ? QStringLiteral("set, ") + keySource
           : local
               ? QStringLiteral("none needed for a local endpoint")
               : QStringLiteral("missing: set SANDCASTLE_API_KEY or OPENAI_API_KEY, or enter it in "
                                "the settings (keychain: %1)")
                     .arg(keySource));
    return allOk ? kExitOk : kExitFailure;
}

} // namespace

bool isCommand(const QString &firstArgument)
{
    static const QStringList commands{QStringLiteral("chat"),
                                      QStringLiteral("conversations"),
                                      QStringLiteral("exec"),
                                      QStringLiteral("image"),
                                      QStringLiteral("doctor"),
                                      QStringLiteral("--version"),
                                      QStringLiteral("-v"),
                                      QStringLiteral("--help"),
                                      QStringLiteral("-h"),
                                      QStringLiteral("help")};
    return commands.contains(firstArgument);
}

int run(const QStringList &args)
{
    if (args.isEmpty())
        return usageError(QStringLiteral("no command given"));
    const QString command = args.first();
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
    if (command == QLatin1String("image"))
        return runImage(rest);
    if (command == QLatin1String("doctor"))
        return runDoctor(rest);
    return usageError(QStringLiteral("unknown command: ") + command);
}

} // namespace Sandcastle::Cli
