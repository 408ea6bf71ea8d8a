// The conversation store's write path, 10,000 messages each committed durably (WAL,
// synchronous=FULL: fsync'd before it counts as saved):
//   - as the application writes them: appendMessage, through the store's writer thread, which
//     commits what queued up during the previous commit in one transaction (group commit);
//     throughput to the last one durable, and each message's latency from append to durable.
//     Target (issue 7): >= 5,000 appends per second.
//   - one by one, each waited for (addMessage), against the baseline that bounds it: the disk's
//     own durable-write rate (a 4 KiB write and fdatasync() in a loop, in the same folder).
// And reading the whole conversation back.
#include "benchreport.h"

#include <app/store/conversationstore.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <mutex>
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

// `count` appends through the writer thread, offered `perSecond` a second (0: as fast as they
// can be made): the rate to the last one durable, and each one's milliseconds from append to
// durable (sorted).
double groupCommitted(ConversationStore &store,
                      int count,
                      double perSecond,
                      const std::string &text,
                      std::vector<double> *latencies,
                      std::size_t *commits)
{
    QElapsedTimer clock;
    clock.start();
    std::vector<qint64> appendedNs(std::size_t(count) + 1, 0);
    std::vector<qint64> durableNs(std::size_t(count) + 1, 0);
    std::mutex mutex;
    quint64 seen = 0;
    *commits = 0;
    // Cleared on every way out: the observer uses this frame's variables.
    const auto clear = qScopeGuard([&] { store.setWriteObserver({}); });
    store.setWriteObserver([&](quint64 upTo, const QString &) {
        const qint64 t = clock.nsecsElapsed();
        const std::lock_guard<std::mutex> lock(mutex);
        ++*commits;
        for (; seen < upTo && seen < quint64(count); ++seen)
            durableNs[seen + 1] = t;
    });
    for (int i = 0; i < count; ++i) {
        const nlohmann::json message
            = {{"role", i % 2 ? "assistant" : "user"}, {"content", text + std::to_string(i)}};
        if (perSecond > 0) {
            const qint64 due = qint64(double(i) * 1e9 / perSecond);
            while (clock.nsecsElapsed() < due)
                QThread::usleep(50);
        }
        appendedNs[std::size_t(i) + 1] = clock.nsecsElapsed();
        if (!store.appendMessage(QStringLiteral("group"), message))
            return 0;
    }
    const Result<bool> flushed = store.flush();
    const double seconds = double(clock.nsecsElapsed()) / 1e9;
    if (!flushed) {
        std::fprintf(stderr, "bench_store: %s\n", qPrintable(flushed.error()));
        return 0;
    }
    for (int i = 1; i <= count; ++i)
        latencies->push_back(double(durableNs[std::size_t(i)] - appendedNs[std::size_t(i)]) / 1e6);
    std::sort(latencies->begin(), latencies->end());
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
        || !store.create(QStringLiteral("bench"), QStringLiteral("bench"), dir.path(), false)
        || !store.create(QStringLiteral("group"), QStringLiteral("group"), dir.path(), false)) {
        std::fprintf(stderr, "bench_store: %s\n", qPrintable(opened.error()));
        return 1;
    }
    const std::string text(400, 'x'); // a typical short message with its JSON

    // At the target's pace (how long each waits to be durable), then as fast as appends can be
    // made (the rate).
    std::vector<double> groupLatencies, burstLatencies;
    std::size_t commits = 0, burstCommits = 0;
    const double grouped = groupCommitted(store, kMessages, 5000, text, &groupLatencies, &commits);
    const double burst = groupCommitted(store, kMessages, 0, text, &burstLatencies, &burstCommits);
    if (grouped <= 0 || burst <= 0)
        return 1;

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
    auto ms = [](const std::vector<double> &v, std::size_t percent) {
        return std::to_string(v[v.size() * percent / 100]);
    };
    Bench::record({"store: append 10,000 messages, each committed durably (group commit)",
                   "/s",
                   Bench::single(burst),
                   "4 KiB write + fdatasync on the same disk",
                   Bench::single(disk),
                   "store appends / disk durable writes",
                   burst / disk,
                   ">= 5000 per second",
                   burst >= 5000,
                   std::to_string(burstCommits) + " commits; offered at 5,000/s instead: "
                       + std::to_string(commits) + " commits, append to durable median "
                       + ms(groupLatencies, 50) + " ms, p95 " + ms(groupLatencies, 95) + " ms"});
    Bench::record({"store: the same one by one, each waited for",
                   "/s",
                   Bench::single(kMessages / seconds),
                   "4 KiB write + fdatasync on the same disk",
                   Bench::single(disk),
                   "store appends / disk durable writes",
                   kMessages / seconds / disk,
                   "(bounded by the disk)",
                   true,
                   "one append: median " + ms(latencies, 50) + " ms, p95 " + ms(latencies, 95)
                       + " ms; read all back: " + std::to_string(readMs) + " ms"});
    (void)all;
    return 0;
}
