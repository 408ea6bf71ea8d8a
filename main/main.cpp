// The composition root: the one file that sees every layer. Headless commands get a
// QCoreApplication (no display needed); everything else opens the window.
#include <app/appsettings.h>
#include <app/projectfolder.h>
#include <app/store/conversationstore.h>
#include <app/store/storeschema.h>
#include <cli/cli.h>
#include <cli/windowarguments.h>
#include <sandbox/blockingjobs.h>
#include <sandbox/containerengine.h>
#include <ui/firstpaint.h>
#include <ui/mainwindow.h>
#include <ui/theme.h>
#include <ui/translations.h>

#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSocketNotifier>
#include <QThreadPool>

#include <csignal>
#include <cstdio>

#include <sys/socket.h>
#include <unistd.h>

namespace {
void setIdentity()
{
    QCoreApplication::setOrganizationName(QStringLiteral("sandcastle"));
    QCoreApplication::setApplicationName(QStringLiteral("sandcastle"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SANDCASTLE_VERSION));
}

int g_quitPipe[2] = {-1, -1};

// SIGTERM, SIGINT and SIGHUP (a logout, `kill`, Ctrl+C in the terminal) end the window as
// quitting does: the sandboxes and the warm spare are removed on the way out, not left for
// the next start to reap. The handler only writes a byte; the event loop does the rest.
void quitOnSignals(QApplication &app)
{
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_quitPipe) != 0)
        return;
    auto *notifier = new QSocketNotifier(g_quitPipe[1], QSocketNotifier::Read, &app);
    QObject::connect(notifier, &QSocketNotifier::activated, &app, [notifier] {
        notifier->setEnabled(false);
        QApplication::quit();
    });
    struct sigaction action = {};
    action.sa_handler = [](int) {
        const char byte = 1;
        [[maybe_unused]] const ssize_t written = ::write(g_quitPipe[0], &byte, 1);
    };
    ::sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (const int signal : {SIGTERM, SIGINT, SIGHUP})
        ::sigaction(signal, &action, nullptr);
}
} // namespace

int main(int argc, char *argv[])
{
    // --engine and --context go to the environment first: the commands and the window both
    // read them from there.
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    const QString engineProblem = Sandcastle::Cli::takeEngineOptions(args);
    if (!engineProblem.isEmpty())
        return Sandcastle::Cli::usageFailure(engineProblem);
    if (!args.isEmpty() && Sandcastle::Cli::isCommand(args.first())) {
        QCoreApplication app(argc, argv);
        setIdentity();
        return Sandcastle::Cli::run(args);
    }

    setIdentity();
    const Sandcastle::AppSettings settings = Sandcastle::AppSettings::load();
    // sandcastle [--workspace DIR] [Qt's options]: the window. Anything else (a mistyped
    // command, an unknown option) is said with the usage, exit 2; a refused folder too, all
    // before anything opens.
    const Sandcastle::Cli::WindowArguments parsed = Sandcastle::Cli::parseWindowArguments(args);
    if (!parsed.ok())
        return Sandcastle::Cli::usageFailure(parsed.error);
    QString folder;
    if (!parsed.workspace.isEmpty()) {
        const auto checked = Sandcastle::ProjectFolder::check(
            parsed.workspace, QDir::homePath(), settings.dataDir);
        if (!checked) {
            std::fprintf(stderr, "sandcastle: %s\n", qPrintable(checked.error()));
            return 2;
        }
        folder = checked.value().path;
    }
    // Without a display Qt would abort (SIGABRT): one line instead, and exit 1.
    const bool platformChosen = qEnvironmentVariableIsSet("QT_QPA_PLATFORM")
                                || args.contains(QStringLiteral("-platform"));
    if (!platformChosen && !qEnvironmentVariableIsSet("DISPLAY")
        && !qEnvironmentVariableIsSet("WAYLAND_DISPLAY")) {
        std::fprintf(stderr,
                     "sandcastle: no display to open the window on (DISPLAY and WAYLAND_DISPLAY "
                     "are unset); the commands work without one: sandcastle --help\n");
        return 1;
    }

    QApplication app(argc, argv);
    quitOnSignals(app);
    QApplication::setDesktopFileName(QStringLiteral("org.sandcastle.Sandcastle"));
    Sandcastle::installTranslations(settings.language);
    Sandcastle::applyTheme(Sandcastle::themeFromName(settings.theme));
    Sandcastle::reportFirstPaintIfAsked();
    // Containers left behind by a crashed instance are removed once the window is up, off the
    // UI thread, so that the window waits neither for the engine nor for the CPU it takes: only
    // containers whose owning process is gone are touched, never the one this instance starts.
    const Sandcastle::ContainerEngine engine(settings.engine, settings.engineContext);
    Sandcastle::FirstPaintHook::after(
        &app, [engine] { Sandcastle::blockingJobs()->start([engine] { engine.reapOrphans(); }); });
    // A new data folder's store gets its schema (three migrations, the WAL switch: 5 ms) on a
    // worker thread while the window builds its panes; the window opens it after them.
    const QString storePath = Sandcastle::ConversationStore::defaultPath(settings.dataDir);
    if (!QFileInfo::exists(storePath))
        Sandcastle::StoreSchema::prepareInBackground(storePath);
    Sandcastle::MainWindow window(settings);
    if (!folder.isEmpty())
        window.openFolder(folder);
    window.show();
    return QApplication::exec();
}
