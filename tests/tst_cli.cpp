#include <support/clirunner.h>
#include <support/dockercheck.h>
#include <support/fakeopenaiserver.h>
#include <support/securitycase.h>
#include <support/testtimeouts.h>

#include <nlohmann/json.hpp>

#include <QElapsedTimer>
#include <QProcess>

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <tuple>

using Sandcastle::Testing::FakeOpenAiServer;

// The `sandcastle` executable's headless commands, run as a person or a script would.
class TestCli : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dataDir;

    struct Run
    {
        int exitCode = -1;
        QByteArray out;
        QByteArray err;
    };

    // sandcastle() removes SANDCASTLE_BASE_URL; the settings file points at the fake server,
    // so no check ever reaches past loopback.
    static bool pointSettingsAt(QFile &settings, const FakeOpenAiServer &server)
    {
        if (!settings.open(QIODevice::WriteOnly))
            return false;
        settings.write("[model]\nbaseUrl=" + server.baseUrl().toUtf8() + "\n");
        settings.close();
        return true;
    }

    Run sandcastle(const QStringList &args, const QByteArray &input = {}, int timeoutMs = 120000)
    {
        const Sandcastle::Testing::CliRun run = Sandcastle::Testing::runSandcastle(
            args, Sandcastle::Testing::cliEnvironment(m_dataDir.path()), input, timeoutMs);
        return {run.exitCode, run.out, run.err};
    }

    // The `chat --json` events of a run, parsed, with the exit code.
    QList<nlohmann::json> chatEvents(const FakeOpenAiServer &server, int *exitCode)
    {
        const Run run = sandcastle({QStringLiteral("chat"),
                                    QStringLiteral("--prompt"),
                                    QStringLiteral("hi"),
                                    QStringLiteral("--base-url"),
                                    server.baseUrl(),
                                    QStringLiteral("--json")});
        *exitCode = run.exitCode;
        return Sandcastle::Testing::jsonLines(run.out);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariable("SANDCASTLE_BINARY").isEmpty(),
                 "SANDCASTLE_BINARY is not set");
        QVERIFY(m_dataDir.isValid());
    }

    void printsItsVersion()
    {
        const Run run = sandcastle({QStringLiteral("--version")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QByteArray("sandcastle " SANDCASTLE_VERSION "\n"));
    }

    void badUsageExitsWithTwoAndSaysWhy()
    {
        Run run = sandcastle({QStringLiteral("chat")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("--prompt"));
        run = sandcastle({QStringLiteral("chat"),
                          QStringLiteral("--prompt"),
                          QStringLiteral("x"),
                          QStringLiteral("--bogus")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("bogus"));
        run = sandcastle({QStringLiteral("exec"), QStringLiteral("/nonexistent/file.py")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("cannot read"));
        run = sandcastle({QStringLiteral("chat"),
                          QStringLiteral("--prompt"),
                          QStringLiteral("x"),
                          QStringLiteral("--base-url"),
                          QStringLiteral("ftp://example")});
        QCOMPARE(run.exitCode, 2);
        run = sandcastle({QStringLiteral("chat"),
                          QStringLiteral("--prompt"),
                          QStringLiteral("x"),
                          QStringLiteral("--api"),
                          QStringLiteral("claude")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("--api must be chat, responses, messages or auto, not 'claude'"),
                 run.err.constData());
    }

    // A word that is neither a command nor one of the window's options is a mistake said as
    // one (exit 2, the usage), never "open the window": not even with a display at hand.
    void anUnknownCommandOrOptionIsAUsageError()
    {
        const QList<QPair<QStringList, QByteArray>> cases{
            {{QStringLiteral("frobnicate")}, "unknown command 'frobnicate'\n"},
            {{QStringLiteral("exce"), QStringLiteral("script.py")},
             "unknown command 'exce' (did you mean 'exec'?)"},
            {{QStringLiteral("--frob")}, "unknown option '--frob'"},
            {{QStringLiteral("-platform"), QStringLiteral("offscreen"), QStringLiteral("stray")},
             "unknown command 'stray'"},
            {{QStringLiteral("--workspace")}, "--workspace needs a folder"},
            {{QStringLiteral("-style")}, "-style needs a value"},
            {{QStringLiteral("exec"), QStringLiteral("--context")}, "--context needs a value"},
            {{QStringLiteral("--engine="), QStringLiteral("doctor")}, "--engine needs a value"},
            {{QStringLiteral("--context"), QStringLiteral("--workspace")},
             "--context needs a value"},
        };
        for (const auto &[args, message] : cases) {
            const Run run = sandcastle(args);
            QCOMPARE(run.exitCode, 2);
            QVERIFY2(run.err.contains(message), run.err.constData());
            QVERIFY2(run.err.contains("usage: sandcastle"), run.err.constData());
        }
    }

    // Over Anthropic's Messages API the usage events say what the server read from its cache
    // and wrote to it; the prompt count includes both, as OpenAI's does.
    void chatOverMessagesReportsCachedTokens()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        Sandcastle::Testing::FakeTurn turn;
        turn.text = QStringLiteral("Hello.");
        turn.usage.cached = 30;
        turn.usage.cacheWrite = 5;
        server.enqueueTurn(turn);
        const Run run = sandcastle({QStringLiteral("chat"),
                                    QStringLiteral("--prompt"),
                                    QStringLiteral("Say hello"),
                                    QStringLiteral("--base-url"),
                                    server.baseUrl(),
                                    QStringLiteral("--api"),
                                    QStringLiteral("messages"),
                                    QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QCOMPARE(server.requests().first().path, QByteArray("/v1/messages"));
        bool sawUsage = false;
        for (const auto &e : Sandcastle::Testing::jsonLines(run.out)) {
            if (e["type"] != "usage")
                continue;
            sawUsage = true;
            QCOMPARE(e["prompt_tokens"].get<int>(), 42);
            QCOMPARE(e["cached_tokens"].get<int>(), 30);
            QCOMPARE(e["cache_write_tokens"].get<int>(), 5);
        }
        QVERIFY(sawUsage);
    }

    // A folder that must not be mounted into a sandbox is refused before anything starts,
    // saying why; nothing is created in it and no conversation is stored.
    void chatRefusesAFolderThatMustNotBeMounted()
    {
        QTemporaryDir keys;
        QVERIFY(QDir().mkpath(keys.filePath(QStringLiteral(".ssh"))));
        const QList<QPair<QString, QByteArray>> refused{
            {QStringLiteral("/"), "root of the file system"},
            {keys.path(), "holds .ssh"},
            {keys.filePath(QStringLiteral("missing")), "does not exist"},
            {m_dataDir.path(), "data folder"},
        };
        for (const auto &[folder, because] : refused) {
            const Run run = sandcastle({QStringLiteral("chat"),
                                        QStringLiteral("--prompt"),
                                        QStringLiteral("hi"),
                                        QStringLiteral("--base-url"),
                                        QStringLiteral("http://127.0.0.1:9/v1"),
                                        QStringLiteral("--workspace"),
                                        folder});
            QCOMPARE(run.exitCode, 2);
            QVERIFY2(run.err.contains(because), run.err.constData());
        }
        QCOMPARE(
            QDir(keys.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
            QStringList{QStringLiteral(".ssh")});
        const Run listed = sandcastle({QStringLiteral("chat"), QStringLiteral("--list")});
        QVERIFY2(!listed.out.contains("hi"), listed.out.constData());
    }

    void chatJsonPrintsTheEventsOfTheSeedExample()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueToolCall(
            QStringLiteral("call_1"),
            QStringLiteral("run_python"),
            "{\"code\": \"numbers = [1, 2, 3, 4, 5]; print(sum(numbers) / len(numbers))\"}");
        server.enqueueText(QStringLiteral("The average is 3.0."));
        const Run run = sandcastle(
            {QStringLiteral("chat"),
             QStringLiteral("--prompt"),
             QStringLiteral("Calculate the average of the numbers in this list: [1, 2, 3, 4, 5]"),
             QStringLiteral("--base-url"),
             server.baseUrl(),
             QStringLiteral("--model"),
             QStringLiteral("fake-model"),
             QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QStringList types;
        QString toolOutput;
        QString text;
        nlohmann::ordered_json last;
        const QList<QByteArray> lines = run.out.split('\n');
        for (const QByteArray &line : lines) {
            if (line.isEmpty())
                continue;
            const auto event = nlohmann::ordered_json::parse(line.toStdString(), nullptr, false);
            QVERIFY2(event.is_object(), line.constData());
            QVERIFY2(event.begin().key() == "type", "type must come first");
            const QString type = QString::fromStdString(event["type"].get<std::string>());
            types << type;
            if (type == QLatin1String("tool_output"))
                toolOutput += QString::fromStdString(event["text"].get<std::string>());
            if (type == QLatin1String("text_delta"))
                text += QString::fromStdString(event["text"].get<std::string>());
            last = event;
        }
        for (const char *type :
             {"message", "tool_call", "tool_output", "tool_result", "usage", "text_delta", "done"})
            QVERIFY2(types.contains(QLatin1String(type)), type);
        QCOMPARE(toolOutput, QStringLiteral("3.0\n"));
        QCOMPARE(text, QStringLiteral("The average is 3.0."));
        QCOMPARE(last["type"].get<std::string>(), std::string("done"));
        QCOMPARE(last["status"].get<std::string>(), std::string("answered"));
        QCOMPARE(last["turns"].get<int>(), 2);
    }

    void chatExitsWithOneWhenTheModelFails()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        for (int i = 0; i < 3; ++i) // the first try and two retries
            server.enqueueError(
                500, "{\"error\":{\"message\":\"model overloaded\"}}", {{"retry-after-ms", "10"}});
        int exitCode = -1;
        const auto events = chatEvents(server, &exitCode);
        QCOMPARE(exitCode, 1);
        bool sawError = false;
        for (const auto &e : events) {
            if (e["type"] == "error")
                sawError
                    = e["message"].get<std::string>().find("model overloaded") != std::string::npos;
        }
        QVERIFY(sawError);
        QCOMPARE(events.last()["status"].get<std::string>(), std::string("error"));
    }

    void chatJsonShowsRetriesWithTheHonouredDelay()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueError(
            429, "{\"error\":{\"message\":\"Rate limit reached\"}}", {{"retry-after", "1"}});
        server.enqueueError(
            503, "{\"error\":{\"message\":\"overloaded\"}}", {{"retry-after-ms", "200"}});
        server.enqueueText(QStringLiteral("made it"));
        int exitCode = -1;
        const auto events = chatEvents(server, &exitCode);
        QCOMPARE(exitCode, 0);
        QList<nlohmann::json> retries;
        for (const auto &e : events) {
            if (e["type"] == "retry")
                retries << e;
        }
        QCOMPARE(retries.size(), 2);
        QCOMPARE(retries.at(0)["attempt"].get<int>(), 1);
        QCOMPARE(retries.at(0)["delay_ms"].get<int>(), 1000);
        QVERIFY(retries.at(0)["reason"].get<std::string>().find("429") != std::string::npos);
        QCOMPARE(retries.at(1)["delay_ms"].get<int>(), 200);
        QCOMPARE(events.last()["status"].get<std::string>(), std::string("answered"));
    }

    void chatJsonReportsABadKeyAndAnEmptyQuotaWithoutRetrying()
    {
        const QList<std::pair<int, QByteArray>> cases{
            {401, "{\"error\":{\"message\":\"Incorrect API key provided\"}}"},
            {429,
             "{\"error\":{\"message\":\"You exceeded your current "
             "quota\",\"code\":\"insufficient_quota\"}}"}};
        for (const auto &[status, body] : cases) {
            FakeOpenAiServer server;
            QVERIFY(server.listen());
            server.enqueueError(status, body);
            int exitCode = -1;
            const auto events = chatEvents(server, &exitCode);
            QCOMPARE(exitCode, 1);
            bool sawError = false;
            for (const auto &e : events) {
                QVERIFY(e["type"] != "retry");
                if (e["type"] == "error") {
                    sawError = true;
                    QVERIFY(e["code"] == (status == 401 ? "auth" : "quota"));
                }
            }
            QVERIFY(sawError);
            QCOMPARE(events.last()["type"].get<std::string>(), std::string("done"));
            QCOMPARE(events.last()["status"].get<std::string>(), std::string("error"));
            QCOMPARE(server.requests().size(), 1);
        }
    }

    void chatRunsParallelToolCallsIndexedFromOne()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        FakeOpenAiServer::Response calls;
        calls.writes
            << FakeOpenAiServer::sseEvent(
                   FakeOpenAiServer::toolCallChunk(1,
                                                   QStringLiteral("p1"),
                                                   QStringLiteral("run_python"),
                                                   QStringLiteral("{\"code\": \"a = 20\"}")))
            << FakeOpenAiServer::sseEvent(FakeOpenAiServer::toolCallChunk(
                   2, QStringLiteral("p2"), QStringLiteral("run_python"), QString()))
            << FakeOpenAiServer::sseEvent(FakeOpenAiServer::toolCallChunk(
                   2, QString(), QString(), QStringLiteral("{\"code\": \"print(a + 22)\"}")))
            << FakeOpenAiServer::sseEvent(
                   FakeOpenAiServer::finishChunk(QStringLiteral("tool_calls")))
            << FakeOpenAiServer::sseEvent("[DONE]");
        server.enqueue(calls);
        server.enqueueText(QStringLiteral("42"));
        int exitCode = -1;
        const auto events = chatEvents(server, &exitCode);
        QCOMPARE(exitCode, 0);
        QStringList results;
        QString output;
        for (const auto &e : events) {
            if (e["type"] == "tool_result")
                results << QString::fromStdString(e["id"].get<std::string>() + ":"
                                                  + e["status"].get<std::string>());
            if (e["type"] == "tool_output")
                output += QString::fromStdString(e["text"].get<std::string>());
        }
        QCOMPARE(results, (QStringList{QStringLiteral("p1:ok"), QStringLiteral("p2:ok")}));
        QCOMPARE(output, QStringLiteral("42\n"));
        QCOMPARE(events.last()["status"].get<std::string>(), std::string("answered"));
    }

    void execStreamsAndReturnsTheProgramsExitCode()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        Run run = sandcastle({QStringLiteral("exec"), QStringLiteral("-")},
                             "import sys\nprint('out')\nprint('err', file=sys.stderr)\n");
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QByteArray("out\n"));
        QVERIFY(run.err.contains("err\n"));
        run = sandcastle({QStringLiteral("exec"), QStringLiteral("-")}, "raise SystemExit(3)\n");
        QCOMPARE(run.exitCode, 3);
        run = sandcastle({QStringLiteral("exec"), QStringLiteral("-")}, "1/0\n");
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains("ZeroDivisionError"));
    }

    void execFreshRunsInItsOwnContainer()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        const Run run
            = sandcastle({QStringLiteral("exec"), QStringLiteral("--fresh"), QStringLiteral("-")},
                         "import os\nprint(os.getuid() != 0, os.getcwd())\n");
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QByteArray("True /workspace\n"));
    }

    void anOrphanLeftByAKilledProcessIsReaped()
    {
        Sandcastle::Testing::SecurityCase c(
            Sandcastle::Testing::SecurityCase::Kind::Fault,
            QStringLiteral("kill -9 of the CLI: its orphaned container is reaped"));
        SANDCASTLE_REQUIRE_DOCKER();
        QProcess holder;
        holder.setProcessEnvironment(Sandcastle::Testing::cliEnvironment(m_dataDir.path()));
        holder.start(qEnvironmentVariable("SANDCASTLE_BINARY"),
                     {QStringLiteral("exec"), QStringLiteral("-")});
        QVERIFY(holder.waitForStarted());
        holder.write("import time\ntime.sleep(120)\n");
        holder.closeWriteChannel();
        const Sandcastle::ContainerEngine engine;
        const QStringList filter{
            QStringLiteral("ps"),
            QStringLiteral("--all"),
            QStringLiteral("--quiet"),
            QStringLiteral("--filter"),
            QStringLiteral("label=sandcastle.owner-pid=%1").arg(holder.processId())};
        QByteArray id;
        for (int i = 0; i < 300 && id.isEmpty(); ++i) {
            QTest::qWait(100);
            id = engine.run(filter).stdoutData.trimmed();
        }
        QVERIFY2(!id.isEmpty(), "the session's container never appeared");
        ::kill(pid_t(holder.processId()), SIGKILL); // a crash: no clean-up runs
        QVERIFY(holder.waitForFinished(10000));
        QCOMPARE(engine.run(filter).stdoutData.trimmed(), id); // left behind
        QVERIFY(engine.reapOrphans() >= 1);
        QVERIFY(engine.run(filter).stdoutData.trimmed().isEmpty());
    }

    void ctrlCStopsExecAndChatCleanly()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        const auto interruptAfter = [this](const QStringList &args,
                                           const QByteArray &input,
                                           const QByteArray &marker) {
            QProcess process;
            process.setProcessEnvironment(Sandcastle::Testing::cliEnvironment(m_dataDir.path()));
            process.start(qEnvironmentVariable("SANDCASTLE_BINARY"), args);
            process.waitForStarted();
            process.write(input);
            process.closeWriteChannel();
            QByteArray out;
            QElapsedTimer clock;
            clock.start();
            while (!out.contains(marker) && clock.elapsed() < 60000) {
                QTest::qWait(50); // the event loop must run: the fake server lives in this process
                out += process.readAllStandardOutput();
            }
            ::kill(pid_t(process.processId()), SIGINT);
            // Its end includes stopping its sandbox, through a daemon other jobs may keep busy.
            const bool ended = process.waitForFinished(Sandcastle::Testing::kLongWaitMs);
            out += process.readAllStandardOutput();
            return std::make_tuple(ended, process.exitCode(), out);
        };
        auto [ended, code, out]
            = interruptAfter({QStringLiteral("exec"), QStringLiteral("-")},
                             "import time\nprint('started', flush=True)\ntime.sleep(60)\n",
                             "started");
        QVERIFY(ended);
        QCOMPARE(code, 130);

        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueToolCall(
            QStringLiteral("slow"),
            QStringLiteral("run_python"),
            "{\"code\": \"import time\\nprint('started', flush=True)\\ntime.sleep(60)\"}");
        std::tie(ended, code, out) = interruptAfter({QStringLiteral("chat"),
                                                     QStringLiteral("--prompt"),
                                                     QStringLiteral("wait"),
                                                     QStringLiteral("--base-url"),
                                                     server.baseUrl(),
                                                     QStringLiteral("--json")},
                                                    {},
                                                    "started");
        QVERIFY(ended);
        QCOMPARE(code, 130);
        QVERIFY2(out.contains("\"type\":\"done\",\"status\":\"stopped\""), out.constData());
        QVERIFY2(out.contains("\"type\":\"tool_result\""), out.constData());
    }

    void execTimesOutWith124()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        const Run run = sandcastle({QStringLiteral("exec"),
                                    QStringLiteral("--timeout"),
                                    QStringLiteral("1"),
                                    QStringLiteral("-")},
                                   "import time\ntime.sleep(60)\n");
        QCOMPARE(run.exitCode, 124);
        QVERIFY(run.err.contains("timed out"));
    }

    void execWithAMissingImageExitsWith125()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        qputenv("SANDCASTLE_IMAGE", "sandcastle-no-such-image:never");
        const Run run = sandcastle({QStringLiteral("exec"), QStringLiteral("-")}, "print(1)\n");
        qunsetenv("SANDCASTLE_IMAGE");
        QCOMPARE(run.exitCode, 125);
        QVERIFY(run.err.contains("sandcastle image build"));
    }

    void doctorChecksEveryPart()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        QFile settings(m_dataDir.filePath(QStringLiteral("settings.ini")));
        QVERIFY(pointSettingsAt(settings, server));
        Run run = sandcastle({QStringLiteral("doctor")});
        QVERIFY2(run.exitCode == 0, run.out.constData());
        for (const char *check : {"engine", "daemon", "image", "endpoint", "key"})
            QVERIFY2(run.out.contains(check), check);
        QVERIFY(!run.out.contains("FAIL"));

        qputenv("SANDCASTLE_IMAGE", "sandcastle-no-such-image:never");
        run = sandcastle({QStringLiteral("doctor")});
        qunsetenv("SANDCASTLE_IMAGE");
        QFile::remove(settings.fileName());
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.out.contains("FAIL  image"));
    }

    void doctorSaysWhatAnswersOnTheChosenEngine()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        if (QStandardPaths::findExecutable(QStringLiteral("podman")).isEmpty()) {
            if (qEnvironmentVariableIsSet("CI"))
                QFAIL("podman is required in CI (scripts/setup installs it)");
            QSKIP("podman is not installed");
        }
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        QFile settings(m_dataDir.filePath(QStringLiteral("settings.ini")));
        QVERIFY(pointSettingsAt(settings, server));
        // Docker here: the folder mounted; Podman here (--engine anywhere on the line) too.
        Run run = sandcastle({QStringLiteral("doctor")});
        QVERIFY2(run.out.contains("ok    daemon     Docker ") && run.out.contains(", at unix://"),
                 run.out.constData());
        QVERIFY2(run.out.contains("ok    workspace  mounted"), run.out.constData());
        run = sandcastle(
            {QStringLiteral("doctor"), QStringLiteral("--engine"), QStringLiteral("podman")});
        QVERIFY2(run.out.contains("podman at ") && run.out.contains("Podman "),
                 run.out.constData());
        QVERIFY2(run.out.contains("ok    workspace  mounted"), run.out.constData());
        // Copy mode asked for: said so.
        qputenv("SANDCASTLE_WORKSPACE_MODE", "copy");
        run = sandcastle({QStringLiteral("--engine=podman"), QStringLiteral("doctor")});
        qunsetenv("SANDCASTLE_WORKSPACE_MODE");
        QVERIFY2(run.out.contains("ok    workspace  copied into a volume per conversation (the "
                                  "setting asks for copy mode)"),
                 run.out.constData());
        // A context that does not exist is the daemon's failure, said with the engine's words.
        run = sandcastle({QStringLiteral("doctor"),
                          QStringLiteral("--context"),
                          QStringLiteral("sandcastle-no-such-context")});
        QFile::remove(settings.fileName());
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.out.contains("FAIL  daemon"), run.out.constData());
        QVERIFY2(run.out.contains("sandcastle-no-such-context"), run.out.constData());
    }

    void imageBuildIsANoOpWhenTheImageIsCurrent()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        const Run run = sandcastle({QStringLiteral("image"), QStringLiteral("build")}, {}, 1800000);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(run.out.contains("up to date") || run.out.contains("built"), run.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
