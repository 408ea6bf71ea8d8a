#include <app/llm/chatclient.h>
#include <support/fakeopenaiserver.h>

#include <QSignalSpy>
#include <QtTest>

using namespace Sandcastle;
using Sandcastle::Testing::FakeOpenAiServer;

class TestChatClient : public QObject
{
    Q_OBJECT

    static ClientConfig configFor(const FakeOpenAiServer &server)
    {
        ClientConfig config;
        config.baseUrl = QUrl(server.baseUrl());
        config.apiKey = QStringLiteral("sk-test");
        config.model = QStringLiteral("fake-model");
        return config;
    }

    static nlohmann::json userMessage(const char *text)
    {
        return nlohmann::json::array({{{"role", "user"}, {"content", text}}});
    }

private Q_SLOTS:
    void streamsTextAndPostsAStreamingRequest()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueText(QStringLiteral("The average is 3.0."), 3);
        ChatClient client(configFor(server));
        QSignalSpy deltas(&client, &ChatClient::textDelta);
        QSignalSpy finished(&client, &ChatClient::finished);
        client.send(userMessage("hi"), nlohmann::json::array());
        QVERIFY(finished.wait(10000));
        QVERIFY(deltas.size() > 3); // streamed in pieces, not at the end
        QString joined;
        for (const auto &args : deltas)
            joined += args.at(0).toString();
        QCOMPARE(joined, QStringLiteral("The average is 3.0."));
        const auto completion = finished.first().at(0).value<ChatCompletion>();
        QCOMPARE(completion.content, joined);
        QCOMPARE(completion.finishReason, QStringLiteral("stop"));
        QCOMPARE(completion.promptTokens, 42);

        QCOMPARE(server.requests().size(), 1);
        const auto &request = server.requests().first();
        QCOMPARE(request.method, QByteArray("POST"));
        QCOMPARE(request.path, QByteArray("/v1/chat/completions"));
        QCOMPARE(request.headers.value("authorization"), QByteArray("Bearer sk-test"));
        const auto body = nlohmann::json::parse(request.body.toStdString());
        QCOMPARE(body["stream"].get<bool>(), true);
        QCOMPARE(body["model"].get<std::string>(), std::string("fake-model"));
        QCOMPARE(body["messages"][0]["content"].get<std::string>(), std::string("hi"));
    }

    void reassemblesAToolCallSplitAcrossManyChunks()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        const QByteArray args
            = "{\"code\": \"numbers = [1, 2, 3, 4, 5]; print(sum(numbers) / len(numbers))\"}";
        server.enqueueToolCall(QStringLiteral("call_abc"), QStringLiteral("run_python"), args, 5);
        ChatClient client(configFor(server));
        QSignalSpy started(&client, &ChatClient::toolCallStarted);
        QSignalSpy pieces(&client, &ChatClient::toolArgumentsDelta);
        QSignalSpy finished(&client, &ChatClient::finished);
        client.send(userMessage("avg"), nlohmann::json::array());
        QVERIFY(finished.wait(10000));
        QCOMPARE(started.size(), 1);
        QCOMPARE(started.first().at(1).toString(), QStringLiteral("call_abc"));
        QCOMPARE(started.first().at(2).toString(), QStringLiteral("run_python"));
        QVERIFY(pieces.size() >= args.size() / 5);
        const auto completion = finished.first().at(0).value<ChatCompletion>();
        QCOMPARE(completion.toolCalls.size(), 1);
        QCOMPARE(completion.toolCalls.first().arguments, QString::fromUtf8(args));
        QCOMPARE(completion.finishReason, QStringLiteral("tool_calls"));
    }

    void httpErrorsBecomeAClearMessage()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueError(401, "{\"error\":{\"message\":\"Incorrect API key provided\"}}");
        ChatClient client(configFor(server));
        QSignalSpy errors(&client, &ChatClient::errorOccurred);
        QSignalSpy finished(&client, &ChatClient::finished);
        client.send(userMessage("x"), nlohmann::json::array());
        QVERIFY(errors.wait(10000));
        QCOMPARE(errors.first().at(0).toString(), QStringLiteral("auth"));
        QVERIFY(
            errors.first().at(1).toString().contains(QStringLiteral("Incorrect API key provided")));
        QVERIFY(errors.first().at(1).toString().contains(QStringLiteral("401")));
        QCOMPARE(finished.size(), 0);
    }

    void anUnreachableServerIsANetworkError()
    {
        quint16 port = 0;
        {
            FakeOpenAiServer closed; // take a free port, then close it again
            QVERIFY(closed.listen());
            port = closed.port();
        }
        ClientConfig config;
        config.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:%1/v1").arg(port));
        config.model = QStringLiteral("m");
        ChatClient client(config);
        QSignalSpy errors(&client, &ChatClient::errorOccurred);
        client.send(userMessage("x"), nlohmann::json::array());
        QVERIFY(errors.wait(10000));
        QCOMPARE(errors.first().at(0).toString(), QStringLiteral("network"));
        QVERIFY(errors.first().at(1).toString().contains(QStringLiteral("cannot reach")));
    }

    void aStreamCutShortIsNotTakenAsAnAnswer()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        FakeOpenAiServer::Response response;
        response.writes << FakeOpenAiServer::sseEvent(
            "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"half an "
            "ans\"},\"finish_reason\":null}]}");
        server.enqueue(response);
        ChatClient client(configFor(server));
        QSignalSpy errors(&client, &ChatClient::errorOccurred);
        QSignalSpy finished(&client, &ChatClient::finished);
        client.send(userMessage("x"), nlohmann::json::array());
        QVERIFY(errors.wait(10000));
        QCOMPARE(errors.first().at(0).toString(), QStringLiteral("incomplete"));
        QCOMPARE(finished.size(), 0);
    }

    void garbageInTheStreamIsReportedNotSwallowed()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        FakeOpenAiServer::Response response;
        response.writes << QByteArray("data: {not json\n\n");
        server.enqueue(response);
        ChatClient client(configFor(server));
        QSignalSpy errors(&client, &ChatClient::errorOccurred);
        client.send(userMessage("x"), nlohmann::json::array());
        QVERIFY(errors.wait(10000));
        QCOMPARE(errors.first().at(0).toString(), QStringLiteral("bad_stream"));
    }

    void readsReasoningFromEitherFieldName()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        FakeOpenAiServer::Response response;
        response.writes << FakeOpenAiServer::sseEvent(
            "{\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"think \"}}]}")
                        << FakeOpenAiServer::sseEvent(
                               "{\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\"more\"}}]}")
                        << FakeOpenAiServer::sseEvent(
                               "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},\"finish_"
                               "reason\":\"stop\"}]}")
                        << FakeOpenAiServer::sseEvent("[DONE]");
        server.enqueue(response);
        ChatClient client(configFor(server));
        QSignalSpy finished(&client, &ChatClient::finished);
        client.send(userMessage("x"), nlohmann::json::array());
        QVERIFY(finished.wait(10000));
        const auto completion = finished.first().at(0).value<ChatCompletion>();
        QCOMPARE(completion.reasoning, QStringLiteral("think more"));
        QCOMPARE(completion.content, QStringLiteral("ok"));
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
