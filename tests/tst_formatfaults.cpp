#include <support/fakeopenaiserver.h>
#include <support/fakestreams.h>
#include <support/faultchat.h>

using namespace Sandcastle;
using Sandcastle::Testing::FakeFormat;
using Sandcastle::Testing::FakeOpenAiServer;
using Sandcastle::Testing::FakeTurn;
using Sandcastle::Testing::FaultChat;
using Sandcastle::Testing::SecurityCase;

namespace {

using Response = FakeOpenAiServer::Response;
using Outcome = FaultChat::Outcome;

struct Format
{
    QString api; // chat --api
    QString name;
    FakeFormat fake;
};

const QList<Format> &formats()
{
    static const QList<Format> all{
        {QStringLiteral("responses"), QStringLiteral("Responses"), FakeFormat::Responses},
        {QStringLiteral("messages"), QStringLiteral("Messages"), FakeFormat::Messages}};
    return all;
}

// An error body as each provider writes it.
QByteArray errorBody(FakeFormat format, const char *type, const char *message)
{
    if (format == FakeFormat::Messages)
        return QByteArray("{\"type\":\"error\",\"error\":{\"type\":\"") + type + "\",\"message\":\""
               + message + "\"}}";
    return QByteArray("{\"error\":{\"message\":\"") + message + "\",\"type\":\"" + type
           + "\",\"code\":null}}";
}

FakeTurn answer(const QString &text)
{
    FakeTurn turn;
    turn.text = text;
    return turn;
}

} // namespace

// The model-server faults of tst_modelfaults, spoken in OpenAI's Responses and Anthropic's
// Messages formats: the real `sandcastle chat --json --api FORMAT` against the fake server.
// Each fault ends in the right class of error (or a recovery) with the conversation intact,
// and counts in the security suite's faults.
class TestFormatFaults : public QObject
{
    Q_OBJECT

    FaultChat m_faults;

    static void addFormats()
    {
        QTest::addColumn<QString>("api");
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("fake");
        for (const Format &f : formats())
            QTest::newRow(qPrintable(f.api)) << f.api << f.name << int(f.fake);
    }

