// Start-up to the first painted window, and resident memory once idle, of the application
// against a bare QMainWindow + QsciScintilla program (bare_window), launched alternately on
// the same display (scripts/bench runs this under Xvfb).
//   bench_startup SANDCASTLE BARE_WINDOW
#include "benchreport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>

#include <cstdio>
#include <vector>

namespace {

// Milliseconds from start to "first-paint"; the resident memory after `idleMs` more.
bool launch(const QString &program, int idleMs, double *startMs, double *idleMb)
{
    QTemporaryDir data;
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SANDCASTLE_REPORT_FIRST_PAINT"), QStringLiteral("1"));
    env.insert(QStringLiteral("SANDCASTLE_DATA_DIR"), data.path());
    // A configured model (nothing listens there): the usual window, not the first-launch panel.
    env.insert(QStringLiteral("SANDCASTLE_BASE_URL"), QStringLiteral("http://127.0.0.1:9/v1"));
    env.insert(QStringLiteral("SANDCASTLE_MODEL"), QStringLiteral("bench-model"));
    env.insert(QStringLiteral("SANDCASTLE_API_KEY"), QStringLiteral("bench"));
    process.setProcessEnvironment(env);
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    QElapsedTimer clock;
    clock.start();
    process.start(program, {});
    if (!process.waitForStarted(10000))
        return false;
    QByteArray out;
    while (!out.contains("first-paint")) {
        if (!process.waitForReadyRead(30000))
            return false;
        out += process.readAllStandardOutput();
    }
    *startMs = double(clock.nsecsElapsed()) / 1e6;
    QThread::msleep(quint64(idleMs));
    *idleMb = double(Bench::residentKiB(process.processId())) / 1024.0;
    process.terminate();
    if (!process.waitForFinished(5000)) {
        process.kill();
        process.waitForFinished(5000);
    }
    return true;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (argc < 3) {
        std::fprintf(stderr, "usage: bench_startup SANDCASTLE BARE_WINDOW\n");
        return 2;
    }
    const QString sandcastle = QString::fromLocal8Bit(argv[1]);
    const QString bare = QString::fromLocal8Bit(argv[2]);
    std::vector<double> appStart, bareStart, appRss, bareRss;
    for (int i = 0; i < 8; ++i) {
        double ms = 0, mb = 0;
        const bool first = i == 0; // warms the disk cache for both; not counted
        if (!launch(sandcastle, first ? 200 : 3000, &ms, &mb)) {
            std::fprintf(stderr, "bench_startup: %s did not paint\n", qPrintable(sandcastle));
            return 1;
        }
        if (!first) {
            appStart.push_back(ms);
            appRss.push_back(mb);
        }
        if (!launch(bare, first ? 200 : 3000, &ms, &mb)) {
            std::fprintf(stderr, "bench_startup: %s did not paint\n", qPrintable(bare));
            return 1;
        }
        if (!first) {
            bareStart.push_back(ms);
            bareRss.push_back(mb);
        }
    }
    const Bench::Stats a = Bench::stats(appStart), b = Bench::stats(bareStart);
    const Bench::Stats ar = Bench::stats(appRss), br = Bench::stats(bareRss);
    std::printf("Start-up (Xvfb)\n");
    Bench::record({"start-up to the first painted main window",
                   "ms",
                   a,
                   "bare QMainWindow + QsciScintilla",
                   b,
                   "sandcastle / bare",
                   a.median / b.median,
                   "<= 1.5x",
                   a.median / b.median <= 1.5,
                   ""});
    Bench::record({"resident memory, idle 3 s after start",
                   "MB",
                   ar,
                   "bare QMainWindow + QsciScintilla",
                   br,
                   "sandcastle / bare",
                   ar.median / br.median,
                   "<= 120 MB",
                   ar.median <= 120,
                   ""});
    return 0;
}
