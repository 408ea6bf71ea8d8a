#include <app/store/conversationstore.h>
#include <sandbox/containerengine.h>
#include <support/clirunner.h>
#include <support/datachecks.h>
#include <support/dockercheck.h>
#include <support/fakeopenaiserver.h>
#include <support/personsfolder.h>
#include <support/securitycase.h>

#include <QDirIterator>
#include <QElapsedTimer>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace Sandcastle;
using namespace Sandcastle::Testing::DataChecks;
using Sandcastle::Testing::CliRun;
using Sandcastle::Testing::FakeOpenAiServer;

namespace {

const QString kKey = QStringLiteral("sk-sandcastle-test-SECRET-7f3a9c");

} // namespace

// Conversations kept on disk, as the headless CLI uses them: continued, listed, searched,
// exported and re-run, and surviving a crash in the middle of a run.
class TestConversations : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dataDir;

    QProcessEnvironment env() const
    {
        QProcessEnvironment e = Sandcastle::Testing::cliEnvironment(m_dataDir.path());
        e.insert(QStringLiteral("SANDCASTLE_API_KEY"), kKey);
        return e;
    }

    CliRun sandcastle(const QStringList &args, int timeoutMs = 180000)
    {
        return Sandcastle::Testing::runSandcastle(args, env(), {}, timeoutMs);
    }

    QString storePath() const { return ConversationStore::defaultPath(m_dataDir.path()); }

    static QString idOf(const QList<nlohmann::json> &events)
    {
        for (const nlohmann::json &e : events) {
            if (e.value("type", std::string()) == "conversation")
                return QString::fromStdString(e.value("id", std::string()));
        }
        return QString();
    }

    // Starts `chat --json` and returns once a line of output holds `marker` (the event loop
    // turns meanwhile, so the in-process fake server answers).
    bool startChatUntil(QProcess &process,
                        const QStringList &args,
                        const QByteArray &marker,
                        QByteArray *out)
    {
        process.setProcessEnvironment(env());
        process.start(qEnvironmentVariable("SANDCASTLE_BINARY"), args);
        if (!process.waitForStarted(10000))
            return false;
        process.closeWriteChannel();
        QElapsedTimer clock;
        clock.start();
        while (!out->contains(marker) && clock.elapsed() < 90000
               && process.state() == QProcess::Running) {
            QTest::qWait(50);
            *out += process.readAllStandardOutput();
        }
        return out->contains(marker);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariable("SANDCASTLE_BINARY").isEmpty(),
                 "SANDCASTLE_BINARY is not set");
        SANDCASTLE_REQUIRE_DOCKER();
    }

    void aConversationIsSavedListedAndContinued()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueToolCall(QStringLiteral("c1"),
                               QStringLiteral("run_python"),
                               "{\"code\": \"x = 6 * 7\\nprint(x)\"}");
        server.enqueueText(QStringLiteral("Six times seven is 42."));
        CliRun run = sandcastle({QStringLiteral("chat"),
                                 QStringLiteral("--prompt"),
                                 QStringLiteral("What is six times seven?"),
                                 QStringLiteral("--base-url"),
                                 server.baseUrl(),
                                 QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QList<nlohmann::json> events = Sandcastle::Testing::jsonLines(run.out);
        const QString id = idOf(events);
        QVERIFY(!id.isEmpty());
        QCOMPARE(events.first()["type"].get<std::string>(), std::string("conversation"));
        QCOMPARE(events.last()["conversation"].get<std::string>(), id.toStdString());

        run = sandcastle(
            {QStringLiteral("chat"), QStringLiteral("--list"), QStringLiteral("--json")});
        QCOMPARE(run.exitCode, 0);
        const QList<nlohmann::json> listed = Sandcastle::Testing::jsonLines(run.out);
        const auto mine = std::find_if(listed.begin(), listed.end(), [&](const nlohmann::json &c) {
            return c.value("id", std::string()) == id.toStdString();
        });
        QVERIFY(mine != listed.end());
        QCOMPARE((*mine)["title"].get<std::string>(), std::string("What is six times seven?"));
        QCOMPARE((*mine)["messages"].get<int>(), 4); // user, call, result, answer

        server.enqueueText(QStringLiteral("Plus one is 43."));
        run = sandcastle({QStringLiteral("chat"),
                          QStringLiteral("--conversation"),
                          id,
                          QStringLiteral("--prompt"),
                          QStringLiteral("And plus one?"),
                          QStringLiteral("--base-url"),
                          server.baseUrl(),
                          QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        events = Sandcastle::Testing::jsonLines(run.out);
        QCOMPARE(idOf(events), id);
        QVERIFY(events.first()["continued"].get<bool>());
        // The model saw the whole earlier conversation, then the new question.
        const nlohmann::json sent
            = nlohmann::json::parse(server.requests().last().body.toStdString());
        const nlohmann::json &messages = sent["messages"];
        QCOMPARE(messages.size(), size_t(6));
        QCOMPARE(messages[1]["content"].get<std::string>(),
                 std::string("What is six times seven?"));
        QCOMPARE(messages[2]["tool_calls"][0]["id"].get<std::string>(), std::string("c1"));
        QVERIFY(messages[3]["content"].get<std::string>().find("42") != std::string::npos);
        QCOMPARE(messages[4]["content"].get<std::string>(), std::string("Six times seven is 42."));
        QCOMPARE(messages[5]["content"].get<std::string>(), std::string("And plus one?"));

        // Search, rename, show.
        run = sandcastle(
            {QStringLiteral("conversations"), QStringLiteral("search"), QStringLiteral("plus")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains(id.toUtf8()) && run.out.contains("[plus]"), run.out.constData());
        run = sandcastle(
            {QStringLiteral("conversations"), QStringLiteral("search"), QStringLiteral("zebra")});
        QCOMPARE(run.exitCode, 1);
        run = sandcastle({QStringLiteral("conversations"),
                          QStringLiteral("rename"),
                          id,
                          QStringLiteral("Arithmetic"),
                          QStringLiteral("check")});
        QCOMPARE(run.exitCode, 0);
        run = sandcastle({QStringLiteral("conversations"), QStringLiteral("show"), id});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.startsWith("# Arithmetic check\n"));
        QVERIFY(run.out.contains("x = 6 * 7"));
        QVERIFY(run.out.contains("Plus one is 43."));

        run = sandcastle({QStringLiteral("chat"),
                          QStringLiteral("--conversation"),
                          QStringLiteral("nope"),
                          QStringLiteral("--prompt"),
                          QStringLiteral("x")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("no conversation nope"));
    }

    void killedMidRunTheConversationSurvivesAndTheRunIsMarkedInterrupted()
    {
        Sandcastle::Testing::SecurityCase c(
            Sandcastle::Testing::SecurityCase::Kind::Fault,
            QStringLiteral("kill -9 during a run (store, interrupted run, orphaned container)"));
        c.note(QStringLiteral("store intact, run marked interrupted, orphan removed on the next "
                              "start, the model told"));
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueToolCall(
            QStringLiteral("slow"),
            QStringLiteral("run_python"),
            "{\"code\": \"import time\\nprint('started', flush=True)\\ntime.sleep(120)\"}");
        QProcess chat;
        QByteArray out;
        QVERIFY2(startChatUntil(chat,
                                {QStringLiteral("chat"),
                                 QStringLiteral("--prompt"),
                                 QStringLiteral("Wait two minutes"),
                                 QStringLiteral("--base-url"),
                                 server.baseUrl(),
                                 QStringLiteral("--json")},
                                "started",
                                &out),
                 out.constData());
        const QString id = idOf(Sandcastle::Testing::jsonLines(out.left(out.lastIndexOf('\n'))));
        QVERIFY(!id.isEmpty());
        ::kill(pid_t(chat.processId()), SIGKILL); // a crash: nothing gets to clean up
        QVERIFY(chat.waitForFinished(10000));
        QCOMPARE(conversationContainers(id).size(), 1); // left behind, still running

        // The next start finds everything that completed, and the run marked interrupted.
        QCOMPARE(integrityCheck(storePath()), QStringLiteral("ok"));
        {
            ConversationStore store;
            QVERIFY(store.open(storePath()));
            QCOMPARE(store.interruptedOnOpen(), 1);
            const nlohmann::json messages = store.messages(id).value();
            QCOMPARE(messages.size(), size_t(2));
            QCOMPARE(messages[0]["content"].get<std::string>(), std::string("Wait two minutes"));
            QCOMPARE(messages[1]["tool_calls"][0]["id"].get<std::string>(), std::string("slow"));
            const QList<StoredRun> runs = store.runs(id).value();
            QCOMPARE(runs.size(), 1);
            QCOMPARE(runs.at(0).status, QStringLiteral("interrupted"));
            QVERIFY(runs.at(0).code.contains(QStringLiteral("time.sleep(120)")));
        }

        // Continuing works: the orphan is removed, the model learns the run was interrupted.
        server.enqueueText(QStringLiteral("The wait was interrupted."));
        const CliRun run = sandcastle({QStringLiteral("chat"),
                                       QStringLiteral("--conversation"),
                                       id,
                                       QStringLiteral("--prompt"),
                                       QStringLiteral("Did it finish?"),
                                       QStringLiteral("--base-url"),
                                       server.baseUrl(),
                                       QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const nlohmann::json sent
            = nlohmann::json::parse(server.requests().last().body.toStdString());
        const nlohmann::json &messages = sent["messages"];
        QCOMPARE(messages[3]["role"].get<std::string>(), std::string("tool"));
        QCOMPARE(messages[3]["tool_call_id"].get<std::string>(), std::string("slow"));
        QVERIFY(messages[3]["content"].get<std::string>().find("interrupted") != std::string::npos);
        QVERIFY(conversationContainers(id).isEmpty());
        QCOMPARE(integrityCheck(storePath()), QStringLiteral("ok"));
    }

    void ctrlCSavesTheTranscriptConsistently()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueToolCall(
            QStringLiteral("slow"),
            QStringLiteral("run_python"),
            "{\"code\": \"import time\\nprint('started', flush=True)\\ntime.sleep(120)\"}");
        QProcess chat;
        QByteArray out;
        QVERIFY(startChatUntil(chat,
                               {QStringLiteral("chat"),
                                QStringLiteral("--prompt"),
                                QStringLiteral("Wait please"),
                                QStringLiteral("--base-url"),
                                server.baseUrl(),
                                QStringLiteral("--json")},
                               "started",
                               &out));
        const QString id = idOf(Sandcastle::Testing::jsonLines(out.left(out.lastIndexOf('\n'))));
        ::kill(pid_t(chat.processId()), SIGINT);
        QVERIFY(chat.waitForFinished(30000));
        QCOMPARE(chat.exitCode(), 130);
        ConversationStore store;
        QVERIFY(store.open(storePath()));
        const nlohmann::json messages = store.messages(id).value();
        QCOMPARE(messages.size(), size_t(3)); // the call has its answer: stopped
        QCOMPARE(messages[2]["tool_call_id"].get<std::string>(), std::string("slow"));
        QVERIFY(messages[2]["content"].get<std::string>().find("stopped") != std::string::npos);
        const QList<StoredRun> runs = store.runs(id).value();
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs.at(0).status, QStringLiteral("killed"));
    }

    void theCsvExampleExportsABundleThatReRunsAndRemakesTheChart()
    {
        Sandcastle::Testing::SecurityCase c(
            Sandcastle::Testing::SecurityCase::Kind::Fault,
            QStringLiteral("secrets: the API key in no export, store or output"));
        c.note(QStringLiteral("searched the export bundle, the data folder and the --json "
                              "stream"));
        // "Upload" a CSV: the person's folder becomes the workspace.
        QTemporaryDir folder;
        QFile csv(folder.filePath(QStringLiteral("temps.csv")));
        QVERIFY(csv.open(QIODevice::WriteOnly));
        csv.write("city,temp\nOslo,3\nRome,18\nCairo,30\nLima,19\n");
        csv.close();
        QVERIFY(Sandcastle::Testing::handToPerson(folder.path()));
        const QByteArray code
            = "import pandas as pd\\nimport matplotlib\\nmatplotlib.use('Agg')\\n"
              "import matplotlib.pyplot as plt\\nimport os\\n"
              "df = pd.read_csv('temps.csv')\\nprint('mean', df['temp'].mean())\\n"
              "os.makedirs('outputs', exist_ok=True)\\n"
              "df.plot.bar(x='city', "
              "y='temp')\\nplt.savefig('outputs/temps.png')\\nplt.close('all')";
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueToolCall(
            QStringLiteral("csv1"), QStringLiteral("run_python"), "{\"code\": \"" + code + "\"}");
        server.enqueueText(
            QStringLiteral("The mean temperature is 17.5; the chart is in outputs/temps.png."));
        CliRun run = sandcastle({QStringLiteral("chat"),
                                 QStringLiteral("--prompt"),
                                 QStringLiteral("Summarise temps.csv and chart it"),
                                 QStringLiteral("--workspace"),
                                 folder.path(),
                                 QStringLiteral("--base-url"),
                                 server.baseUrl(),
                                 QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(run.out.contains("mean 17.5"), run.out.constData());
        QVERIFY(!QByteArray(run.out + run.err).contains(kKey.toUtf8())); // nor in the --json stream
        const QString id = idOf(Sandcastle::Testing::jsonLines(run.out));
        QVERIFY(QFileInfo::exists(folder.filePath(QStringLiteral("outputs/temps.png"))));

        QTemporaryDir exports;
        const QString bundle = exports.filePath(QStringLiteral("bundle"));
        run = sandcastle({QStringLiteral("conversations"),
                          QStringLiteral("export"),
                          id,
                          QStringLiteral("--bundle"),
                          bundle});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QString markdown = exports.filePath(QStringLiteral("conversation.md"));
        run = sandcastle({QStringLiteral("conversations"),
                          QStringLiteral("export"),
                          id,
                          QStringLiteral("--markdown"),
                          markdown});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY(QFileInfo(markdown).size() > 100);

        // Remove the chart from the bundle, re-run as the README says, and it is back.
        const QString chart = bundle + QStringLiteral("/workspace/outputs/temps.png");
        QVERIFY(QFile::remove(chart));
        QVERIFY(Sandcastle::Testing::handToPerson(bundle + QStringLiteral("/workspace")));
        run = sandcastle({QStringLiteral("exec"),
                          QStringLiteral("--workspace"),
                          bundle + QStringLiteral("/workspace"),
                          bundle + QStringLiteral("/replay.py")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(run.out.contains("mean 17.5"), run.out.constData());
        QFile png(chart);
        QVERIFY(png.open(QIODevice::ReadOnly));
        QCOMPARE(png.read(8), QByteArray("\x89PNG\r\n\x1a\n"));
        QVERIFY(png.size() > 1000);

        // The API key is in no export, in the workspace, or anywhere in the data folder.
        QCOMPARE(filesContaining(exports.path(), kKey.toUtf8()), QStringList());
        QCOMPARE(filesContaining(folder.path(), kKey.toUtf8()), QStringList());
        QCOMPARE(filesContaining(m_dataDir.path(), kKey.toUtf8()), QStringList());
    }

    void oneChatEmitsEveryEventTypeOfTheDesign()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueError(429,
                            R"({"error":{"message":"slow down","type":"rate_limit"}})",
                            {{"retry-after", "0"}});
        auto turn = [](const QString &id) {
            FakeOpenAiServer::Response r;
            r.writes << FakeOpenAiServer::sseEvent(
                R"({"choices":[{"index":0,"delta":{"reasoning_content":"thinking"}}]})")
                     << FakeOpenAiServer::sseEvent(
                            FakeOpenAiServer::textChunk(QStringLiteral("Checking.")))
                     << FakeOpenAiServer::sseEvent(FakeOpenAiServer::toolCallChunk(
                            0,
                            id,
                            QStringLiteral("run_python"),
                            QStringLiteral("{\"code\": \"print(1)\"}")))
                     << FakeOpenAiServer::sseEvent(
                            FakeOpenAiServer::finishChunk(QStringLiteral("tool_calls")))
                     << FakeOpenAiServer::sseEvent(FakeOpenAiServer::usageChunk())
                     << "data: [DONE]\n\n";
            return r;
        };
        server.enqueue(turn(QStringLiteral("t1")));
        server.enqueue(turn(QStringLiteral("t2")));
        const CliRun run = sandcastle({QStringLiteral("chat"),
                                       QStringLiteral("--prompt"),
                                       QStringLiteral("check twice"),
                                       QStringLiteral("--max-turns"),
                                       QStringLiteral("2"),
                                       QStringLiteral("--base-url"),
                                       server.baseUrl(),
                                       QStringLiteral("--json")});
        QCOMPARE(run.exitCode, 1);
        QSet<QString> types;
        const QList<nlohmann::json> events = Sandcastle::Testing::jsonLines(run.out);
        for (const nlohmann::json &e : events)
            types.insert(QString::fromStdString(e.value("type", std::string())));
        for (const char *type : {"text_delta",
                                 "reasoning_delta",
                                 "tool_call",
                                 "tool_output",
                                 "tool_result",
                                 "message",
                                 "usage",
                                 "retry",
                                 "error",
                                 "done"})
            QVERIFY2(types.contains(QLatin1String(type)), type);
        int lastTurn = 0;
        for (const nlohmann::json &e : events) {
            if (e.value("type", std::string()) == "usage") {
                QCOMPARE(e["turn"].get<int>(), lastTurn + 1); // the live turn counter
                lastTurn = e["turn"].get<int>();
                QVERIFY(e.contains("run_total_tokens"));
                QVERIFY(e.contains("run_cost_usd")); // a loopback model costs nothing
            }
        }
        QCOMPARE(lastTurn, 2);
        const nlohmann::json &done = events.last();
        QCOMPARE(done["status"].get<std::string>(), std::string("max_turns"));
        QCOMPARE(done["limit"].get<std::string>(), std::string("max_turns"));
        QCOMPARE(done["turns"].get<int>(), 2);
    }

    void deletingAConversationRemovesItsWorkspaceAndRows()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueToolCall(QStringLiteral("w"),
                               QStringLiteral("write_file"),
                               "{\"path\": \"note.txt\", \"content\": \"hello\"}");
        server.enqueueText(QStringLiteral("Written."));
        CliRun run = sandcastle({QStringLiteral("chat"),
                                 QStringLiteral("--prompt"),
                                 QStringLiteral("note"),
                                 QStringLiteral("--base-url"),
                                 server.baseUrl(),
                                 QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QString id = idOf(Sandcastle::Testing::jsonLines(run.out));
        const QString workspace = m_dataDir.filePath(QStringLiteral("workspaces/") + id);
        QVERIFY(QFileInfo::exists(workspace + QStringLiteral("/note.txt")));
        run = sandcastle({QStringLiteral("conversations"), QStringLiteral("delete"), id});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY(!QFileInfo::exists(workspace));
        run = sandcastle({QStringLiteral("conversations"), QStringLiteral("show"), id});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(conversationContainers(id).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestConversations)
#include "tst_conversations.moc"
