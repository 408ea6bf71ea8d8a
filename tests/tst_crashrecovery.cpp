#include <app/store/conversationstore.h>
#include <support/clirunner.h>
#include <support/datachecks.h>
#include <support/fakeopenaiserver.h>
#include <support/securitycase.h>

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <unistd.h>

using namespace Sandcastle;
using namespace Sandcastle::Testing::DataChecks;
using Sandcastle::Testing::FakeOpenAiServer;
using Sandcastle::Testing::SecurityCase;

namespace {

const QByteArray kKey = "sk-sandcastle-crash-suite-SECRET-5e0d";

// Every number the writer printed (each one after its commit returned).
QList<int> committed(const QByteArray &out)
{
    QList<int> numbers;
    const QList<QByteArray> lines = out.split('\n');
    for (const QByteArray &line : lines) {
        bool ok = false;
        const int n = line.toInt(&ok);
        if (ok)
            numbers << n;
    }
    return numbers;
}

// The numbers of the stored "message N ..." rows.
QSet<int> storedNumbers(const QString &path, QString *error)
{
    QSet<int> numbers;
    ConversationStore store;
    const auto opened = store.open(path);
    if (!opened) {
        *error = opened.error();
        return numbers;
    }
    const auto messages = store.messages(QStringLiteral("crash"));
    if (!messages) {
        *error = messages.error();
        return numbers;
    }
    for (const auto &m : messages.value()) {
        const std::string content = m.value("content", std::string());
        numbers.insert(QString::fromStdString(content).section(QLatin1Char(' '), 1, 1).toInt());
    }
    return numbers;
}

// Empty when the store opens, passes its integrity check and holds every committed message
// (*stored gets what it holds); otherwise what is wrong.
QString keptEveryCommit(const QString &path, const QList<int> &committedNumbers, QSet<int> *stored)
{
    QString error;
    *stored = storedNumbers(path, &error);
    if (!error.isEmpty())
        return error;
    const QString integrity = integrityCheck(path);
    if (integrity != QLatin1String("ok"))
        return QStringLiteral("integrity check: ") + integrity;
    for (int n : committedNumbers) {
        if (!stored->contains(n))
            return QStringLiteral("message %1 lost").arg(n);
    }
    return {};
}

} // namespace

// Crashes and a full disk: kill -9 while the model streams and while the store writes, and
// the disk filling up while saving. After each, the store opens, passes SQLite's integrity
// check and holds every item that was complete. The key appears in nothing they leave.
// A 2 MB tmpfs mounted at a folder for as long as it lives (root only): a disk that fills up.
// `why` says why it could not be mounted, else it is empty.
struct SmallDisk
{
    explicit SmallDisk(const QString &dir)
        : m_dir(dir)
    {
        QProcess mount;
        mount.start(QStringLiteral("mount"),
                    {QStringLiteral("-t"),
                     QStringLiteral("tmpfs"),
                     QStringLiteral("-o"),
                     QStringLiteral("size=2m"),
                     QStringLiteral("tmpfs"),
                     dir});
        if (!mount.waitForFinished(10000) || mount.exitCode() != 0)
            why = QStringLiteral("cannot mount a tmpfs (root needed): ")
                  + QString::fromUtf8(mount.readAllStandardError());
    }
    ~SmallDisk()
    {
        if (why.isEmpty())
            QProcess::execute(QStringLiteral("umount"), {QStringLiteral("-l"), m_dir});
    }
    SmallDisk(const SmallDisk &) = delete;
    SmallDisk &operator=(const SmallDisk &) = delete;

    QString why;

private:
    QString m_dir;
};

// In a test function: `name`, a SmallDisk at `dir`. Without one the test fails in CI (it must
// run there) and is skipped elsewhere.
#define SMALL_DISK_OR_SKIP(name, dir)                                                              \
    const SmallDisk name(dir);                                                                     \
    if (!name.why.isEmpty()) {                                                                     \
        if (qEnvironmentVariableIsSet("CI"))                                                       \
            QFAIL(qPrintable(name.why));                                                           \
        QSKIP(qPrintable(name.why));                                                               \
    }

