#include <app/agent/tools.h>

#include <QtTest>

using namespace Sandcastle;

class TestTools : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void offersRunPythonWithARequiredCodeArgument()
    {
        const nlohmann::json tools = Tools::definitions();
        QVERIFY(tools.is_array());
        QCOMPARE(tools.size(), size_t(5));
        QCOMPARE(tools[0]["function"]["name"].get<std::string>(), std::string("run_python"));
        QCOMPARE(tools[0]["function"]["parameters"]["required"][0].get<std::string>(),
                 std::string("code"));
    }

    void parsesCodeAndTimeout()
    {
        const auto call
            = Tools::parseCall(QStringLiteral("run_python"),
                               QStringLiteral("{\"code\":\"print(1)\",\"timeout_s\":2.5}"));
        QVERIFY(call);
        QCOMPARE(call.value().code, QStringLiteral("print(1)"));
        QCOMPARE(call.value().timeoutMs, 2500);
        QCOMPARE(Tools::parseCall(QStringLiteral("run_python"),
                                  QStringLiteral("{\"code\":\"x\",\"timeout_s\":-1}"))
                     .value()
                     .timeoutMs,
                 -1);
    }

    void refusesBrokenArgumentsWithAClearMessage()
    {
        const auto notJson = Tools::parseCall(QStringLiteral("run_python"),
                                              QStringLiteral("{\"code\": \"unterminated"));
        QVERIFY(!notJson);
        QVERIFY(notJson.error().contains(QStringLiteral("not a JSON object")));
        const auto noCode
            = Tools::parseCall(QStringLiteral("run_python"), QStringLiteral("{\"source\": \"x\"}"));
        QVERIFY(!noCode);
        QVERIFY(noCode.error().contains(QStringLiteral("\"code\"")));
    }

    void clipsTheMiddleOfLongOutput()
    {
        QString text;
        for (int i = 0; i < 1000; ++i)
            text += QStringLiteral("line %1\n").arg(i);
        const QString clipped = Tools::clipMiddle(text, 200);
        QVERIFY(clipped.size() < 300);
        QVERIFY(clipped.startsWith(QStringLiteral("line 0\n")));
        QVERIFY(clipped.endsWith(QStringLiteral("line 999\n")));
        QVERIFY(clipped.contains(QStringLiteral("characters left out")));
        QCOMPARE(Tools::clipMiddle(QStringLiteral("short"), 200), QStringLiteral("short"));
    }

    void resultJsonCarriesTheContractFields()
    {
        ExecutionResult result;
        result.status = ExecutionResult::Status::Timeout;
        result.exitCode = 124;
        result.durationMs = 1234;
        result.stdoutText = QString(20000, QLatin1Char('x'));
        result.files = {QStringLiteral("out.csv")};
        const nlohmann::json json = Tools::resultJson(result);
        for (const char *key : {"status",
                                "exit_code",
                                "stdout",
                                "stderr",
                                "error",
                                "files",
                                "duration_ms",
                                "truncated"})
            QVERIFY2(json.contains(key), key);
        QCOMPARE(json["status"].get<std::string>(), std::string("timeout"));
        QCOMPARE(json["exit_code"].get<int>(), 124);
        QCOMPARE(json["files"][0].get<std::string>(), std::string("out.csv"));
        QCOMPARE(json["truncated"].get<bool>(), true);
        QVERIFY(json["stdout"].get<std::string>().size() < 13000);
    }
};

QTEST_GUILESS_MAIN(TestTools)
#include "tst_tools.moc"
