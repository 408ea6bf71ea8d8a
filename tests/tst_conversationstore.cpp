#include <app/store/conversationremoval.h>
#include <app/store/conversationstore.h>
#include <app/store/storeschema.h>
#include <sandbox/containerengine.h>
#include <support/testtimeouts.h>

#include <QFile>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <mutex>
#include <vector>

using namespace Sandcastle;

namespace {

// Runs statements on the database file directly, as another program (or an old version) would.
bool rawSql(const QString &path, const QStringList &statements, QVariant *lastValue = nullptr)
{
    bool ok = true;
    {
        QSqlDatabase db
            = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw"));
        db.setDatabaseName(path);
        ok = db.open();
        QSqlQuery q(db);
        for (const QString &sql : statements) {
            if (!ok)
                break;
            ok = q.exec(sql);
            if (!ok)
                qWarning() << sql << q.lastError().text();
            if (ok && lastValue && q.next())
                *lastValue = q.value(0);
        }
        q.finish();
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("raw"));
    return ok;
}

qint64 deadPid()
{
    QProcess p;
    p.start(QStringLiteral("true"), {});
    p.waitForFinished();
    return p.processId() > 0 ? p.processId() : 999999;
}

} // namespace

class TestConversationStore : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString dbPath() const { return m_dir.filePath(QStringLiteral("store.sqlite3")); }

    static void isWalAtTheCurrentSchema(const QString &path)
    {
        QVariant mode;
        QVERIFY(rawSql(path, {QStringLiteral("PRAGMA journal_mode")}, &mode));
        QCOMPARE(mode.toString(), QStringLiteral("wal"));
        QVariant version;
        QVERIFY(rawSql(path, {QStringLiteral("PRAGMA user_version")}, &version));
        QCOMPARE(version.toInt(), ConversationStore::kSchemaVersion);
    }

