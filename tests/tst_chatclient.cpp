#include <app/llm/httpmodelclient.h>
#include <support/fakeopenaiserver.h>
#include <support/testtimeouts.h>

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest>

#include <functional>
#include <memory>

using namespace Sandcastle;
using Sandcastle::Testing::FakeOpenAiServer;
using Sandcastle::Testing::kLongWaitMs;
using Sandcastle::Testing::kWaitMs;
using Response = FakeOpenAiServer::Response;

// Waits until expr holds or the time is up (QTRY_VERIFY would return from a non-void function).
#define WAIT_UNTIL(expr, timeoutMs)                                                                \
    do {                                                                                           \
        QElapsedTimer waited_;                                                                     \
        waited_.start();                                                                           \
        while (!(expr) && waited_.elapsed() < (timeoutMs))                                         \
            QTest::qWait(10);                                                                      \
    } while (false)

namespace {

QByteArray sse(const QByteArray &json)
{
    return FakeOpenAiServer::sseEvent(json);
}

// One request from a real HttpModelClient to the fake server, watched from start to end.
struct Exchange
{
    FakeOpenAiServer server;
    std::unique_ptr<HttpModelClient> client;
    std::unique_ptr<QSignalSpy> deltas, finished, errors, retrying;

    Exchange()
    {
        server.listen();
        ClientConfig config;
        config.baseUrl = QUrl(server.baseUrl());
        config.apiKey = QStringLiteral("sk-test");
        config.model = QStringLiteral("fake-model");
        client = std::make_unique<HttpModelClient>(config);
        client->retryPolicy().initialDelayMs = 20;
        deltas = std::make_unique<QSignalSpy>(client.get(), &HttpModelClient::textDelta);
        finished = std::make_unique<QSignalSpy>(client.get(), &HttpModelClient::finished);
        errors = std::make_unique<QSignalSpy>(client.get(), &HttpModelClient::errorOccurred);
        retrying = std::make_unique<QSignalSpy>(client.get(), &HttpModelClient::retrying);
    }

    void configure(const std::function<void(ClientConfig &)> &change)
    {
        ClientConfig config = client->config();
        change(config);
        client->setConfig(config);
    }

    void send() { client->send({Message::user(QStringLiteral("hi"))}, {}); }

    // Sends and waits for the end; true when exactly one of finished/error arrived.
    bool run(int timeoutMs = kWaitMs)
    {
        send();
        WAIT_UNTIL(finished->size() + errors->size() > 0, timeoutMs);
        QTest::qWait(50); // nothing may follow the end
        return finished->size() + errors->size() == 1;
    }

    Completion completion() const { return finished->first().at(0).value<Completion>(); }
    QString errorCode() const
    {
        return errors->isEmpty() ? QString() : errors->first().at(0).toString();
    }
    QString errorMessage() const
    {
        return errors->isEmpty() ? QString() : errors->first().at(1).toString();
    }
    QString text() const
    {
        QString joined;
        for (const auto &args : *deltas)
            joined += args.at(0).toString();
        return joined;
    }
};

} // namespace