class TestCrashRecovery : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dataDir;
    QByteArray m_outputs; // everything the processes printed, for the secrets scan

    QProcessEnvironment env() const
    {
        QProcessEnvironment e = Sandcastle::Testing::cliEnvironment(m_dataDir.path());
        e.insert(QStringLiteral("SANDCASTLE_API_KEY"), QString::fromLatin1(kKey));
        return e;
    }
    QString storePath() const { return ConversationStore::defaultPath(m_dataDir.path()); }

    // Runs the writer until it ends, or kills it (SIGKILL) after killAfterMs.
    // `group`: through the store's writer thread (group commit) instead of one by one.
    QByteArray runWriter(
        const QString &store, int count, int first, int killAfterMs, int *exit, bool group = false)
    {
        QProcess writer;
        QStringList args{store, QString::number(count), QString::number(first)};
        if (group)
            args << QStringLiteral("group");
        writer.start(qEnvironmentVariable("SANDCASTLE_STORE_WRITER"), args);
        if (!writer.waitForStarted(10000))
            return {};
        if (killAfterMs > 0) {
            QTest::qWait(killAfterMs);
            ::kill(pid_t(writer.processId()), SIGKILL);
        }
        writer.waitForFinished(60000);
        *exit = writer.exitStatus() == QProcess::CrashExit ? -9 : writer.exitCode();
        const QByteArray err = writer.readAllStandardError();
        m_outputs += err;
        QByteArray out = writer.readAllStandardOutput();
        m_outputs += out;
        if (!err.isEmpty())
            out += "\nstderr: " + err;
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariable("SANDCASTLE_BINARY").isEmpty(),
                 "SANDCASTLE_BINARY is not set");
        QVERIFY2(!qEnvironmentVariable("SANDCASTLE_STORE_WRITER").isEmpty(),
                 "SANDCASTLE_STORE_WRITER is not set");
        QVERIFY(m_dataDir.isValid());
    }

    void cleanupTestCase() { SecurityCase::printTotals(); }

    void killedWhileTheModelStreams()
    {
        SecurityCase c(SecurityCase::Kind::Fault, QStringLiteral("kill -9 during streaming"));
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        FakeOpenAiServer::Response slow;
        for (int i = 0; i < 400; ++i)
            slow.writes << FakeOpenAiServer::sseEvent(
                FakeOpenAiServer::textChunk(QStringLiteral("word%1 ").arg(i)));
        slow.delayMs = 25; // ten seconds of answer
        server.enqueue(slow);
        QProcess chat;
        chat.setProcessEnvironment(env());
        chat.start(qEnvironmentVariable("SANDCASTLE_BINARY"),
                   {QStringLiteral("chat"),
                    QStringLiteral("--prompt"),
                    QStringLiteral("Tell me a long story"),
                    QStringLiteral("--base-url"),
                    server.baseUrl(),
                    QStringLiteral("--json")});
        QVERIFY(chat.waitForStarted(10000));
        QByteArray out;
        QElapsedTimer clock;
        clock.start();
        while (!out.contains("word20 ") && clock.elapsed() < 60000) {
            QTest::qWait(20);
            out += chat.readAllStandardOutput();
        }
        QVERIFY2(out.contains("word20 "), out.constData());
        ::kill(pid_t(chat.processId()), SIGKILL);
        QVERIFY(chat.waitForFinished(10000));
        m_outputs += out + chat.readAll();

        // The store opens intact with the prompt; the half answer is not passed off as whole.
        QCOMPARE(integrityCheck(storePath()), QStringLiteral("ok"));
        QString id;
        {
            ConversationStore store;
            QVERIFY(store.open(storePath()));
            const auto list = store.list().value();
            QCOMPARE(list.size(), 1);
            id = list.first().id;
            const nlohmann::json messages = store.messages(id).value();
            QCOMPARE(messages.size(), size_t(1));
            QCOMPARE(messages[0]["content"].get<std::string>(),
                     std::string("Tell me a long story"));
        }
        // And the conversation goes on from there.
        server.enqueueText(QStringLiteral("Shorter, then."));
        const auto run = Sandcastle::Testing::runSandcastle({QStringLiteral("chat"),
                                                             QStringLiteral("--conversation"),
                                                             id,
                                                             QStringLiteral("--prompt"),
                                                             QStringLiteral("Go on"),
                                                             QStringLiteral("--base-url"),
                                                             server.baseUrl(),
                                                             QStringLiteral("--json")},
                                                            env());
        m_outputs += run.out + run.err;
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY(server.requests().last().body.contains("Tell me a long story"));
        QCOMPARE(integrityCheck(storePath()), QStringLiteral("ok"));
        c.note(QStringLiteral("killed after %1 ms of answer; prompt kept, store intact, continued")
                   .arg(clock.elapsed()));
    }

    void killedWhileTheStoreWrites_data()
    {
        QTest::addColumn<bool>("group");
        QTest::newRow("one by one") << false;
        QTest::newRow("group commit") << true;
    }

    void killedWhileTheStoreWrites()
    {
        QFETCH(bool, group);
        SecurityCase c(SecurityCase::Kind::Fault,
                       group ? QStringLiteral("kill -9 during a group commit")
                             : QStringLiteral("kill -9 during a store write"));
        QTemporaryDir dir;
        const QString store = dir.filePath(QStringLiteral("store.db"));
        int next = 0;
        int kills = 0;
        int printed = 0;
        for (int round = 0; round < 12; ++round) {
            int exit = 0;
            const QByteArray out = runWriter(store,
                                             100000,
                                             next,
                                             30 + int(QRandomGenerator::global()->bounded(400)),
                                             &exit,
                                             group);
            QVERIFY2(exit == -9, out.right(300).constData());
            ++kills;
            const QList<int> done = committed(out);
            printed += int(done.size());
            QSet<int> stored;
            const QString lost = keptEveryCommit(store, done, &stored);
            QVERIFY2(lost.isEmpty(), qPrintable(lost));
            // A commit in flight may or may not have landed: at most one message beyond the
            // last print one by one, at most the writer's 256 in flight in groups.
            QVERIFY(stored.size() <= next + done.size() + (group ? 256 : 1));
            next = int(stored.size());
        }
        QVERIFY(printed > 0);
        c.note(QStringLiteral("%1 kills mid-write, %2 committed messages, none lost, integrity ok")
                   .arg(kills)
                   .arg(next));
    }

    void aFullDiskIsAClearErrorAndLosesNothing()
    {
        SecurityCase c(SecurityCase::Kind::Fault, QStringLiteral("disk full while saving"));
        QTemporaryDir dir;
        SMALL_DISK_OR_SKIP(disk, dir.path());
        const QString store = dir.filePath(QStringLiteral("store.db"));
        int exit = 0;
        const QByteArray out = runWriter(store, 100000, 0, 0, &exit);
        QCOMPARE(exit, 1);
        QVERIFY2(out.contains("full"), out.right(300).constData());
        const QList<int> done = committed(out);
        QVERIFY(done.size() > 10);
        QSet<int> stored;
        const QString lost = keptEveryCommit(store, done, &stored);
        QVERIFY2(lost.isEmpty(), qPrintable(lost));

        // The CLI on a full data folder: a clear error, not a crash, and the store intact.
        QProcessEnvironment full = env();
        full.insert(QStringLiteral("SANDCASTLE_DATA_DIR"), dir.path());
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueText(QString(20000, QLatin1Char('x')));
        const auto run = Sandcastle::Testing::runSandcastle({QStringLiteral("chat"),
                                                             QStringLiteral("--prompt"),
                                                             QString(1000, QLatin1Char('q')),
                                                             QStringLiteral("--base-url"),
                                                             server.baseUrl(),
                                                             QStringLiteral("--json")},
                                                            full);
        const QByteArray said = run.out + run.err;
        m_outputs += said;
        QVERIFY2(run.exitCode == 1, said.right(800).constData());
        QVERIFY2(said.contains("full"), said.right(800).constData());
        QSet<int> after;
        const QString lostAfter = keptEveryCommit(store, done, &after);
        QVERIFY2(lostAfter.isEmpty(), qPrintable(lostAfter));
        QCOMPARE(after, stored);
        const QString reason = QString::fromUtf8(out.mid(out.indexOf("stderr: ") + 8)).trimmed();
        c.note(QStringLiteral("%1 messages saved before \"%2\"; all kept, integrity ok; the CLI "
                              "exits 1 saying so")
                   .arg(done.size())
                   .arg(reason.left(80)));
    }

    void aFullDiskKeepsGroupCommittedMessagesQueuedUntilThereIsRoom()
    {
        SecurityCase c(SecurityCase::Kind::Fault,
                       QStringLiteral("disk full during a group commit, then room again"));
        QTemporaryDir dir;
        SMALL_DISK_OR_SKIP(disk, dir.path());
        ConversationStore store;
        QVERIFY(store.open(dir.filePath(QStringLiteral("store.db"))));
        const QString id = QStringLiteral("crash");
        QVERIFY(store.create(id, QStringLiteral("t"), QString(), false));
        // Ballast fills what is left of the disk.
        QFile ballast(dir.filePath(QStringLiteral("ballast")));
        QVERIFY(ballast.open(QIODevice::WriteOnly));
        const QByteArray block(4096, 'b');
        while (ballast.write(block) == block.size() && ballast.flush()) {
        }
        ballast.close();
        const std::string padding(2000, 'p');
        for (int i = 0; i < 40; ++i)
            QVERIFY(store.appendMessage(
                id,
                {{"role", "user"}, {"content", "message " + std::to_string(i) + " " + padding}}));
        const Result<bool> full = store.flush();
        QVERIFY(!full);
        QVERIFY2(full.error().contains(QStringLiteral("full")), qPrintable(full.error()));
        QVERIFY(!store.flush()); // still no room: still queued, still said
        // A message saved one by one would jump the queue: refused while it waits.
        const auto direct = store.addMessage(id, {{"role", "user"}, {"content", "direct"}});
        QVERIFY(!direct);
        QVERIFY2(direct.error().contains(QStringLiteral("waiting")), qPrintable(direct.error()));
        // Room again: the same messages are committed, in order, none lost.
        QVERIFY(ballast.remove());
        const Result<bool> saved = store.flush();
        QVERIFY2(saved, qPrintable(saved.error()));
        const Result<nlohmann::json> back = store.messages(id);
        QVERIFY(back);
        QCOMPARE(int(back.value().size()), 40);
        for (int i = 0; i < 40; ++i)
            QVERIFY(back.value()[size_t(i)]["content"].get<std::string>().rfind(
                        "message " + std::to_string(i) + " ", 0)
                    == 0);
        store.close();
        QCOMPARE(integrityCheck(dir.filePath(QStringLiteral("store.db"))), QStringLiteral("ok"));
        c.note(QStringLiteral("\"%1\"; 40 queued messages kept until the disk had room, then "
                              "committed in order")
                   .arg(full.error().left(80)));
    }

    void theKeyIsInNothingTheCrashesLeft()
    {
        SecurityCase c(SecurityCase::Kind::Fault,
                       QStringLiteral("secrets: the API key after crashes and a full disk"));
        QVERIFY(!m_outputs.isEmpty());
        QVERIFY(!m_outputs.contains(kKey));
        QCOMPARE(filesContaining(m_dataDir.path(), kKey), QStringList());
        c.note(QStringLiteral("not in the data folder (%1 files) nor in %2 bytes of output")
                   .arg(filesContaining(m_dataDir.path(), QByteArray()).size())
                   .arg(m_outputs.size()));
    }
};

QTEST_GUILESS_MAIN(TestCrashRecovery)
#include "tst_crashrecovery.moc"
