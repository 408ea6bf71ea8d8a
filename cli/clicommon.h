#pragma once

// What every command of the command line shares: output, usage errors, option parsing, the
// key, the store, and Ctrl-C. Exit codes follow architecture.md §5.
#include <base/result.h>

#include <nlohmann/json.hpp>

#include <QObject>
#include <QString>

#include <functional>

#include <csignal>

class QCommandLineParser;
class QSocketNotifier;

namespace Sandcastle {
struct AppSettings;
class ConversationStore;
} // namespace Sandcastle

namespace Sandcastle::Cli {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;
constexpr int kExitEngine = 125;
constexpr int kExitInterrupted = 130;

void writeOut(const QString &text);
void writeErr(const QString &text);
// One JSON object on a line of its own (invalid UTF-8 replaced, never thrown on).
void emitJson(const nlohmann::ordered_json &event);
std::string utf8(const QString &s);
QString usageText();
// Prints the message and the usage; returns kExitUsage.
int usageError(const QString &message);
// Prints "sandcastle: message"; returns kExitFailure.
int failure(const QString &message);
// Parses `args` (the words after the subcommand); on failure prints and returns false.
bool parseOptions(QCommandLineParser &parser, const QString &command, const QStringList &args);
// The environment wins; otherwise the system keychain, if there is one and it holds a key.
// Returns where the key came from, or why there is none.
QString loadKeyFromKeychain(AppSettings &settings);
// The conversation store of the data folder, or a message saying why it cannot be used.
Result<bool> openStore(ConversationStore &store, const AppSettings &settings);
int listConversations(const ConversationStore &store, bool asJson);
// The image a run in `workspace` uses: its project environment when built; otherwise the last
// one built for it, or the default, with a line on stderr saying how to build it.
QString projectImage(const AppSettings &settings, const QString &workspace);

// Ctrl-C while a command runs: the signal handler only writes a byte to a pipe; the event loop
// reads it and stops the agent or the run cleanly, so the transcript stays consistent. A
// second Ctrl-C ends the process at once.
class SigintWatcher : public QObject
{
public:
    explicit SigintWatcher(std::function<void()> onInterrupt);
    ~SigintWatcher() override;
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

} // namespace Sandcastle::Cli