private Q_SLOTS:
    void init()
    {
        QFile::remove(dbPath());
        QFile::remove(dbPath() + QStringLiteral("-wal"));
        QFile::remove(dbPath() + QStringLiteral("-shm"));
    }

    void opensInWalModeAtTheCurrentSchema()
    {
        ConversationStore store;
        const Result<bool> opened = store.open(dbPath());
        QVERIFY2(opened, qPrintable(opened.error()));
        store.close();
        isWalAtTheCurrentSchema(dbPath());
    }

    void createsListsRenamesAndDeletesConversations()
    {
        ConversationStore store;
        QVERIFY(store.open(dbPath()));
        QVERIFY(store.create(
            QStringLiteral("a1"), QStringLiteral("First"), QStringLiteral("/w/a1"), true));
        QTest::qWait(2);
        QVERIFY(store.create(
            QStringLiteral("b2"), QStringLiteral("Second"), QStringLiteral("/w/b2"), false));
        QVERIFY(!store.create(QStringLiteral("a1"), QStringLiteral("Again"), QString(), true));

        Result<QList<ConversationInfo>> all = store.list();
        QVERIFY(all);
        QCOMPARE(all.value().size(), 2);
        QCOMPARE(all.value().at(0).id, QStringLiteral("b2")); // newest first
        QVERIFY(!all.value().at(0).ownsWorkspace);

        QTest::qWait(2);
        QVERIFY(store.addMessage(QStringLiteral("a1"), {{"role", "user"}, {"content", "hi"}}));
        all = store.list();
        QCOMPARE(all.value().at(0).id, QStringLiteral("a1")); // a new message moves it up
        QCOMPARE(all.value().at(0).messageCount, 1);

        QVERIFY(store.rename(QStringLiteral("a1"), QStringLiteral("  Renamed  ")));
        QCOMPARE(store.conversation(QStringLiteral("a1")).value().title, QStringLiteral("Renamed"));
        QVERIFY(!store.rename(QStringLiteral("a1"), QStringLiteral("   ")));
        QVERIFY(!store.rename(QStringLiteral("nope"), QStringLiteral("x")));

        QVERIFY(store.remove(QStringLiteral("a1")));
        QVERIFY(!store.conversation(QStringLiteral("a1")));
        QCOMPARE(store.messages(QStringLiteral("a1")).value().size(), size_t(0));
        QVERIFY(!store.remove(QStringLiteral("a1")));
        QCOMPARE(store.list().value().size(), 1);
    }

    void messagesComeBackInOrderAndInTheSameShape()
    {
        ConversationStore store;
        QVERIFY(store.open(dbPath()));
        QVERIFY(store.create(QStringLiteral("c"), QStringLiteral("t"), QStringLiteral("/w"), true));
        const nlohmann::json calls = nlohmann::json::array(
            {{{"id", "call_1"},
              {"type", "function"},
              {"function", {{"name", "run_python"}, {"arguments", "{\"code\":\"print(1)\"}"}}}}});
        const nlohmann::json sent = nlohmann::json::array(
            {{{"role", "user"}, {"content", "Grüße, 世界 — \"quotes\" and\nnewlines"}},
             {{"role", "assistant"},
              {"content", nullptr},
              {"tool_calls", calls},
              {"reasoning", "think"}},
             {{"role", "tool"}, {"tool_call_id", "call_1"}, {"content", "{\"status\":\"ok\"}"}},
             {{"role", "assistant"}, {"content", ""}},
             {{"role", "assistant"}, {"content", "done"}}});
        for (const auto &m : sent)
            QVERIFY(store.addMessage(QStringLiteral("c"), m));
        QVERIFY(!store.addMessage(QStringLiteral("c"), {{"content", "no role"}}));
        QVERIFY(!store.addMessage(QStringLiteral("missing"), {{"role", "user"}, {"content", "x"}}));

        const Result<nlohmann::json> back = store.messages(QStringLiteral("c"));
        QVERIFY(back);
        QCOMPARE(back.value().size(), sent.size());
        for (size_t i = 0; i < sent.size(); ++i)
            QVERIFY2(back.value()[i] == sent[i], back.value()[i].dump().c_str());
    }

    void appendedMessagesAreGroupCommittedInOrderAndSeenByEveryRead()
    {
        // Before the store: the observer uses them until the store is gone.
        std::mutex mutex;
        std::vector<quint64> durable; // each commit's "durable up to", in order
        QStringList errors;
        ConversationStore store;
        QVERIFY(store.open(dbPath()));
        QVERIFY(store.create(QStringLiteral("c"), QStringLiteral("t"), QStringLiteral("/w"), true));
        store.setWriteObserver([&](quint64 upTo, const QString &error) {
            const std::lock_guard<std::mutex> lock(mutex);
            durable.push_back(upTo);
            if (!error.isEmpty())
                errors << error;
        });
        constexpr int kCount = 2000;
        for (int i = 1; i <= kCount; ++i) {
            const Result<quint64> seq = store.appendMessage(
                QStringLiteral("c"), {{"role", "user"}, {"content", "m" + std::to_string(i)}});
            QVERIFY(seq);
            QCOMPARE(seq.value(), quint64(i));
        }
        QVERIFY(!store.appendMessage(QStringLiteral("c"), {{"content", "no role"}}));
        // A read waits for the queue: all of it, in order, without a flush.
        const Result<nlohmann::json> back = store.messages(QStringLiteral("c"));
        QVERIFY(back);
        QCOMPARE(int(back.value().size()), kCount);
        for (int i = 0; i < kCount; ++i)
            QCOMPARE(back.value()[size_t(i)]["content"].get<std::string>(),
                     "m" + std::to_string(i + 1));
        QVERIFY(store.flush());
        {
            const std::lock_guard<std::mutex> lock(mutex);
            QVERIFY2(errors.isEmpty(), qPrintable(errors.join(u'\n')));
            QVERIFY(!durable.empty());
            QCOMPARE(durable.back(), quint64(kCount));
            QVERIFY(std::is_sorted(durable.begin(), durable.end()));
            // Grouped: fewer commits than messages (appends outrun one fsync each).
            QVERIFY2(durable.size() < size_t(kCount), qPrintable(QString::number(durable.size())));
        }
        // And durable: another connection (another process, after a crash) sees them all.
        QVariant count;
        QVERIFY(rawSql(dbPath(), {QStringLiteral("SELECT COUNT(*) FROM messages")}, &count));
        QCOMPARE(count.toInt(), kCount);

        // Every other read waits for the queue too.
        const QString c = QStringLiteral("c");
        QVERIFY(store.appendMessage(c, {{"role", "user"}, {"content", "zebra crossing"}}));
        const auto hits = store.search(QStringLiteral("zebra"));
        QVERIFY(hits);
        QCOMPARE(hits.value().size(), 1);
        QVERIFY(store.appendMessage(c, {{"role", "user"}, {"content", "one more"}}));
        const auto listed = store.list();
        QVERIFY(listed);
        QCOMPARE(listed.value().first().messageCount, kCount + 2);
        QVERIFY(store.appendMessage(c, {{"role", "user"}, {"content", "and another"}}));
        const auto info = store.conversation(c);
        QVERIFY(info);
        QCOMPARE(info.value().messageCount, kCount + 3);
        QVERIFY(store.appendMessage(c, {{"role", "user"}, {"content", "before a run"}}));
        StoredRun run;
        run.conversationId = c;
        run.code = QStringLiteral("print(1)");
        QVERIFY(store.beginRun(run));
        QCOMPARE(count.toInt() + 4, int(store.messages(c).value().size()));
    }

    void aMessageThatCanNeverBeSavedIsDroppedAndReportedTheRestKept()
    {
        ConversationStore store;
        QVERIFY(store.open(dbPath()));
        QVERIFY(store.create(QStringLiteral("c"), QStringLiteral("t"), QStringLiteral("/w"), true));
        QVERIFY(store.appendMessage(QStringLiteral("c"), {{"role", "user"}, {"content", "one"}}));
        QVERIFY(store.appendMessage(QStringLiteral("gone"), {{"role", "user"}, {"content", "x"}}));
        QVERIFY(store.appendMessage(QStringLiteral("c"), {{"role", "user"}, {"content", "two"}}));
        const Result<bool> flushed = store.flush();
        QVERIFY(!flushed);
        QVERIFY2(flushed.error().contains(QStringLiteral("gone")), qPrintable(flushed.error()));
        QVERIFY(store.flush()); // reported once
        const Result<nlohmann::json> back = store.messages(QStringLiteral("c"));
        QVERIFY(back);
        QCOMPARE(int(back.value().size()), 2);
        QCOMPARE(back.value()[1]["content"].get<std::string>(), std::string("two"));
    }

    void closingCommitsWhatIsQueued()
    {
        {
            ConversationStore store;
            QVERIFY(store.open(dbPath()));
            QVERIFY(
                store.create(QStringLiteral("c"), QStringLiteral("t"), QStringLiteral("/w"), true));
            for (int i = 0; i < 500; ++i)
                QVERIFY(store.appendMessage(QStringLiteral("c"),
                                            {{"role", "user"}, {"content", std::to_string(i)}}));
        } // no flush: the destructor commits
        QVariant count;
        QVERIFY(rawSql(dbPath(), {QStringLiteral("SELECT COUNT(*) FROM messages")}, &count));
        QCOMPARE(count.toInt(), 500);
    }

    void aRunIsWrittenWhenItStartsAndWhenItEnds()
    {
        ConversationStore store;
        QVERIFY(store.open(dbPath()));
        QVERIFY(store.create(QStringLiteral("c"), QStringLiteral("t"), QStringLiteral("/w"), true));
        StoredRun run;
        run.conversationId = QStringLiteral("c");
        run.toolCallId = QStringLiteral("call_1");
        run.code = QStringLiteral("print('x' * 10000)");
        const Result<qint64> id = store.beginRun(run);
        QVERIFY(id);
        QCOMPARE(store.runs(QStringLiteral("c")).value().at(0).status, QStringLiteral("running"));

        ExecutionResult result;
        result.status = ExecutionResult::Status::Error;
        result.exitCode = 1;
        result.durationMs = 42;
        result.stdoutText = QString(10000, QLatin1Char('x')) + QStringLiteral("END\n");
        result.error = QStringLiteral("Traceback: boom");
        result.files = {QStringLiteral("out.png")};
        result.logFile = QStringLiteral(".sandcastle/run-1.log");
        QVERIFY(store.finishRun(id.value(), result));
        const StoredRun back = store.runs(QStringLiteral("c")).value().at(0);
        QCOMPARE(back.status, QStringLiteral("error"));
        QCOMPARE(back.exitCode, 1);
        QCOMPARE(back.durationMs, 42);
        QCOMPARE(back.files, QStringList{QStringLiteral("out.png")});
        QCOMPARE(back.logFile, QStringLiteral(".sandcastle/run-1.log"));
        QCOMPARE(back.code, run.code);
        QVERIFY(back.outputTail.endsWith(QStringLiteral("Traceback: boom")));
        QVERIFY(back.outputTail.size() <= ConversationStore::kOutputTailChars + 10);
        QVERIFY(back.finishedMs >= back.startedMs);
    }

    // Runs through the writer's queue: in order with the messages, the caller never waiting;
    // the end names its start; an end whose start could not be saved is dropped and said.
    void queuedRunsAreWrittenInOrderWithTheMessages()
    {
        ConversationStore store;
        QVERIFY(store.open(dbPath()));
        QVERIFY(store.create(QStringLiteral("c"), QStringLiteral("t"), QStringLiteral("/w"), true));
        QVERIFY(store.appendMessage(QStringLiteral("c"),
                                    Message::assistant(QString(100000, QLatin1Char('m')))));
        StoredRun run;
        run.conversationId = QStringLiteral("c");
        run.toolCallId = QStringLiteral("call_1");
        run.code = QStringLiteral("print(1)");
        const Result<quint64> start = store.appendRunStart(run);
        QVERIFY(start);
        run.toolCallId = QStringLiteral("call_2");
        const Result<quint64> second = store.appendRunStart(run);
        QVERIFY(second);
        ExecutionResult result;
        result.status = ExecutionResult::Status::Ok;
        result.stdoutText = QStringLiteral("1\n");
        QVERIFY(store.appendRunEnd(start.value(), result));
        // A ticket, polled, settles without the caller waiting on the disk.
        const ConversationStore::FlushTicket ticket = store.requestFlush();
        std::optional<Result<bool>> settled;
        QTRY_VERIFY_WITH_TIMEOUT((settled = store.flushed(ticket)).has_value(),
                                 Sandcastle::Testing::kWaitMs);
        QVERIFY2(*settled, qPrintable(settled->error()));
        const QList<StoredRun> runs = store.runs(QStringLiteral("c")).value();
        QCOMPARE(runs.size(), 2);
        QCOMPARE(runs.at(0).status, QStringLiteral("ok"));
        QCOMPARE(runs.at(0).outputTail, QStringLiteral("1\n"));
        QCOMPARE(runs.at(1).status, QStringLiteral("running")); // its end has not come
        QCOMPARE(store.messages(QStringLiteral("c")).value().at(0)["content"].get<std::string>(),
                 std::string(100000, 'm')); // turned into the store's JSON on the writer

        // Its conversation is gone: the start is dropped, and so is its end, both said.
        run.conversationId = QStringLiteral("gone");
        const Result<quint64> lost = store.appendRunStart(run);
        QVERIFY(store.appendRunEnd(lost.value(), result));
        QVERIFY(store.appendRunEnd(second.value(), result));
        const Result<bool> flushed = store.flush();
        QVERIFY(!flushed);
        QVERIFY2(flushed.error().contains(QStringLiteral("gone"))
                     && flushed.error().contains(QStringLiteral("result of a run")),
                 qPrintable(flushed.error()));
        QCOMPARE(store.runs(QStringLiteral("c")).value().at(1).status, QStringLiteral("ok"));
        QVERIFY(store.runs(QStringLiteral("gone")).value().isEmpty());
    }

    void aRunWhoseProcessDiedIsMarkedInterruptedOnTheNextOpen()
    {
        {
            ConversationStore store;
            QVERIFY(store.open(dbPath()));
            QVERIFY(
                store.create(QStringLiteral("c"), QStringLiteral("t"), QStringLiteral("/w"), true));
            StoredRun run;
            run.conversationId = QStringLiteral("c");
            run.code = QStringLiteral("import time; time.sleep(100)");
            QVERIFY(store.beginRun(run));
            QVERIFY(store.beginRun(run));
        }
        // One run belonged to a process that is gone, one to a process that still lives.
        QProcess alive;
        alive.start(QStringLiteral("sleep"), {QStringLiteral("30")});
        QVERIFY(alive.waitForStarted());
        QVERIFY(
            rawSql(dbPath(),
                   {QStringLiteral("UPDATE runs SET owner_pid = %1 WHERE id = 1").arg(deadPid()),
                    QStringLiteral("UPDATE runs SET owner_pid = %1 WHERE id = 2")
                        .arg(alive.processId())}));
        ConversationStore store;
        QVERIFY(store.open(dbPath()));
        QCOMPARE(store.interruptedOnOpen(), 1);
        const QList<StoredRun> runs = store.runs(QStringLiteral("c")).value();
        QCOMPARE(runs.at(0).status, QStringLiteral("interrupted"));
        QVERIFY(runs.at(0).outputTail.contains(QStringLiteral("interrupted")));
        QCOMPARE(runs.at(1).status, QStringLiteral("running"));
        alive.kill();
        alive.waitForFinished();
    }

    void anOldDatabaseIsMigratedAndItsMessagesBecomeSearchable()
    {
        QStringList v1 = ConversationStore::migration(0);
        v1 << QStringLiteral("PRAGMA user_version = 1")
           << QStringLiteral("INSERT INTO conversations VALUES ('old', 'Old one', '/w', 1, 1, 1)")
           << QStringLiteral("INSERT INTO messages (conversation_id, role, content, created_at)"
                             " VALUES ('old', 'user', 'plot the penguins dataset', 1)");
        QVERIFY(rawSql(dbPath(), v1));
        ConversationStore store;
        const Result<bool> opened = store.open(dbPath());
        QVERIFY2(opened, qPrintable(opened.error()));
        const Result<QList<SearchHit>> hits = store.search(QStringLiteral("pengu"));
        QVERIFY2(hits, qPrintable(hits.error()));
        QCOMPARE(hits.value().size(), 1);
        QCOMPARE(hits.value().at(0).conversationId, QStringLiteral("old"));
        QCOMPARE(hits.value().at(0).title, QStringLiteral("Old one"));
        QVERIFY(hits.value().at(0).snippet.contains(QStringLiteral("[penguins]")));
        QCOMPARE(store.messages(QStringLiteral("old")).value().size(), size_t(1));
    }

    void aVersionTwoDatabaseGetsItsCountsItsPrefixIndexAndStaysSound()
    {
        QStringList v2 = ConversationStore::migration(0) + ConversationStore::migration(1);
        v2 << QStringLiteral("PRAGMA user_version = 2")
           << QStringLiteral("INSERT INTO conversations VALUES ('old', 'Old one', '/w', 1, 1, 1)")
           << QStringLiteral("INSERT INTO conversations VALUES ('two', 'Two', '/w', 1, 1, 2)");
        for (const char *text : {"plot the penguins dataset", "here is the plot", "thanks"})
            v2 << QStringLiteral("INSERT INTO messages (conversation_id, role, content, created_at)"
                                 " VALUES ('old', 'user', '%1', 1)")
                      .arg(QString::fromLatin1(text));
        v2 << QStringLiteral("INSERT INTO messages (conversation_id, role, content, created_at)"
                             " VALUES ('two', 'user', 'penne recipes', 2)")
           << QStringLiteral("INSERT INTO runs (conversation_id, code, language, origin, status,"
                             " owner_pid, started_at) VALUES ('old', 'x', 'python', 'agent',"
                             " 'running', %1, 1)")
                  .arg(deadPid());
        QVERIFY(rawSql(dbPath(), v2));
        {
            ConversationStore store;
            const Result<bool> opened = store.open(dbPath());
            QVERIFY2(opened, qPrintable(opened.error()));
            QCOMPARE(store.interruptedOnOpen(), 1);
            QCOMPARE(store.conversation(QStringLiteral("old")).value().messageCount, 3);
            QCOMPARE(store.conversation(QStringLiteral("two")).value().messageCount, 1);
            // A two-letter prefix, now from the prefix index.
            QCOMPARE(store.search(QStringLiteral("pe")).value().size(), 2);
            QCOMPARE(store.search(QStringLiteral("plot pen")).value().size(), 1);
            // The counts follow appends and deletions.
            QVERIFY(
                store.addMessage(QStringLiteral("two"), {{"role", "user"}, {"content", "more"}}));
            QVERIFY(store.appendMessage(QStringLiteral("two"),
                                        nlohmann::json{{"role", "assistant"}, {"content", "ok"}}));
            QVERIFY(store.flush());
            QCOMPARE(store.conversation(QStringLiteral("two")).value().messageCount, 3);
            QVERIFY(store.remove(QStringLiteral("old")));
            const QList<ConversationInfo> left = store.list().value();
            QCOMPARE(left.size(), 1);
            QCOMPARE(left.at(0).messageCount, 3);
            QCOMPARE(store.search(QStringLiteral("pe")).value().size(), 1);
        }
        QVariant check;
        QVERIFY(rawSql(dbPath(), {QStringLiteral("PRAGMA integrity_check")}, &check));
        QCOMPARE(check.toString(), QStringLiteral("ok"));
        QVERIFY(rawSql(
            dbPath(),
            {QStringLiteral("INSERT INTO messages_fts(messages_fts) VALUES('integrity-check')")}));
        QVariant version;
        QVERIFY(rawSql(dbPath(), {QStringLiteral("PRAGMA user_version")}, &version));
        QCOMPARE(version.toInt(), ConversationStore::kSchemaVersion);
    }

    void aDatabaseFromANewerVersionIsRefusedAndLeftUntouched()
    {
        QVERIFY(rawSql(dbPath(),
                       {QStringLiteral("CREATE TABLE future (x)"),
                        QStringLiteral("PRAGMA user_version = 99")}));
        QFile file(dbPath());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray before = file.readAll();
        file.close();
        ConversationStore store;
        const Result<bool> opened = store.open(dbPath());
        QVERIFY(!opened);
        QVERIFY2(opened.error().contains(QStringLiteral("newer")), qPrintable(opened.error()));
        QVERIFY(!store.isOpen());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), before);
    }

    // The window starts the schema's making on a worker thread (StoreSchema) before it opens
    // the store: the open waits for it and finds the file ready.
    void aStorePreparedInTheBackgroundOpensAtTheCurrentSchema()
    {
        QVERIFY(!StoreSchema::waitForPreparation(dbPath()));
        StoreSchema::prepareInBackground(dbPath());
        ConversationStore store;
        const Result<bool> opened = store.open(dbPath());
        QVERIFY2(opened, qPrintable(opened.error()));
        QVERIFY(!StoreSchema::waitForPreparation(dbPath())); // the open waited for it
        QVERIFY(store.create(QStringLiteral("a1"), QStringLiteral("One"), QString(), true));
        store.close();
        isWalAtTheCurrentSchema(dbPath());
    }

    // A preparation reports nothing and changes nothing it must not: a newer database and a file
    // that is not one stay as they were, and the open after it says why it refuses them.
    void aPreparationLeavesWhatItCannotUseUntouched()
    {
        QVERIFY(rawSql(dbPath(),
                       {QStringLiteral("CREATE TABLE future (x)"),
                        QStringLiteral("PRAGMA user_version = 99")}));
        const QString garbagePath = m_dir.filePath(QStringLiteral("garbage.sqlite3"));
        QFile garbage(garbagePath);
        QVERIFY(garbage.open(QIODevice::WriteOnly));
        garbage.write(QByteArray(8192, 'g'));
        garbage.close();
        for (const QString &path : {dbPath(), garbagePath}) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray before = file.readAll();
            file.close();
            StoreSchema::prepareInBackground(path);
            QVERIFY(StoreSchema::waitForPreparation(path));
            QVERIFY(file.open(QIODevice::ReadOnly));
            QCOMPARE(file.readAll(), before);
            file.close();
            QVERIFY(!QFile::exists(path + QStringLiteral("-wal")));
            ConversationStore store;
            const Result<bool> opened = store.open(path);
            QVERIFY(!opened);
            QVERIFY2(opened.error().contains(path), qPrintable(opened.error()));
        }
    }

    void aFileThatIsNotADatabaseIsRefusedAndKept()
    {
        QFile file(dbPath());
        QVERIFY(file.open(QIODevice::WriteOnly));
        const QByteArray garbage(8192, 'g');
        file.write(garbage);
        file.close();
        ConversationStore store;
        const Result<bool> opened = store.open(dbPath());
        QVERIFY(!opened);
        QVERIFY2(opened.error().contains(dbPath()), qPrintable(opened.error()));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), garbage);
        QVERIFY(!store.list()); // a closed store answers with an error, not a crash
    }

    void searchMatchesAllWordsAsPrefixesAndAcceptsAnyText()
    {
        ConversationStore store;
        QVERIFY(store.open(dbPath()));
        QVERIFY(store.create(QStringLiteral("a"), QStringLiteral("A"), QStringLiteral("/w"), true));
        QVERIFY(store.create(QStringLiteral("b"), QStringLiteral("B"), QStringLiteral("/w"), true));
        QVERIFY(store.addMessage(QStringLiteral("a"),
                                 {{"role", "user"}, {"content", "compute the median income"}}));
        QVERIFY(store.addMessage(QStringLiteral("b"),
                                 {{"role", "assistant"}, {"content", "the median is 4"}}));
        QCOMPARE(store.search(QStringLiteral("median")).value().size(), 2);
        QCOMPARE(store.search(QStringLiteral("median inc")).value().size(), 1);
        QCOMPARE(store.search(QStringLiteral("MEDIAN")).value().size(), 2);
        // Two characters and more are a prefix; a single one is a word of its own.
        QCOMPARE(store.search(QStringLiteral("me")).value().size(), 2);
        QCOMPARE(store.search(QStringLiteral("m")).value().size(), 0);
        QCOMPARE(store.search(QStringLiteral("4")).value().size(), 1);
        for (const QString &odd : {QStringLiteral("he said \"hi"),
                                   QStringLiteral("NEAR(a b)"),
                                   QStringLiteral("content:x OR *"),
                                   QStringLiteral("-"),
                                   QStringLiteral("'; DROP TABLE messages; --")}) {
            const Result<QList<SearchHit>> hits = store.search(odd);
            QVERIFY2(hits, qPrintable(odd + QStringLiteral(": ") + hits.error()));
        }
        QVERIFY(store.search(QStringLiteral("   ")).value().isEmpty());
        QCOMPARE(store.messages(QStringLiteral("a")).value().size(), size_t(1));
        // Deleting a conversation takes its messages out of the index too.
        QVERIFY(store.remove(QStringLiteral("b")));
        QCOMPARE(store.search(QStringLiteral("median")).value().size(), 1);
    }

    void settingsAreKeptPerConversation()
    {
        ConversationStore store;
        QVERIFY(store.open(dbPath()));
        QVERIFY(store.create(QStringLiteral("a"), QStringLiteral("A"), QStringLiteral("/w"), true));
        QVERIFY(store.create(QStringLiteral("b"), QStringLiteral("B"), QStringLiteral("/w"), true));
        QVERIFY(store.setSetting(QStringLiteral("a"), QStringLiteral("network"), true));
        QVERIFY(store.setSetting(QStringLiteral("a"), QStringLiteral("model"), "m1"));
        QVERIFY(store.setSetting(QStringLiteral("a"), QStringLiteral("model"), "m2"));
        const nlohmann::json a = store.settings(QStringLiteral("a")).value();
        QCOMPARE(a["model"].get<std::string>(), std::string("m2"));
        QCOMPARE(a["network"].get<bool>(), true);
        QVERIFY(store.settings(QStringLiteral("b")).value().empty());
    }

    void deletingRemovesTheContainersAndOnlyAWorkspaceItOwns()
    {
        QTemporaryDir data;
        const QString owned = data.filePath(QStringLiteral("workspaces/own"));
        const QString chosen = data.filePath(QStringLiteral("mine"));
        QVERIFY(QDir().mkpath(owned + QStringLiteral("/sub")));
        QVERIFY(QDir().mkpath(chosen));
        QFile(owned + QStringLiteral("/sub/f.txt")).open(QIODevice::WriteOnly);
        QFile(chosen + QStringLiteral("/keep.txt")).open(QIODevice::WriteOnly);
        // A link in the workspace to a file outside: deleting removes the link, not the file.
        QVERIFY(QFile::link(chosen + QStringLiteral("/keep.txt"), owned + QStringLiteral("/link")));

        // A stand-in for docker that lists one container and records what it is asked.
        const QString log = data.filePath(QStringLiteral("docker.log"));
        const QString fake = data.filePath(QStringLiteral("docker"));
        QFile script(fake);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(QStringLiteral("#!/bin/sh\necho \"$@\" >> %1\n"
                                    "[ \"$1\" = ps ] && echo c0ffee\nexit 0\n")
                         .arg(log)
                         .toUtf8());
        script.close();
        script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);

        ConversationStore store;
        QVERIFY(store.open(dbPath()));
        QVERIFY(store.create(QStringLiteral("own"), QStringLiteral("A"), owned, true));
        QVERIFY(store.create(QStringLiteral("chosen"), QStringLiteral("B"), chosen, false));
        const ContainerEngine engine(fake);
        Result<QString> removed
            = ConversationRemoval::remove(store, engine, data.path(), QStringLiteral("own"));
        QVERIFY2(removed, qPrintable(removed.error()));
        QVERIFY(!QFileInfo::exists(owned));
        QVERIFY(QFileInfo::exists(chosen + QStringLiteral("/keep.txt")));
        removed = ConversationRemoval::remove(store, engine, data.path(), QStringLiteral("chosen"));
        QVERIFY2(removed, qPrintable(removed.error()));
        QVERIFY(QFileInfo::exists(chosen + QStringLiteral("/keep.txt")));
        QVERIFY(store.list().value().isEmpty());
        QFile logFile(log);
        QVERIFY(logFile.open(QIODevice::ReadOnly));
        const QString calls = QString::fromUtf8(logFile.readAll());
        QVERIFY2(calls.contains(QStringLiteral("label=sandcastle.conversation=own")),
                 qPrintable(calls));
        QVERIFY2(calls.contains(QStringLiteral("rm --force --volumes c0ffee")), qPrintable(calls));
        // The conversation's copy-mode volume goes with it (no such volume is not an error).
        QVERIFY2(calls.contains(QStringLiteral("volume rm --force sandcastle-ws-own")),
                 qPrintable(calls));
        QVERIFY(!ConversationRemoval::remove(store, engine, data.path(), QStringLiteral("own")));
    }

    void aWorkspaceRowPointingOutsideTheDataFolderIsNeverDeleted()
    {
        QTemporaryDir data;
        QTemporaryDir elsewhere;
        QFile(elsewhere.filePath(QStringLiteral("precious"))).open(QIODevice::WriteOnly);
        const QString fake = data.filePath(QStringLiteral("docker"));
        QFile script(fake);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\nexit 0\n");
        script.close();
        script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        ConversationStore store;
        QVERIFY(store.open(dbPath()));
        // A tampered row: "owned", but somewhere else.
        QVERIFY(store.create(QStringLiteral("x"), QStringLiteral("X"), elsewhere.path(), true));
        const Result<QString> removed = ConversationRemoval::remove(
            store, ContainerEngine(fake), data.path(), QStringLiteral("x"));
        QVERIFY(!removed);
        QVERIFY2(removed.error().contains(QStringLiteral("left in place")),
                 qPrintable(removed.error()));
        QVERIFY(QFileInfo::exists(elsewhere.filePath(QStringLiteral("precious"))));
    }

    void titlesComeFromTheFirstLineOfThePrompt()
    {
        QCOMPARE(ConversationInfo::titleFromPrompt(QStringLiteral("  Plot   this\nand more")),
                 QStringLiteral("Plot this"));
        QCOMPARE(ConversationInfo::titleFromPrompt(QStringLiteral(" \n ")),
                 QStringLiteral("New conversation"));
        const QString long60 = ConversationInfo::titleFromPrompt(QString(200, QLatin1Char('a')));
        QCOMPARE(long60.size(), 60);
        QVERIFY(long60.endsWith(QChar(0x2026)));
    }
};

QTEST_GUILESS_MAIN(TestConversationStore)
#include "tst_conversationstore.moc"
