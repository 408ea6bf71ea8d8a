// The conversation store's write path: 10,000 messages appended one by one, each committed
// durably (WAL, synchronous=FULL, as the application writes them), with the latency of a
// single append; and reading the whole conversation back. Target (issue 7): >= 5,000 appends
// per second. Baseline in the same run: the disk's own durable-write rate (a 4 KiB write and
// fdatasync() in a loop, in the same folder), which bounds any store that commits each item
// durably.
#include "benchreport.h"

#include <app/store/conversationstore.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

using namespace Sandcastle;

namespace {

// Durable 4 KiB writes per second in `folder`: write, fdatasync, repeat.
double durableWritesPerSecond(const QString &folder, int count)
{
    const QByteArray path = (folder + QStringLiteral("/fsync.bin")).toLocal8Bit();
    const int fd = ::open(path.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        return 0;
    char block[4096] = {};
    QElapsedTimer clock;
    clock.start();
    for (int i = 0; i < count; ++i) {
        if (::pwrite(fd, block, sizeof block, off_t(i % 64) * 4096) < 0 || ::fdatasync(fd) != 0)
            break;
    }
    const double seconds = double(clock.nsecsElapsed()) / 1e9;
    ::close(fd);
    ::unlink(path.constData());
    return count / seconds;
}

} // namespace

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
    const double disk = durableWritesPerSecond(dir.path(), 3000);
    Bench::record({"store: append 10,000 messages, each committed durably",
                   "/s",
                   Bench::single(kMessages / seconds),
                   "4 KiB write + fdatasync on the same disk",
                   Bench::single(disk),
                   "store appends / disk durable writes",
                   kMessages / seconds / disk,
                   ">= 5000 per second",
                   kMessages / seconds >= 5000,
                   "one append: median " + std::to_string(latencies[latencies.size() / 2])
                       + " ms, p95 " + std::to_string(latencies[latencies.size() * 95 / 100])
                       + " ms; read all back: " + std::to_string(readMs) + " ms"});
    (void)all;
    return 0;
}