    static QString caseName(const QString &fault)
    {
        QFETCH(QString, name);
        return QStringLiteral("model server (%1): %2").arg(name, fault);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariable("SANDCASTLE_BINARY").isEmpty(),
                 "SANDCASTLE_BINARY is not set");
    }

    void cleanupTestCase() { SecurityCase::printTotals(); }

    void http401_data() { addFormats(); }
    void http401()
    {
        QFETCH(QString, api);
        QFETCH(int, fake);
        SecurityCase c(SecurityCase::Kind::Fault, caseName(QStringLiteral("401")));
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueError(
            401,
            fake == int(FakeFormat::Messages)
                ? errorBody(FakeFormat::Messages, "authentication_error", "invalid x-api-key")
                : errorBody(FakeFormat::Responses, "invalid_request_error", "Incorrect API key"));
        const Outcome o = m_faults.chat(server.baseUrl(), api);
        FaultChat::expectError(c, o, QStringLiteral("auth"), QStringLiteral("401"));
        QCOMPARE(server.requests().size(), 1);
        // Each format's endpoint, and its way of sending the key.
        const FakeOpenAiServer::Request request = server.requests().first();
        if (fake == int(FakeFormat::Messages)) {
            QCOMPARE(request.path, QByteArray("/v1/messages"));
            QCOMPARE(request.headers.value("x-api-key"), FaultChat::kKey);
            QVERIFY(!request.headers.value("anthropic-version").isEmpty());
            QVERIFY(!request.headers.contains("authorization"));
        } else {
            QCOMPARE(request.path, QByteArray("/v1/responses"));
            QCOMPARE(request.headers.value("authorization"), "Bearer " + FaultChat::kKey);
        }
    }

    void http429WithRetryAfterIsWaitedOut_data() { addFormats(); }
    void http429WithRetryAfterIsWaitedOut()
    {
        QFETCH(QString, api);
        QFETCH(int, fake);
        SecurityCase c(SecurityCase::Kind::Fault, caseName(QStringLiteral("429 retry-after")));
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueError(429,
                            errorBody(FakeFormat(fake), "rate_limit_error", "Rate limit reached"),
                            {{"retry-after", "1"}});
        server.enqueueTurn(answer(QStringLiteral("It is 42.")));
        const Outcome o = m_faults.chat(server.baseUrl(), api);
        FaultChat::expectAnswer(o, QStringLiteral("It is 42."));
        const auto retries = o.ofType("retry");
        QCOMPARE(retries.size(), 1);
        QCOMPARE(retries.first().value("delay_ms", 0), 1000);
        QVERIFY(o.elapsedMs >= 1000);
        QCOMPARE(server.requests().size(), 2);
        c.note(QStringLiteral("waited the 1 s retry-after, then answered; store intact"));
    }

    void http529Overloaded_data() { addFormats(); }
    void http529Overloaded()
    {
        QFETCH(QString, api);
        QFETCH(int, fake);
        SecurityCase c(SecurityCase::Kind::Fault, caseName(QStringLiteral("529 overloaded")));
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        for (int i = 0; i < 3; ++i)
            server.enqueueError(529,
                                errorBody(FakeFormat(fake), "overloaded_error", "Overloaded"),
                                {{"retry-after-ms", "20"}});
        const Outcome o = m_faults.chat(server.baseUrl(), api);
        // Busy for everyone: asked again twice, then a clear "overloaded", not a key problem.
        FaultChat::expectError(c, o, QStringLiteral("overloaded"), QStringLiteral("overloaded"), 2);
        QCOMPARE(o.ofType("retry").size(), 2);
        QCOMPARE(server.requests().size(), 3);
    }

    void errorEventMidStream_data() { addFormats(); }
    void errorEventMidStream()
    {
        QFETCH(QString, api);
        QFETCH(int, fake);
        SecurityCase c(SecurityCase::Kind::Fault,
                       caseName(QStringLiteral("error event mid-stream")));
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        Response r;
        r.writes = renderTurn(answer(QStringLiteral("Let me think about it")), FakeFormat(fake))
                       .mid(0, 3);
        r.writes << renderStreamError(QStringLiteral("upstream model crashed"), FakeFormat(fake));
        server.enqueue(r);
        const Outcome o = m_faults.chat(server.baseUrl(), api);
        // Anthropic's mid-stream error names its type (overloaded_error here); OpenAI's is a
        // server error. Neither is asked again: part of the answer had arrived.
        FaultChat::expectError(c,
                               o,
                               fake == int(FakeFormat::Messages) ? QStringLiteral("overloaded")
                                                                 : QStringLiteral("model_error"),
                               QStringLiteral("upstream model crashed"));
        QCOMPARE(server.requests().size(), 1);
    }

    void truncatedStream_data() { addFormats(); }
    void truncatedStream()
    {
        QFETCH(QString, api);
        QFETCH(int, fake);
        SecurityCase c(SecurityCase::Kind::Fault, caseName(QStringLiteral("truncated stream")));
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        // The stream stops before response.completed / message_stop: a cut, not an answer.
        Response r;
        const QList<QByteArray> whole
            = renderTurn(answer(QStringLiteral("The answer is forty-two")), FakeFormat(fake));
        r.writes = whole.mid(0, whole.size() - 2);
        server.enqueue(r);
        const Outcome o = m_faults.chat(server.baseUrl(), api);
        FaultChat::expectError(c, o, QStringLiteral("incomplete"), QStringLiteral("ended before"));
        QCOMPARE(server.requests().size(), 1);
    }

    void malformedEvent_data() { addFormats(); }
    void malformedEvent()
    {
        QFETCH(QString, api);
        QFETCH(int, fake);
        SecurityCase c(SecurityCase::Kind::Fault, caseName(QStringLiteral("malformed event")));
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        Response r;
        r.writes = renderTurn(answer(QStringLiteral("Hello")), FakeFormat(fake)).mid(0, 2);
        r.writes << (fake == int(FakeFormat::Messages)
                         ? QByteArray("event: content_block_delta\ndata: {\"type\":\"content_block_"
                                      "delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\","
                                      "\"text\":\"oo\n\n")
                         : QByteArray("event: response.output_text.delta\ndata: {\"type\":"
                                      "\"response.output_text.delta\",\"delta\":\"oo\n\n"));
        server.enqueue(r);
        const Outcome o = m_faults.chat(server.baseUrl(), api);
        FaultChat::expectError(c, o, QStringLiteral("bad_stream"), QStringLiteral("not JSON"));
    }

    void theKeyIsInNoFileTheFaultsLeft()
    {
        QVERIFY(!m_faults.dataDirs().isEmpty());
        for (const auto &dir : m_faults.dataDirs())
            QCOMPARE(Sandcastle::Testing::DataChecks::filesContaining(dir->path(), FaultChat::kKey),
                     QStringList());
    }
};

QTEST_GUILESS_MAIN(TestFormatFaults)
#include "tst_formatfaults.moc"
