// The composition root: the one file that sees every layer. Headless commands get a
// QCoreApplication (no display needed); everything else opens the window.
#include <app/appsettings.h>
#include <cli/cli.h>
#include <sandbox/blockingjobs.h>
#include <sandbox/containerengine.h>
#include <ui/firstpaint.h>
#include <ui/mainwindow.h>
#include <ui/theme.h>
#include <ui/translations.h>

#include <QApplication>
#include <QCoreApplication>
#include <QThreadPool>

namespace {
void setIdentity()
{
    QCoreApplication::setOrganizationName(QStringLiteral("sandcastle"));
    QCoreApplication::setApplicationName(QStringLiteral("sandcastle"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SANDCASTLE_VERSION));
}
} // namespace

int main(int argc, char *argv[])
{
    if (argc > 1 && Sandcastle::Cli::isCommand(QString::fromLocal8Bit(argv[1]))) {
        QCoreApplication app(argc, argv);
        setIdentity();
        return Sandcastle::Cli::run(QCoreApplication::arguments().mid(1));
    }

    QApplication app(argc, argv);
    setIdentity();
    QApplication::setDesktopFileName(QStringLiteral("sandcastle"));
    const Sandcastle::AppSettings settings = Sandcastle::AppSettings::load();
    Sandcastle::installTranslations(settings.language);
    Sandcastle::applyTheme(Sandcastle::themeFromName(settings.theme));
    Sandcastle::reportFirstPaintIfAsked();
    // Containers left behind by a crashed instance are removed once the window is up, off the
    // UI thread, so that the window waits neither for the engine nor for the CPU it takes: only
    // containers whose owning process is gone are touched, never the one this instance starts.
    const Sandcastle::ContainerEngine engine(settings.engine, settings.engineContext);
    Sandcastle::FirstPaintHook::after(
        &app, [engine] { Sandcastle::blockingJobs()->start([engine] { engine.reapOrphans(); }); });
    Sandcastle::MainWindow window(settings);
    window.show();
    return QApplication::exec();
}
