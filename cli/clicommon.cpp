#include "clicommon.h"

#include <app/appsettings.h>
#include <app/keystore.h>
#include <app/store/conversationstore.h>

#include <QCommandLineParser>
#include <QDateTime>
#include <QSocketNotifier>

#include <cstdio>

#include <fcntl.h>
#include <unistd.h>

namespace Sandcastle::Cli {

SigintWatcher::SigintWatcher(std::function<void()> onInterrupt)
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
            ::_exit(kExitInterrupted); // a second Ctrl-C: the person means it
        m_onInterrupt();
    });
}

SigintWatcher::~SigintWatcher()
{
    if (!m_notifier)
        return;
    ::sigaction(SIGINT, &m_previous, nullptr);
    ::close(s_fds[0]);
    ::close(s_fds[1]);
}

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
        "                       [--model NAME] [--api chat|responses|messages]\n"
        "                       [--workspace DIR] [--max-turns N] [--json]\n"
        "       sandcastle chat --list [--json]\n"
        "       sandcastle conversations list|search TEXT|show ID|rename ID TITLE|delete ID\n"
        "       sandcastle conversations export ID (--markdown FILE | --bundle DIR |\n"
        "                                              --notebook FILE)\n"
        "       sandcastle checkpoints list ID | diff ID N [FILE] [--json]\n"
        "       sandcastle checkpoints undo ID N | restore ID N [--before] [--yes] [--json]\n"
        "       sandcastle exec [--fresh] [--timeout S] [--memory SIZE] [--network]\n"
        "                       [--workspace DIR] FILE|-\n"
        "       sandcastle image build|send\n"
        "       sandcastle env build|show [--workspace DIR] [--wheelhouse DIR] [--timeout S]\n"
        "                       [--yes] [--json]\n"
        "       sandcastle doctor\n"
        "       sandcastle [--workspace DIR]     the window (and Qt's options: -platform, …)\n"
        "every command takes --engine docker|podman|PATH and --context NAME (a docker context\n"
        "or a podman connection), as the settings' engine and context\n");
}

int usageError(const QString &message)
{
    writeErr(QStringLiteral("sandcastle: ") + message + QLatin1Char('\n') + usageText());
    return kExitUsage;
}

bool parseOptions(QCommandLineParser &parser, const QString &command, const QStringList &args)
{
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    if (!parser.parse(QStringList{QStringLiteral("sandcastle ") + command} + args)) {
        usageError(parser.errorText());
        return false;
    }
    return true;
}

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

Result<bool> openStore(ConversationStore &store, const AppSettings &settings)
{
    Result<bool> opened = store.open(ConversationStore::defaultPath(settings.dataDir));
    if (!opened)
        return Result<bool>::failure(QStringLiteral("the conversation store cannot be used: ")
                                     + opened.error());
    return opened;
}

namespace {
QString timeText(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm"));
}

} // namespace

int failure(const QString &message)
{
    writeErr(QStringLiteral("sandcastle: ") + message + QLatin1Char('\n'));
    return kExitFailure;
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

} // namespace Sandcastle::Cli