class TestChatClient : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void streamsTextAndPostsAStreamingRequest()
    {
        Exchange x;
        x.server.enqueueText(QStringLiteral("The average is 3.0."), 3);
        QVERIFY(x.run());
        QVERIFY(x.deltas->size() > 3); // streamed in pieces, not at the end
        QCOMPARE(x.text(), QStringLiteral("The average is 3.0."));
        QCOMPARE(x.completion().text, x.text());
        QCOMPARE(x.completion().finishReason, QStringLiteral("stop"));
        QCOMPARE(x.completion().usage.promptTokens, 42);
        QCOMPARE(x.completion().usage.completionTokens, 7);

        QCOMPARE(x.server.requests().size(), 1);
        const auto &request = x.server.requests().first();
        QCOMPARE(request.method, QByteArray("POST"));
        QCOMPARE(request.path, QByteArray("/v1/chat/completions"));
        QCOMPARE(request.headers.value("authorization"), QByteArray("Bearer sk-test"));
        const auto body = nlohmann::json::parse(request.body.toStdString());
        QCOMPARE(body["stream"].get<bool>(), true);
        QCOMPARE(body["stream_options"]["include_usage"].get<bool>(), true);
        QCOMPARE(body["model"].get<std::string>(), std::string("fake-model"));
        QCOMPARE(body["messages"][0]["content"].get<std::string>(), std::string("hi"));
    }

    void theRequestBodyPutsNeutralMessagesAndToolsInTheChatCompletionsShape()
    {
        ClientConfig config;
        config.model = QStringLiteral("m");
        const HttpModelClient client(config);
        const QList<Message> messages = {
            Message::system(QStringLiteral("sys")),
            Message::user(QStringLiteral("hi")),
            Message::assistant(QString(),
                               QStringLiteral("thinking"),
                               {{QStringLiteral("c1"),
                                 QStringLiteral("run_python"),
                                 QStringLiteral("{\"code\":\"1\"}")}}),
            Message::toolResult(QStringLiteral("c1"), QStringLiteral("{\"status\":\"ok\"}")),
            Message::assistant(QStringLiteral("One."), QStringLiteral("more thinking")),
        };
        const nlohmann::json schema = {{"type", "object"},
                                       {"properties", {{"code", {{"type", "string"}}}}},
                                       {"required", {"code"}}};
        const nlohmann::json body = client.requestBody(
            messages, {{QStringLiteral("run_python"), QStringLiteral("Runs code."), schema}});
        QCOMPARE(body["model"].get<std::string>(), std::string("m"));
        QCOMPARE(body["stream"].get<bool>(), true);
        QCOMPARE(body["stream_options"], nlohmann::json({{"include_usage", true}}));
        const nlohmann::json call
            = {{"id", "c1"},
               {"type", "function"},
               {"function", {{"name", "run_python"}, {"arguments", "{\"code\":\"1\"}"}}}};
        const nlohmann::json expected = nlohmann::json::array({
            {{"role", "system"}, {"content", "sys"}},
            {{"role", "user"}, {"content", "hi"}},
            {{"role", "assistant"}, {"content", nullptr}, {"tool_calls", {call}}},
            {{"role", "tool"}, {"tool_call_id", "c1"}, {"content", "{\"status\":\"ok\"}"}},
            {{"role", "assistant"}, {"content", "One."}},
        });
        QVERIFY2(body["messages"] == expected, body["messages"].dump().c_str()); // no reasoning
        QCOMPARE(body["tools"],
                 nlohmann::json::array({{{"type", "function"},
                                         {"function",
                                          {{"name", "run_python"},
                                           {"description", "Runs code."},
                                           {"parameters", schema}}}}}));
        QVERIFY(!client.requestBody(messages, {}).contains("tools")); // none: no field
    }

    void reassemblesAToolCallSplitAcrossManyChunks()
    {
        Exchange x;
        const QByteArray args
            = "{\"code\": \"numbers = [1, 2, 3, 4, 5]; print(sum(numbers) / len(numbers))\"}";
        x.server.enqueueToolCall(QStringLiteral("call_abc"), QStringLiteral("run_python"), args, 5);
        QSignalSpy started(x.client.get(), &HttpModelClient::toolCallStarted);
        QSignalSpy pieces(x.client.get(), &HttpModelClient::toolArgumentsDelta);
        QVERIFY(x.run());
        QCOMPARE(started.size(), 1);
        QCOMPARE(started.first().at(1).toString(), QStringLiteral("call_abc"));
        QCOMPARE(started.first().at(2).toString(), QStringLiteral("run_python"));
        QVERIFY(pieces.size() >= args.size() / 5);
        QCOMPARE(x.completion().toolCalls.size(), 1);
        QCOMPARE(x.completion().toolCalls.first().arguments, QString::fromUtf8(args));
        QCOMPARE(x.completion().finishReason, QStringLiteral("tool_calls"));
    }

    void readsReasoningFromEitherFieldNameApartFromTheAnswer()
    {
        Exchange x;
        Response response;
        response.writes << sse(
            "{\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"think \"}}]}")
                        << sse("{\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\"more\"}}]}")
                        << sse("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},"
                               "\"finish_reason\":\"stop\"}]}")
                        << sse("[DONE]");
        x.server.enqueue(response);
        QVERIFY(x.run());
        QCOMPARE(x.completion().reasoning, QStringLiteral("think more"));
        QCOMPARE(x.completion().text, QStringLiteral("ok"));
    }

    void httpErrorsBecomeAClearMessage()
    {
        Exchange x;
        x.server.enqueueError(401, "{\"error\":{\"message\":\"Incorrect API key provided\"}}");
        QVERIFY(x.run());
        QCOMPARE(x.errorCode(), QStringLiteral("auth"));
        QVERIFY(x.errorMessage().contains(QStringLiteral("Incorrect API key provided")));
        QVERIFY(x.errorMessage().contains(QStringLiteral("401")));
    }

    void anUnreachableServerIsRetriedThenANetworkError()
    {
        Exchange x;
        quint16 port = 0;
        {
            FakeOpenAiServer closed; // take a free port, then close it again
            QVERIFY(closed.listen());
            port = closed.port();
        }
        x.configure([port](ClientConfig &c) {
            c.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:%1/v1").arg(port));
        });
        QVERIFY(x.run());
        QCOMPARE(x.errorCode(), QStringLiteral("network"));
        QVERIFY(x.errorMessage().contains(QStringLiteral("Cannot reach")));
        QCOMPARE(x.retrying->size(), 2);
    }

    void aStreamCutShortIsNotTakenAsAnAnswer()
    {
        Exchange x;
        Response response;
        response.writes << sse("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"half an "
                               "ans\"},\"finish_reason\":null}]}");
        x.server.enqueue(response);
        QVERIFY(x.run());
        QCOMPARE(x.errorCode(), QStringLiteral("incomplete"));
        QVERIFY(x.errorMessage().contains(QStringLiteral("truncated")));
    }

    void garbageInTheStreamIsReportedNotSwallowed()
    {
        Exchange x;
        Response response;
        response.writes << QByteArray("data: {not json\n\n");
        x.server.enqueue(response);
        QVERIFY(x.run());
        QCOMPARE(x.errorCode(), QStringLiteral("bad_stream"));
    }

    void retriesA429HonouringRetryAfterThenSucceeds()
    {
        Exchange x;
        x.server.enqueueError(
            429, "{\"error\":{\"message\":\"slow down\"}}", {{"retry-after-ms", "300"}});
        x.server.enqueueText(QStringLiteral("after the wait"));
        QElapsedTimer clock;
        clock.start();
        QVERIFY(x.run());
        QVERIFY(clock.elapsed() >= 300);
        QCOMPARE(x.retrying->size(), 1);
        QCOMPARE(x.retrying->first().at(0).toInt(), 1);
        QCOMPARE(x.retrying->first().at(1).toInt(), 300);
        QVERIFY(x.retrying->first().at(2).toString().contains(QStringLiteral("429")));
        QCOMPARE(x.completion().text, QStringLiteral("after the wait"));
        QCOMPARE(x.server.requests().size(), 2);
        QCOMPARE(x.server.requests().at(0).body, x.server.requests().at(1).body);
    }

    void givesUpAfterTwoRetries()
    {
        Exchange x;
        for (int i = 0; i < 4; ++i)
            x.server.enqueueError(503, "{\"error\":{\"message\":\"overloaded\"}}");
        QVERIFY(x.run());
        QCOMPARE(x.retrying->size(), 2);
        QCOMPARE(x.server.requests().size(), 3);
        QCOMPARE(x.errorCode(), QStringLiteral("server_error"));
        QVERIFY(x.errorMessage().contains(QStringLiteral("overloaded")));
    }

    void neverRetriesInsufficientQuotaOrABadKey_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("quota")
            << 429
            << QByteArray("{\"error\":{\"message\":\"quota\",\"code\":\"insufficient_quota\"}}");
        QTest::newRow("key") << 401 << QByteArray("{\"error\":{\"message\":\"bad key\"}}");
        QTest::newRow("model") << 404 << QByteArray("{\"error\":{\"message\":\"no such model\"}}");
    }

    void neverRetriesInsufficientQuotaOrABadKey()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        Exchange x;
        x.server.enqueueError(status, body);
        x.server.enqueueText(QStringLiteral("must not be asked for"));
        QVERIFY(x.run());
        QCOMPARE(x.retrying->size(), 0);
        QCOMPARE(x.server.requests().size(), 1);
    }

    void xShouldRetryFalseStopsARetry()
    {
        Exchange x;
        x.server.enqueueError(503, "{}", {{"x-should-retry", "false"}});
        QVERIFY(x.run());
        QCOMPARE(x.retrying->size(), 0);
    }

    void waitsForASlowFirstByte()
    {
        Exchange x;
        Response delayed;
        delayed.firstByteDelayMs = 800;
        delayed.writes << sse(FakeOpenAiServer::textChunk(QStringLiteral("slow")))
                       << sse(FakeOpenAiServer::finishChunk(QStringLiteral("stop")))
                       << sse("[DONE]");
        x.server.enqueue(delayed);
        x.configure([](ClientConfig &c) { c.idleTimeoutMs = 3000; });
        QVERIFY(x.run());
        QCOMPARE(x.completion().text, QStringLiteral("slow"));
        QCOMPARE(x.retrying->size(), 0);
    }

    void aServerThatNeverAnswersIsRetriedThenReported()
    {
        Exchange x;
        for (int i = 0; i < 3; ++i) {
            Response silent;
            silent.firstByteDelayMs = 60000;
            x.server.enqueue(silent);
        }
        x.configure([](ClientConfig &c) { c.idleTimeoutMs = 300; });
        QVERIFY(x.run());
        QCOMPARE(x.errorCode(), QStringLiteral("timeout"));
        QCOMPARE(x.retrying->size(), 2);
    }

    void aStallMidStreamEndsWithAClearErrorAndNoRetry()
    {
        Exchange x;
        Response stalling;
        stalling.writes << sse(FakeOpenAiServer::textChunk(QStringLiteral("Half")))
                        << sse(FakeOpenAiServer::textChunk(QStringLiteral(" an answer")));
        stalling.stallAfterWrites = 2;
        x.server.enqueue(stalling);
        x.configure([](ClientConfig &c) { c.idleTimeoutMs = 400; });
        QVERIFY(x.run());
        QCOMPARE(x.errorCode(), QStringLiteral("stalled"));
        QCOMPARE(x.retrying->size(), 0);
        QCOMPARE(x.client->partial().text, QStringLiteral("Half an answer"));
    }

    void aDropAfterTheFirstBytesIsIncompleteNotRetried()
    {
        Exchange x;
        Response dropping;
        dropping.writes << sse(FakeOpenAiServer::textChunk(QStringLiteral("Hal")));
        dropping.stallAfterWrites = 1;
        dropping.dropAfterStall = true;
        x.server.enqueue(dropping);
        QVERIFY(x.run());
        QCOMPARE(x.errorCode(), QStringLiteral("incomplete"));
        QCOMPARE(x.retrying->size(), 0);
        QCOMPARE(x.server.requests().size(), 1);
    }

    void survivesCrlfKeepAlivesAndOneByteWrites()
    {
        Exchange x;
        Response response;
        response.writes << sse(FakeOpenAiServer::textChunk(QStringLiteral("héllo ✓ 😀")))
                        << sse(FakeOpenAiServer::toolCallChunk(
                               0,
                               QStringLiteral("t"),
                               QStringLiteral("run_python"),
                               QStringLiteral("{\"code\": \"print('é')\"}")))
                        << sse(FakeOpenAiServer::finishChunk(QStringLiteral("tool_calls")))
                        << sse("[DONE]");
        x.server.enqueue(response.withCrlfAndKeepAlives().byteByByte());
        QVERIFY(x.run(kLongWaitMs)); // a byte at a time
        QCOMPARE(x.completion().text, QStringLiteral("héllo ✓ 😀"));
        QCOMPARE(x.completion().toolCalls.size(), 1);
        QCOMPARE(x.completion().toolCalls.first().arguments,
                 QStringLiteral("{\"code\": \"print('é')\"}"));
    }

    void parallelToolCallsInterleavedAndIndexedFromOne()
    {
        Exchange x;
        Response response;
        response.writes << sse(FakeOpenAiServer::toolCallChunk(
            1, QStringLiteral("a"), QStringLiteral("run_python"), QStringLiteral("{\"code\":")))
                        << sse(FakeOpenAiServer::toolCallChunk(2,
                                                               QStringLiteral("b"),
                                                               QStringLiteral("run_python"),
                                                               QStringLiteral("{\"code\":")))
                        << sse(FakeOpenAiServer::toolCallChunk(
                               2, QString(), QString(), QStringLiteral("\"2\"}")))
                        << sse("{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[]}}]}")
                        << sse(FakeOpenAiServer::toolCallChunk(
                               1, QString(), QString(), QStringLiteral("\"1\"}")))
                        << sse(FakeOpenAiServer::finishChunk(QStringLiteral("tool_calls")))
                        << sse(FakeOpenAiServer::usageChunk()) << sse("[DONE]");
        x.server.enqueue(response);
        QVERIFY(x.run());
        const auto calls = x.completion().toolCalls;
        QCOMPARE(calls.size(), 2);
        QCOMPARE(calls.at(0).id, QStringLiteral("a"));
        QCOMPARE(calls.at(0).arguments, QStringLiteral("{\"code\":\"1\"}"));
        QCOMPARE(calls.at(1).id, QStringLiteral("b"));
        QCOMPARE(calls.at(1).arguments, QStringLiteral("{\"code\":\"2\"}"));
    }

    void errorsMidStreamAreReported_data()
    {
        QTest::addColumn<QByteArray>("errorEvent");
        QTest::newRow("event: error")
            << QByteArray("event: error\ndata: {\"message\":\"backend crashed\"}\n\n");
        QTest::newRow("error object") << sse("{\"error\":{\"message\":\"backend crashed\"}}");
    }

    void errorsMidStreamAreReported()
    {
        QFETCH(QByteArray, errorEvent);
        Exchange x;
        Response response;
        response.writes << sse(FakeOpenAiServer::textChunk(QStringLiteral("partial"))) << errorEvent
                        << sse("[DONE]");
        x.server.enqueue(response);
        QVERIFY(x.run());
        QCOMPARE(x.errorCode(), QStringLiteral("model_error"));
        QVERIFY(x.errorMessage().contains(QStringLiteral("backend crashed")));
    }

    void cancelKeepsThePartialAnswerAndSilencesTheClient()
    {
        Exchange x;
        Response response;
        for (int i = 0; i < 50; ++i)
            response.writes << sse(FakeOpenAiServer::textChunk(QStringLiteral("w%1 ").arg(i)));
        response.writes << sse(FakeOpenAiServer::finishChunk(QStringLiteral("stop")))
                        << sse("[DONE]");
        response.delayMs = 20;
        x.server.enqueue(response);
        x.send();
        QTRY_VERIFY_WITH_TIMEOUT(x.deltas->size() >= 3, kWaitMs);
        x.client->cancel();
        const int seen = int(x.deltas->size());
        QVERIFY(x.client->partial().text.startsWith(QStringLiteral("w0 w1 w2 ")));
        QVERIFY(!x.client->isBusy());
        QTest::qWait(500);
        QCOMPARE(int(x.deltas->size()), seen);
        QCOMPARE(x.finished->size(), 0);
        QCOMPARE(x.errors->size(), 0);
    }

    // A whole answer in one write (the UI thread was busy while it came, or the server sent it
    // at once): thousands of events, handled a slice at a time (tst_eventpump), every one in
    // order, and the end only after the last of them; a listener that cancels midway silences
    // the rest.
    void aBurstOfEventsIsHandledInSlicesInOrder()
    {
        Exchange x;
        Response response;
        QByteArray all;
        const int count = 6000;
        for (int i = 0; i < count; ++i)
            all += sse(FakeOpenAiServer::textChunk(QStringLiteral("w%1 ").arg(i)));
        all += sse(FakeOpenAiServer::finishChunk(QStringLiteral("stop"))) + sse("[DONE]");
        response.writes << all;
        x.server.enqueue(response);
        x.send();
        QTRY_VERIFY_WITH_TIMEOUT(x.finished->size() == 1, kWaitMs);
        QCOMPARE(int(x.deltas->size()), count);
        for (int i = 0; i < count; ++i)
            QCOMPARE(x.deltas->at(i).at(0).toString(), QStringLiteral("w%1 ").arg(i));
        QCOMPARE(x.finished->first().at(0).value<Completion>().text.size(),
                 x.client->partial().text.size());

        // Cancelled from a listener in the middle of a burst: not one event more.
        Exchange y;
        y.server.enqueue(response);
        connect(y.client.get(), &HttpModelClient::textDelta, this, [&](const QString &text) {
            if (text == QLatin1String("w100 "))
                y.client->cancel();
        });
        y.send();
        QTRY_VERIFY_WITH_TIMEOUT(y.deltas->size() >= 101, kWaitMs);
        QTest::qWait(300);
        QCOMPARE(int(y.deltas->size()), 101);
        QCOMPARE(y.finished->size(), 0);
        QCOMPARE(y.errors->size(), 0);
    }

    void theBaseUrlMayEndWithASlash()
    {
        QCOMPARE(chatCompletionsUrl(QUrl(QStringLiteral("http://h:1/v1/"))).toString(),
                 QStringLiteral("http://h:1/v1/chat/completions"));
        QCOMPARE(
            chatCompletionsUrl(QUrl(QStringLiteral("http://h:1/v1/chat/completions"))).toString(),
            QStringLiteral("http://h:1/v1/chat/completions"));
    }
};

QTEST_GUILESS_MAIN(TestChatClient)
#include "tst_chatclient.moc"
