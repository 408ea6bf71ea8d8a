// The conversation store's write path: 10,000 messages appended one by one, each committed
// durably (WAL, synchronous=FULL, as the application writes them), with the latency of a
// single append; and reading the whole conversation back. Target (issue 7): >= 5,000 appends
// per second.
#include <app/store/conversationstore.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace Sandcastle;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    constexpr int kMessages = 10000;
    QTemporaryDir dir; // on the same disk as the data folder's default, /tmp or $TMPDIR
    ConversationStore store;
    const Result<bool> opened = store.open(dir.filePath(QStringLiteral("bench.sqlite3")));
    if (!opened
        || !store.create(QStringLiteral("bench"), QStringLiteral("bench"), dir.path(), false)) {
        std::fprintf(stderr, "bench_store: %s\n", qPrintable(opened.error()));
        return 1;
    }
    const std::string text(400, 'x'); // a typical short message with its JSON
    std::vector<double> latencies;
    latencies.reserve(kMessages);
    QElapsedTimer total;
    total.start();
    for (int i = 0; i < kMessages; ++i) {
        QElapsedTimer one;
        one.start();
        const nlohmann::json message
            = {{"role", i % 2 ? "assistant" : "user"}, {"content", text + std::to_string(i)}};
        if (!store.addMessage(QStringLiteral("bench"), message)) {
            std::fprintf(stderr, "bench_store: append %d failed\n", i);
            return 1;
        }
        latencies.push_back(double(one.nsecsElapsed()) / 1e6);
    }
    const double seconds = double(total.nsecsElapsed()) / 1e9;
    std::sort(latencies.begin(), latencies.end());
    QElapsedTimer read;
    read.start();
    const Result<nlohmann::json> all = store.messages(QStringLiteral("bench"));
    const double readMs = double(read.nsecsElapsed()) / 1e6;
    std::printf("store append (durable commit each): %d messages in %.2f s = %.0f per second "
                "(target >= 5000): %s\n",
                kMessages,
                seconds,
                kMessages / seconds,
                kMessages / seconds >= 5000 ? "met" : "MISSED");
    std::printf("  one append: median %.3f ms, p95 %.3f ms\n",
                latencies[latencies.size() / 2],
                latencies[latencies.size() * 95 / 100]);
    std::printf("  read all %zu messages back: %.1f ms\n", all ? all.value().size() : 0, readMs);
    return 0;
}
