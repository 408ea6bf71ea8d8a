// Start-up to the first painted window, and resident memory once idle, of the application
// against a bare QMainWindow + QsciScintilla program (bare_window), launched alternately on
// the same display (scripts/bench runs this under Xvfb). Given a conversation store (bench_scale's,
// 1,000 conversations and 1,000,000 messages), also the application's start-up with it as its
// data folder's store against the same with an empty data folder, launched alternately.
//   bench_startup SANDCASTLE BARE_WINDOW [STORE]
#include "benchreport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>

#include <cstdio>
#include <vector>

#include <unistd.h>

namespace {

// Whether the engine still runs (or removes) sandboxes of the application: each launch starts
// a sandbox and a warm spare once its first frame is up, and removes them when it quits; the
// next launch is timed only once the engine has finished with them (else the engine's
// processes take one of the two cores from the window that is being timed).
bool sandboxesLeft()
{
    QProcess ps;
    ps.start(qEnvironmentVariable("SANDCASTLE_ENGINE", QStringLiteral("docker")),
             {QStringLiteral("ps"),
              QStringLiteral("--all"),
              QStringLiteral("--quiet"),
              QStringLiteral("--filter"),
              QStringLiteral("label=app=sandcastle")});
    if (!ps.waitForFinished(10000) || ps.exitCode() != 0)
        return false; // no engine: nothing of it to wait for
    return !ps.readAllStandardOutput().trimmed().isEmpty();
}

void waitForQuietEngine()
{
    QElapsedTimer clock;
    clock.start();
    while (sandboxesLeft() && clock.elapsed() < 20000)
        QThread::msleep(100);
    QThread::msleep(200); // the daemon's own clean-up after the last removal
}

// Milliseconds from start to "first-paint"; the resident memory after `idleMs` more.
// `dataDir` empty: a new empty data folder.
bool launch(const QString &program,
            int idleMs,
            double *startMs,
            double *idleMb,
            const QString &dataDir = QString())
{
    QTemporaryDir data;
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SANDCASTLE_REPORT_FIRST_PAINT"), QStringLiteral("1"));
    env.insert(QStringLiteral("SANDCASTLE_DATA_DIR"), dataDir.isEmpty() ? data.path() : dataDir);
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
    waitForQuietEngine();
    return true;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (argc < 3) {
        std::fprintf(stderr, "usage: bench_startup SANDCASTLE BARE_WINDOW [STORE]\n");
        return 2;
    }
    // The big store becomes a data folder's own (a hard link: the same disk, no copy of 2 GB).
    QTemporaryDir bigData;
    QString bigDataDir;
    if (argc > 3) {
        const QByteArray store = argv[3];
        const QByteArray linked
            = QFile::encodeName(bigData.filePath(QStringLiteral("conversations.sqlite3")));
        if (::link(store.constData(), linked.constData()) != 0) {
            std::fprintf(stderr, "bench_startup: cannot link %s into a data folder\n", argv[3]);
            return 1;
        }
        bigDataDir = bigData.path();
    }
    std::vector<double> emptyStart, bigStart;
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
        if (bigDataDir.isEmpty())
            continue;
        // Start-up alone (no idle wait): the big store's data folder, then an empty one.
        if (!launch(sandcastle, 200, &ms, &mb, bigDataDir)) {
            std::fprintf(stderr, "bench_startup: %s did not paint\n", qPrintable(sandcastle));
            return 1;
        }
        if (!first)
            bigStart.push_back(ms);
        if (!launch(sandcastle, 200, &ms, &mb)) {
            std::fprintf(stderr, "bench_startup: %s did not paint\n", qPrintable(sandcastle));
            return 1;
        }
        if (!first)
            emptyStart.push_back(ms);
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
    if (!bigDataDir.isEmpty()) {
        const Bench::Stats big = Bench::stats(bigStart), empty = Bench::stats(emptyStart);
        Bench::record({"start-up with 1,000 conversations / 1,000,000 messages",
                       "ms",
                       big,
                       "the same with an empty data folder",
                       empty,
                       "big store / empty",
                       big.median / empty.median,
                       "<= 1.2x",
                       big.median / empty.median <= 1.2,
                       ""});
    }
    return 0;
}
