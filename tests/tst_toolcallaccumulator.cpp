#include <app/llm/toolcallaccumulator.h>

#include <nlohmann/json.hpp>

#include <QtTest>

using Sandcastle::ToolCallAccumulator;
using json = nlohmann::json;

class TestToolCallAccumulator : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void joinsArgumentsStreamedInPieces()
    {
        ToolCallAccumulator acc;
        auto updates
            = acc.add(json::parse("[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\","
                                  "\"function\":{\"name\":\"run_python\",\"arguments\":\"\"}}]"));
        QCOMPARE(updates.size(), 1);
        QVERIFY(updates.first().started);
        for (const char *piece : {"{\"co", "de\": \"pri", "nt(1)\"}"})
            acc.add(json::array({{{"index", 0}, {"function", {{"arguments", piece}}}}}));
        const auto calls = acc.calls();
        QCOMPARE(calls.size(), 1);
        QCOMPARE(calls.first().id, QStringLiteral("call_1"));
        QCOMPARE(calls.first().name, QStringLiteral("run_python"));
        QCOMPARE(calls.first().arguments, QStringLiteral("{\"code\": \"print(1)\"}"));
    }

    void keepsParallelCallsApartByIndex()
    {
        ToolCallAccumulator acc;
        acc.add(json::parse("[{\"index\":0,\"id\":\"a\",\"function\":{\"name\":\"run_python\","
                            "\"arguments\":\"{\\\"code\\\":\"}},\n"
                            "                                "
                            "{\"index\":1,\"id\":\"b\",\"function\":{\"name\":\"run_python\","
                            "\"arguments\":\"{\\\"code\\\":\"}}]"));
        acc.add(json::parse("[{\"index\":1,\"function\":{\"arguments\":\"\\\"2\\\"}\"}}]"));
        acc.add(json::parse("[{\"index\":0,\"function\":{\"arguments\":\"\\\"1\\\"}\"}}]"));
        const auto calls = acc.calls();
        QCOMPARE(calls.size(), 2);
        QCOMPARE(calls.at(0).arguments, QStringLiteral("{\"code\":\"1\"}"));
        QCOMPARE(calls.at(1).id, QStringLiteral("b"));
        QCOMPARE(calls.at(1).arguments, QStringLiteral("{\"code\":\"2\"}"));
    }

    void callsWithoutIndexAreToldApartByTheirIds()
    {
        ToolCallAccumulator acc;
        acc.add(json::parse(
            "[{\"id\":\"x\",\"function\":{\"name\":\"run_python\",\"arguments\":\"{}\"}}]"));
        acc.add(json::parse("[{\"id\":\"y\",\"function\":{\"name\":\"run_python\",\"arguments\":\"{"
                            "\\\"code\\\":\\\"1\\\"}\"}}]"));
        const auto calls = acc.calls();
        QCOMPARE(calls.size(), 2);
        QCOMPARE(calls.at(0).id, QStringLiteral("x"));
        QCOMPARE(calls.at(1).id, QStringLiteral("y"));
    }

    void argumentsSentAsAnObjectAreKeptAsJsonText()
    {
        ToolCallAccumulator acc;
        acc.add(json::parse("[{\"index\":0,\"id\":\"o\",\"function\":{\"name\":\"run_python\","
                            "\"arguments\":{\"code\":\"x\"}}}]"));
        QCOMPARE(acc.calls().first().arguments, QStringLiteral("{\"code\":\"x\"}"));
    }

    void missingIdGetsOneAndGarbageIsIgnored()
    {
        ToolCallAccumulator acc;
        acc.add(json::parse("[{\"index\":0,\"function\":{\"name\":\"run_python\",\"arguments\":\"{}"
                            "\"}}, 5, \"x\", {\"index\":-3}]"));
        acc.add(json::parse("{\"not\":\"an array\"}"));
        const auto calls = acc.calls();
        QCOMPARE(calls.size(), 1);
        QCOMPARE(calls.first().id, QStringLiteral("call_0"));
    }
};

QTEST_GUILESS_MAIN(TestToolCallAccumulator)
#include "tst_toolcallaccumulator.moc"
