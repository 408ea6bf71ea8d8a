// The files pane on a big project: a tree of 100 folders of 1,000 files and one of 10,000
// (110,000 files, some of them ignored by the .gitignore), opened, every folder expanded as
// it appears, then scrolled end to end a page at a time; the figure is the longest
// event-loop stall over all of it. The baseline is the same on a tree of 1,000 files.
// Then quick open (Ctrl+P) on the same tree: the longest stall while a query is typed.
#include "benchreport.h"
#include "benchui.h"

#include <ui/files/filespane.h>
#include <ui/files/quickopen.h>

#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTreeView>

#include <cstdio>
#include <vector>

using namespace Sandcastle;

namespace BenchUi {

namespace {

void makeTree(const QString &root, int folders, int filesEach, int bigFolder)
{
    auto touch = [](const QString &path) {
        QFile file(path);
        if (file.open(QIODevice::WriteOnly))
            file.write("x\n");
    };
    QFile ignore(root + QStringLiteral("/.gitignore"));
    if (ignore.open(QIODevice::WriteOnly))
        ignore.write("*.log\nbuild/\n");
    for (int d = 0; d < folders; ++d) {
        const QString folder = root + QStringLiteral("/pkg%1").arg(d, 3, 10, QLatin1Char('0'));
        QDir().mkpath(folder);
        for (int f = 0; f < filesEach; ++f)
            touch(folder
                  + QStringLiteral("/module_%1.%2")
                        .arg(f)
                        .arg(f % 10 == 0 ? QLatin1String("log") : QLatin1String("py")));
    }
    if (bigFolder > 0) {
        const QString folder = root + QStringLiteral("/vendor");
        QDir().mkpath(folder);
        for (int f = 0; f < bigFolder; ++f)
            touch(folder + QStringLiteral("/file%1.txt").arg(f));
    }
}

// Opens the tree, expands each folder as it appears, scrolls to the end; returns the
// longest stall, and in `rows` how many rows the view showed, in `openMs` how long it took
// until all were shown and in `openStallMs` the longest stall until then.
double
openAndScroll(const QString &root, int expectedRows, int *rows, double *openMs, double *openStallMs)
{
    FilesPane pane;
    pane.resize(420, 900);
    pane.show();
    waitFor([] { return false; }, 200);
    QTreeView *view = pane.view();
    QAbstractItemModel *model = view->model();
    FramePulse pulse;
    const double start = nowMs();
    pane.setRoot(root);
    auto shownRows = [&] {
        const QModelIndex top = view->rootIndex();
        int n = model->rowCount(top);
        for (int r = 0; r < model->rowCount(top); ++r) {
            const QModelIndex child = model->index(r, 0, top);
            if (!model->hasChildren(child))
                continue;
            if (!view->isExpanded(child))
                view->expand(child);
            n += model->rowCount(child);
        }
        return n;
    };
    waitFor([&] { return shownRows() >= expectedRows; }, 600000);
    *openMs = nowMs() - start;
    *rows = shownRows();
    *openStallMs = pulse.longest();
    QScrollBar *bar = view->verticalScrollBar();
    waitFor([] { return false; }, 100);
    while (bar->value() < bar->maximum()) {
        bar->setValue(bar->value() + std::max(1, bar->pageStep()) * 40);
        waitFor([] { return false; }, 8);
    }
    waitFor([] { return false; }, 100);
    return pulse.longest();
}

// Opens quick open on `root`, waits for its file list, then types `query` a character every
// 30 ms; returns the longest stall while typing, and in `resultsMs` the time from the last
// keystroke to its matches being shown, and in `fullMs` the time a query that narrows nothing
// (all the paths matched) takes to show.
double
typeQuery(const QString &root, const QString &query, double *resultsMs, double *fullMs, int *files)
{
    FilesPane pane;
    pane.resize(800, 900);
    pane.show();
    pane.setRoot(root);
    pane.showQuickOpen();
    QuickOpen *open = pane.quickOpen();
    waitFor([&] { return open->fileCount() > 0 && !open->isBusy(); }, 600000);
    *files = open->fileCount();
    waitFor([] { return false; }, 100);
    FramePulse pulse;
    double lastKey = 0;
    for (qsizetype i = 0; i < query.size(); ++i) {
        if (i > 0)
            waitFor([] { return false; }, 30);
        open->queryBox()->insert(QString(query.at(i)));
        lastKey = nowMs();
    }
    waitFor([&] { return !open->isBusy(); }, 600000);
    *resultsMs = nowMs() - lastKey;
    // A query that narrows nothing: all the paths matched again.
    open->queryBox()->setText(QStringLiteral("mo"));
    const double start = nowMs();
    waitFor([&] { return !open->isBusy(); }, 600000);
    *fullMs = nowMs() - start;
    return pulse.longest();
}

} // namespace

void fileTree()
{
    QTemporaryDir big;
    QTemporaryDir small;
    makeTree(big.path(), 100, 1000, 10000);
    makeTree(small.path(), 10, 100, 0);
    const int bigRows = 1 + 100 + 100 * 1000 + 1 + 10000; // .gitignore, folders, files
    const int smallRows = 1 + 10 + 10 * 100;
    std::vector<double> stalls, baseline;
    double openMs = 0;
    double openStall = 0;
    int rows = 0;
    for (int i = 0; i < 3; ++i) {
        double unused = 0;
        int smallShown = 0;
        baseline.push_back(openAndScroll(small.path(), smallRows, &smallShown, &unused, &unused));
        stalls.push_back(openAndScroll(big.path(), bigRows, &rows, &openMs, &openStall));
    }
    const Bench::Stats s = Bench::stats(stalls);
    const Bench::Stats b = Bench::stats(baseline);
    Bench::record({"longest stall opening and scrolling a 110,000-file tree",
                   "ms",
                   s,
                   "the same for a tree of 1,000 files",
                   b,
                   "110,000 / 1,000 files",
                   b.median > 0 ? s.median / b.median : 0,
                   "<= 50 ms",
                   s.n > 0 && s.p95 <= 50,
                   std::to_string(rows) + " rows shown, all expanded in "
                       + std::to_string(int(openMs)) + " ms, longest stall until then "
                       + std::to_string(int(openStall)) + " ms (last run)"});

    std::vector<double> typing, latency, full;
    int files = 0;
    for (int i = 0; i < 3; ++i) {
        double resultsMs = 0;
        double fullMs = 0;
        typing.push_back(
            typeQuery(big.path(), QStringLiteral("pkg05mod12py"), &resultsMs, &fullMs, &files));
        latency.push_back(resultsMs);
        full.push_back(fullMs);
    }
    const Bench::Stats t = Bench::stats(typing);
    const Bench::Stats l = Bench::stats(latency);
    Bench::record({"longest stall typing a quick-open query",
                   "ms",
                   t,
                   "",
                   {},
                   "",
                   0,
                   "<= 50 ms",
                   t.n > 0 && t.p95 <= 50,
                   std::to_string(files) + " paths matched as each of 12 characters is typed; "
                       + "the last keystroke's matches shown after " + std::to_string(int(l.median))
                       + " ms, a query over all of them after "
                       + std::to_string(int(Bench::stats(full).median)) + " ms (medians)"});
}

} // namespace BenchUi
