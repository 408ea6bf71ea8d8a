#include <support/fakeopenaiserver.h>
#include <support/faultchat.h>

#include <QTcpServer>

using namespace Sandcastle;
using namespace Sandcastle::Testing::DataChecks;
using Sandcastle::Testing::FakeOpenAiServer;
using Sandcastle::Testing::SecurityCase;

namespace {

using Response = FakeOpenAiServer::Response;
using FaultChat = Sandcastle::Testing::FaultChat;
using Outcome = FaultChat::Outcome;

QByteArray sse(const QByteArray &chunk)
{
    return FakeOpenAiServer::sseEvent(chunk);
}

} // namespace

// The model server misbehaving in every way the suite knows, against the real `sandcastle chat
// --json` with its own data folder: each fault ends in a clear error (or a recovery), the
// conversation so far is saved and the store intact, and nothing hangs. (tst_formatfaults does
// the same for the Responses and Messages formats.)
class TestModelFaults : public QObject
{
    Q_OBJECT

    Sandcastle::Testing::FaultChat m_faults;

    Outcome chat(const QString &baseUrl, int timeoutMs = 120000)
    {
        return m_faults.chat(baseUrl, {}, timeoutMs);
    }

    void httpError(const QString &name,
                   int status,
                   const QByteArray &body,
                   const QString &code,
                   const QString &messagePart)
    {
        SecurityCase c(SecurityCase::Kind::Fault, name);
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueError(status, body);
        const Outcome o = chat(server.baseUrl());
        FaultChat::expectError(c, o, code, messagePart);
        QCOMPARE(server.requests().size(), 1); // not retried
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariable("SANDCASTLE_BINARY").isEmpty(),
                 "SANDCASTLE_BINARY is not set");
    }

    void cleanupTestCase() { SecurityCase::printTotals(); }

    void http401()
    {
        httpError(QStringLiteral("model server: 401"),
                  401,
                  "{\"error\":{\"message\":\"Incorrect API key provided\"}}",
                  QStringLiteral("auth"),
                  QStringLiteral("API key"));
    }

    void http403()
    {
        httpError(QStringLiteral("model server: 403"),
                  403,
                  "{\"error\":{\"message\":\"Project does not have access to model\"}}",
                  QStringLiteral("forbidden"),
                  QStringLiteral("does not have access"));
    }

    void http404UnknownModel()
    {
        httpError(QStringLiteral("model server: 404 model"),
                  404,
                  "{\"error\":{\"message\":\"The model does not exist\",\"code\":"
                  "\"model_not_found\"}}",
                  QStringLiteral("not_found"),
                  QStringLiteral("not found"));
    }

    void http429InsufficientQuota()
    {
        httpError(QStringLiteral("model server: 429 insufficient_quota"),
                  429,
                  "{\"error\":{\"message\":\"You exceeded your current quota\",\"code\":"
                  "\"insufficient_quota\"}}",
                  QStringLiteral("quota"),
                  QStringLiteral("quota"));
    }

    void http429WithRetryAfterIsWaitedOut()
    {
        SecurityCase c(SecurityCase::Kind::Fault, QStringLiteral("model server: 429 Retry-After"));
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueError(
            429, "{\"error\":{\"message\":\"Rate limit reached\"}}", {{"retry-after", "1"}});
        server.enqueueText(QStringLiteral("It is 42."));
        const Outcome o = chat(server.baseUrl());
        FaultChat::expectAnswer(o, QStringLiteral("It is 42."));
        const auto retries = o.ofType("retry");
        QCOMPARE(retries.size(), 1);
        QCOMPARE(retries.first().value("delay_ms", 0), 1000);
        QVERIFY(o.elapsedMs >= 1000);
        c.note(QStringLiteral("waited the 1 s Retry-After, then answered; store intact"));
    }

    void http500GivesUpAfterTwoRetries()
    {
        SecurityCase c(SecurityCase::Kind::Fault, QStringLiteral("model server: 500"));
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        for (int i = 0; i < 3; ++i)
            server.enqueueError(
                500, "{\"error\":{\"message\":\"internal failure\"}}", {{"retry-after-ms", "20"}});
        const Outcome o = chat(server.baseUrl());
        FaultChat::expectError(
            c, o, QStringLiteral("server_error"), QStringLiteral("internal failure"), 2);
        QCOMPARE(o.ofType("retry").size(), 2);
        QCOMPARE(server.requests().size(), 3);
    }

    void http503IsRetriedAndRecovers()
    {
        SecurityCase c(SecurityCase::Kind::Fault, QStringLiteral("model server: 503"));
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueError(
            503, "{\"error\":{\"message\":\"overloaded\"}}", {{"retry-after-ms", "50"}});
        server.enqueueText(QStringLiteral("Back: 42."));
        const Outcome o = chat(server.baseUrl());
        FaultChat::expectAnswer(o, QStringLiteral("Back: 42."));
        QCOMPARE(o.ofType("retry").size(), 1);
        c.note(QStringLiteral("retried once after 50 ms, then answered; store intact"));
    }

    void connectionRefused()
    {
        SecurityCase c(SecurityCase::Kind::Fault,
                       QStringLiteral("model server: connection refused"));
        // A loopback port that was free a moment ago: nothing listens there.
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        const quint16 port = probe.serverPort();
        probe.close();
        const Outcome o = chat(QStringLiteral("http://127.0.0.1:%1/v1").arg(port));
        FaultChat::expectError(c, o, QStringLiteral("network"), QStringLiteral("refused"), 2);
    }

    void resetMidStream()
    {
        SecurityCase c(SecurityCase::Kind::Fault, QStringLiteral("model server: reset mid-stream"));
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        Response r;
        r.writes = {sse(FakeOpenAiServer::textChunk(QStringLiteral("The answer is"))),
                    sse(FakeOpenAiServer::textChunk(QStringLiteral(" forty"))),
                    sse(FakeOpenAiServer::textChunk(QStringLiteral("-two")))};
        r.stallAfterWrites = 2;
        r.dropAfterStall = true;
        server.enqueue(r);
        const Outcome o = chat(server.baseUrl());
        FaultChat::expectError(c, o, QStringLiteral("incomplete"), QStringLiteral("answer"));
        QCOMPARE(server.requests().size(), 1); // bytes had arrived: not silently re-asked
    }

    void stallMidStream()
    {
        SecurityCase c(SecurityCase::Kind::Fault, QStringLiteral("model server: stall mid-stream"));
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        Response r;
        r.writes = {sse(FakeOpenAiServer::textChunk(QStringLiteral("Thinking"))),
                    sse(FakeOpenAiServer::textChunk(QStringLiteral(" more")))};
        r.stallAfterWrites = 1; // then silence, the connection left open
        server.enqueue(r);
        const Outcome o = chat(server.baseUrl());
        FaultChat::expectError(c, o, QStringLiteral("stalled"), QStringLiteral("3 s"));
        QVERIFY2(o.elapsedMs < 30000, qPrintable(FaultChat::describe(o)));
    }

    void malformedJsonChunk()
    {
        SecurityCase c(SecurityCase::Kind::Fault,
                       QStringLiteral("model server: malformed JSON chunk"));
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        Response r;
        r.writes = {sse(FakeOpenAiServer::textChunk(QStringLiteral("Hello"))),
                    QByteArray("data: {\"choices\":[{\"delta\":{\"content\":\"oops\"\n\n"),
                    QByteArray("data: [DONE]\n\n")};
        server.enqueue(r);
        const Outcome o = chat(server.baseUrl());
        FaultChat::expectError(c, o, QStringLiteral("bad_stream"), QStringLiteral("not JSON"));
    }

    void missingDone()
    {
        SecurityCase c(SecurityCase::Kind::Fault, QStringLiteral("model server: missing [DONE]"));
        // The stream just ends: no finish_reason and no [DONE] is a cut, not an answer.
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        Response r;
        r.writes = {sse(FakeOpenAiServer::textChunk(QStringLiteral("Half an ans")))};
        server.enqueue(r);
        const Outcome o = chat(server.baseUrl());
        FaultChat::expectError(c, o, QStringLiteral("incomplete"), QStringLiteral("ended before"));
    }

    void errorEventMidStream()
    {
        SecurityCase c(SecurityCase::Kind::Fault,
                       QStringLiteral("model server: error event mid-stream"));
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        Response r;
        r.writes = {sse(FakeOpenAiServer::textChunk(QStringLiteral("Let me"))),
                    QByteArray("event: error\ndata: {\"error\":{\"message\":\"upstream model "
                               "crashed\",\"type\":\"server_error\"}}\n\n")};
        server.enqueue(r);
        const Outcome o = chat(server.baseUrl());
        FaultChat::expectError(
            c, o, QStringLiteral("model_error"), QStringLiteral("upstream model crashed"));
    }

    void aFiftyMegabyteResponse()
    {
        SecurityCase c(SecurityCase::Kind::Fault, QStringLiteral("model server: a 50 MB response"));
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        Response r;
        const QByteArray piece
            = sse(FakeOpenAiServer::textChunk(QString(64 * 1024, QLatin1Char('z'))));
        const int pieces = int(50LL * 1024 * 1024 / piece.size()) + 1;
        r.writes.reserve(pieces + 2);
        for (int i = 0; i < pieces; ++i)
            r.writes << piece;
        r.writes << sse(FakeOpenAiServer::finishChunk(QStringLiteral("stop")))
                 << QByteArray("data: [DONE]\n\n");
        r.delayMs = 0;
        server.enqueue(r);
        const Outcome o = chat(server.baseUrl(), 300000);
        // Either way, a defined end with the data intact and a bounded time.
        QVERIFY2(o.exitCode == 0 || o.exitCode == 1, qPrintable(FaultChat::describe(o).left(2000)));
        QString why;
        QVERIFY2(FaultChat::dataIntact(o, QString(), &why), qPrintable(why));
        c.note(QStringLiteral("exit %1 (%2) after %3 ms; store intact")
                   .arg(o.exitCode)
                   .arg(o.exitCode == 0 ? QStringLiteral("answered") : o.errorMessage().left(90))
                   .arg(o.elapsedMs));
    }

    void unknownTool()
    {
        SecurityCase c(SecurityCase::Kind::Fault, QStringLiteral("model: unknown tool"));
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueToolCall(
            QStringLiteral("call_1"), QStringLiteral("delete_everything"), "{\"path\":\"/\"}");
        server.enqueueText(QStringLiteral("Sorry, 42."));
        const Outcome o = chat(server.baseUrl());
        FaultChat::expectAnswer(o, QStringLiteral("Sorry, 42."));
        QCOMPARE(server.requests().size(), 2);
        const QByteArray told = server.requests().at(1).body;
        QVERIFY2(told.contains("delete_everything") && told.contains("unknown tool"),
                 told.right(400).constData());
        // The --json stream closes the call too, as it does for runs.
        const auto results = o.ofType("tool_result");
        QCOMPARE(results.size(), 1);
        QCOMPARE(results.first().value("status", std::string()), std::string("error"));
        c.note(QStringLiteral("answered with an error tool result; the model went on"));
    }

    void argumentsThatAreNotJson()
    {
        SecurityCase c(SecurityCase::Kind::Fault, QStringLiteral("model: non-JSON arguments"));
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueToolCall(
            QStringLiteral("call_1"), QStringLiteral("run_python"), "print(6*7) # not JSON {");
        server.enqueueText(QStringLiteral("Fixed: 42."));
        const Outcome o = chat(server.baseUrl());
        FaultChat::expectAnswer(o, QStringLiteral("Fixed: 42."));
        const auto results = o.ofType("tool_result");
        QCOMPARE(results.size(), 1);
        QCOMPARE(results.first().value("status", std::string()), std::string("error"));
        QVERIFY(server.requests().at(1).body.contains("JSON"));
        c.note(QStringLiteral("nothing ran; an error tool result told the model why"));
    }

    void aPathArgumentThatLeavesTheWorkspace()
    {
        SecurityCase c(SecurityCase::Kind::Fault,
                       QStringLiteral("model: read_file ../../etc/passwd"));
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueToolCall(QStringLiteral("call_1"),
                               QStringLiteral("read_file"),
                               "{\"path\":\"../../etc/passwd\"}");
        server.enqueueToolCall(
            QStringLiteral("call_2"), QStringLiteral("read_file"), "{\"path\":\"/etc/passwd\"}");
        server.enqueueText(QStringLiteral("Not allowed, fine."));
        const Outcome o = chat(server.baseUrl());
        FaultChat::expectAnswer(o, QStringLiteral("Not allowed, fine."));
        QCOMPARE(server.requests().size(), 3);
        const auto results = o.ofType("tool_result");
        QCOMPARE(results.size(), 2);
        for (const nlohmann::json &result : results)
            QCOMPARE(result.value("status", std::string()), std::string("error"));
        for (int i = 1; i < 3; ++i) {
            const QByteArray told = server.requests().at(i).body;
            QVERIFY(!told.contains("root:x:0:0"));
            QVERIFY2(told.contains("leaves the workspace") || told.contains("is absolute"),
                     told.right(400).constData());
        }
        c.note(QStringLiteral("both refused; no byte of /etc/passwd reached the model"));
    }

    void theKeyIsInNoFileTheFaultsLeft()
    {
        SecurityCase c(SecurityCase::Kind::Fault,
                       QStringLiteral("secrets: the API key in no file after the faults"));
        const auto &dirs = m_faults.dataDirs();
        QVERIFY(!dirs.isEmpty());
        int files = 0;
        for (const auto &dir : dirs) {
            QCOMPARE(filesContaining(dir->path(), FaultChat::kKey), QStringList());
            files += int(filesContaining(dir->path(), QByteArray()).size());
        }
        c.note(QStringLiteral("%1 files of %2 data folders searched").arg(files).arg(dirs.size()));
    }
};

QTEST_GUILESS_MAIN(TestModelFaults)
#include "tst_modelfaults.moc"
