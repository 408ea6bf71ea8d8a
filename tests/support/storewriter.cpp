// Appends messages to a conversation store as fast as it can and prints the number of each one
// once it is durable: what tst_crashrecovery kills with SIGKILL mid-write, then checks that
// every printed message survived. One by one (addMessage: printed after its commit returned),
// or with `group` through the store's writer thread (appendMessage: printed when the writer
// says its commit is durable; at most 256 in flight).
// Usage: store_writer STORE_PATH COUNT [FIRST [group]]
#include <app/store/conversationstore.h>

#include <QCoreApplication>
#include <QThread>

#include <atomic>
#include <cstdio>

using namespace Sandcastle;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 3) {
        std::fprintf(stderr, "usage: store_writer STORE_PATH COUNT [FIRST]\n");
        return 2;
    }
    // Declared before the store: its writer's last commit, in the store's destructor, may
    // still call the observer that uses them.
    std::atomic<quint64> durable{0};
    quint64 printed = 0; // only the writer's thread touches it
    ConversationStore store;
    const auto opened = store.open(args.at(1));
    if (!opened) {
        std::fprintf(stderr, "store_writer: %s\n", qPrintable(opened.error()));
        return 1;
    }
    const QString id = QStringLiteral("crash");
    if (!store.conversation(id))
        store.create(id, QStringLiteral("crash test"), QString(), false);
    const int count = args.at(2).toInt();
    const int first = args.size() > 3 ? args.at(3).toInt() : 0;
    // Big enough that a write spans pages, so that a kill lands mid-write now and then.
    const std::string padding(6000, 'p');
    if (args.size() > 4 && args.at(4) == QLatin1String("group")) {
        store.setWriteObserver([&](quint64 upTo, const QString &error) {
            // A commit that dropped a message: none of its numbers is claimed as saved.
            if (!error.isEmpty())
                std::fprintf(stderr, "store_writer: %s\n", qPrintable(error));
            for (; printed < upTo; ++printed) {
                if (error.isEmpty())
                    std::printf("%d\n", first + int(printed));
            }
            std::fflush(stdout);
            durable = upTo;
        });
        for (int i = first; i < first + count; ++i) {
            const auto queued = store.appendMessage(
                id,
                {{"role", "user"}, {"content", "message " + std::to_string(i) + " " + padding}});
            if (!queued) {
                std::fprintf(stderr, "store_writer: %s\n", qPrintable(queued.error()));
                return 1;
            }
            while (queued.value() >= durable + 256)
                QThread::usleep(100);
        }
        const auto flushed = store.flush();
        if (!flushed) {
            std::fprintf(stderr, "store_writer: %s\n", qPrintable(flushed.error()));
            return 1;
        }
        return 0;
    }
    for (int i = first; i < first + count; ++i) {
        const auto added = store.addMessage(
            id, {{"role", "user"}, {"content", "message " + std::to_string(i) + " " + padding}});
        if (!added) {
            std::fprintf(stderr, "store_writer: %s\n", qPrintable(added.error()));
            return 1;
        }
        std::printf("%d\n", i);
        std::fflush(stdout);
    }
    return 0;
}
