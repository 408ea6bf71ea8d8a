// The store at scale in the real main window (offscreen): given bench_scale's store (1,000
// conversations, 1,000,000 messages), hard-linked into a data folder of its own, the time from
// openConversation() to the first frame of the transcript with it, for a conversation of typical
// size and for the largest, each against the store's own read of the same conversation
// (ConversationStore::messages) measured in the same run; and the longest frame while the
// largest is scrolled from its end to its start a page at a time.
//   bench_scalewindow STORE
#include "benchreport.h"

#include <app/appsettings.h>
#include <app/store/conversationstore.h>
#include <ui/chat/chatpane.h>
#include <ui/chat/transcriptmodel.h>
#include <ui/mainwindow.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QListView>
#include <QScrollBar>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

#include <unistd.h>

using namespace Sandcastle;

namespace {

QElapsedTimer g_clock;

double nowMs()
{
    return double(g_clock.nsecsElapsed()) / 1e6;
}

void settle(int ms)
{
    const double until = nowMs() + ms;
    while (nowMs() < until)
        QApplication::processEvents(QEventLoop::AllEvents, 5);
}

struct Opened
{
    std::vector<double> window;
    std::vector<double> store;
    int rows = 0;
};

Opened openRepeatedly(MainWindow &window, ConversationStore &store, const QString &id)
{
    Opened out;
    QListView *view = window.chatPane()->transcriptView();
    for (int i = 0; i < 5; ++i) {
        double start = nowMs();
        const auto messages = store.messages(id);
        out.store.push_back(nowMs() - start);
        if (!messages)
            return out;
        window.newConversation();
        settle(100);
        start = nowMs();
        window.openConversation(id);
        view->viewport()->repaint(); // the first frame with the conversation in it
        out.window.push_back(nowMs() - start);
        settle(100);
    }
    out.rows = window.chatPane()->transcriptModel()->rowCount();
    return out;
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    g_clock.start();
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_scalewindow STORE\n");
        return 2;
    }
    QTemporaryDir data;
    const QByteArray linked
        = QFile::encodeName(data.filePath(QStringLiteral("conversations.sqlite3")));
    if (::link(argv[1], linked.constData()) != 0) {
        std::fprintf(stderr, "bench_scalewindow: cannot link %s into a data folder\n", argv[1]);
        return 1;
    }
    // The store read on its own, through a second connection to the same file.
    ConversationStore store;
    if (!store.open(QString::fromLocal8Bit(linked))) {
        std::fprintf(stderr, "bench_scalewindow: cannot open the store\n");
        return 1;
    }
    const auto all = store.list();
    if (!all || all.value().isEmpty()) {
        std::fprintf(stderr, "bench_scalewindow: the store lists no conversation\n");
        return 1;
    }
    std::vector<ConversationInfo> bySize(all.value().cbegin(), all.value().cend());
    std::sort(bySize.begin(), bySize.end(), [](const auto &a, const auto &b) {
        return a.messageCount < b.messageCount;
    });
    const ConversationInfo typical = bySize.at(bySize.size() / 2);
    const ConversationInfo largest = bySize.back();

    AppSettings settings;
    settings.dataDir = data.path();
    settings.baseUrl = QStringLiteral("http://127.0.0.1:9/v1");
    settings.model = QStringLiteral("fake-model");
    settings.warmSpare = false;
    MainWindow window(settings);
    window.resize(1400, 900);
    window.show();
    settle(500);

    std::printf("Store at scale in the window (offscreen)\n");
    for (const auto &[info, label] :
         {std::pair{typical, "typical size"}, std::pair{largest, "the largest"}}) {
        const Opened o = openRepeatedly(window, store, info.id);
        const Bench::Stats w = Bench::stats(o.window), s = Bench::stats(o.store);
        Bench::record({"window at scale: open a conversation of " + std::string(label) + " ("
                           + std::to_string(info.messageCount) + " messages)",
                       "ms",
                       w,
                       "the store's read of it alone",
                       s,
                       "window / store read",
                       s.median > 0 ? w.median / s.median : 0,
                       "<= 300 ms",
                       w.n > 0 && w.median <= 300,
                       std::to_string(o.rows) + " transcript rows"});
    }

    // The largest is open: scroll it from its end to its start, half a page per frame.
    QListView *view = window.chatPane()->transcriptView();
    QScrollBar *bar = view->verticalScrollBar();
    bar->setValue(bar->maximum());
    view->viewport()->repaint();
    settle(300);
    std::vector<double> frames;
    for (int guard = 0; guard < 400 && bar->value() > 0; ++guard) {
        const double start = nowMs();
        bar->setValue(bar->value() - bar->pageStep() / 2);
        view->viewport()->repaint();
        QApplication::processEvents();
        frames.push_back(nowMs() - start);
    }
    const Bench::Stats f = Bench::stats(frames);
    const double worst = frames.empty() ? 0 : *std::max_element(frames.cbegin(), frames.cend());
    Bench::record({"window at scale: scroll the largest, half a page per frame",
                   "ms",
                   f,
                   "",
                   {},
                   "",
                   0,
                   "no frame over 50 ms",
                   !frames.empty() && worst <= 50,
                   "worst frame " + std::to_string(worst) + " ms over "
                       + std::to_string(frames.size()) + " frames (at most 400, from the end)"});
    return 0;
}
