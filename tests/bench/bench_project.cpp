// Checkpoints of a project: a 10,000-file folder (100 folders of 100 small files) with 10
// files changed between two checkpoints. The figure is one checkpoint (the state recorded
// after a step: find what changed, store it, commit) in the shadow repository; the baseline,
// measured on the same tree in the same run, is `git status --porcelain` of a plain git
// repository of it, which is what looking at that tree costs git itself.
#include "benchreport.h"

#include <app/project/checkpoints.h>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <cstdio>
#include <vector>

using namespace Sandcastle;

namespace {

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
           && file.write(bytes) == bytes.size();
}

bool git(const QString &dir, const QStringList &args)
{
    QProcess p;
    p.setWorkingDirectory(dir);
    p.start(QStringLiteral("git"), args);
    return p.waitForFinished(120000) && p.exitCode() == 0;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const int rounds = argc > 1 ? QString::fromLocal8Bit(argv[1]).toInt() : 30;
    QTemporaryDir data;
    QTemporaryDir project;
    const QString root = project.path();
    for (int d = 0; d < 100; ++d) {
        const QString folder = root + QStringLiteral("/module%1").arg(d);
        QDir().mkpath(folder);
        for (int f = 0; f < 100; ++f)
            writeFile(folder + QStringLiteral("/file%1.py").arg(f),
                      QByteArrayLiteral("def f():\n    return ") + QByteArray::number(d * 100 + f)
                          + '\n');
    }
    Checkpoints checkpoints(data.path(), root, QStringLiteral("bench"));
    if (!checkpoints.begin(QStringLiteral("turn"), QStringLiteral("first"), 0)) {
        std::fprintf(stderr, "bench_project: the first checkpoint failed\n");
        return 1;
    }
    std::vector<double> times;
    int round = 0;
    for (; round < rounds; ++round) {
        for (int i = 0; i < 10; ++i)
            writeFile(root + QStringLiteral("/module%1/file%2.py").arg(i * 7 % 100).arg(i),
                      QByteArrayLiteral("# round ") + QByteArray::number(round) + '\n');
        QElapsedTimer clock;
        clock.start();
        const Result<Checkpoint> step = checkpoints.end();
        times.push_back(double(clock.nsecsElapsed()) / 1e6);
        if (!step || checkpoints.changes(step.value()).value().size() != 10) {
            std::fprintf(stderr,
                         "bench_project: round %d: %s\n",
                         round,
                         step ? "not 10 files changed" : qPrintable(step.error()));
            return 1;
        }
        if (!checkpoints.begin(QStringLiteral("turn"), QStringLiteral("next"), round + 1))
            return 1;
    }

    // Baseline: git itself looking at the same tree.
    git(root, {QStringLiteral("init"), QStringLiteral("-q")});
    git(root, {QStringLiteral("add"), QStringLiteral("-A")});
    std::vector<double> status;
    for (int i = 0; i < rounds; ++i) {
        writeFile(root + QStringLiteral("/module3/file3.py"), QByteArray::number(i));
        QElapsedTimer clock;
        clock.start();
        git(root, {QStringLiteral("status"), QStringLiteral("--porcelain")});
        status.push_back(double(clock.nsecsElapsed()) / 1e6);
    }

    Bench::Row row;
    row.figure = "checkpoint, 10,000-file project, 10 files changed";
    row.unit = "ms";
    row.value = Bench::stats(times);
    row.baseline = "git status --porcelain of the same tree";
    row.baselineValue = Bench::stats(status);
    row.ratioLabel = "checkpoint / git status";
    row.ratio = row.value.median / std::max(row.baselineValue.median, 0.001);
    row.target = "<= 100 ms (median)";
    row.met = row.value.median <= 100;
    Bench::record(row);
    return 0;
}
