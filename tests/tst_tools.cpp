#include <app/agent/toolregistry.h>
#include <app/agent/tools.h>
#include <sandbox/sandboxconfig.h>

#include <QtTest>

using namespace Sandcastle;

namespace {
// A call of a built-in sandbox tool, checked as the agent checks it.
Result<SandboxRun> sandboxRunOf(const QString &name, const QString &argumentsJson)
{
    const Result<nlohmann::json> arguments = parseToolArguments(name, argumentsJson);
    if (!arguments)
        return Result<SandboxRun>::failure(arguments.error());
    return ToolRegistry::withBuiltIns().find(name)->sandboxRun(arguments.value());
}
} // namespace

class TestTools : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void offersRunPythonWithARequiredCodeArgument()
    {
        const QList<ToolSpec> tools = ToolRegistry::withBuiltIns().specs();
        QCOMPARE(tools.size(), 7);
        QCOMPARE(tools[0].name, QStringLiteral("run_python"));
        QCOMPARE(tools[0].parameters["required"][0].get<std::string>(), std::string("code"));
    }

    void parsesCodeAndTimeout()
    {
        const auto call = sandboxRunOf(QStringLiteral("run_python"),
                                       QStringLiteral("{\"code\":\"print(1)\",\"timeout_s\":2.5}"));
        QVERIFY(call);
        QCOMPARE(call.value().code, QStringLiteral("print(1)"));
        QCOMPARE(call.value().timeoutMs, 2500);
        QCOMPARE(sandboxRunOf(QStringLiteral("run_python"),
                              QStringLiteral("{\"code\":\"x\",\"timeout_s\":-1}"))
                     .value()
                     .timeoutMs,
                 -1);
    }

    void refusesBrokenArgumentsWithAClearMessage()
    {
        const auto notJson = sandboxRunOf(QStringLiteral("run_python"),
                                          QStringLiteral("{\"code\": \"unterminated"));
        QVERIFY(!notJson);
        QVERIFY(notJson.error().contains(QStringLiteral("not a JSON object")));
        const auto noCode
            = sandboxRunOf(QStringLiteral("run_python"), QStringLiteral("{\"source\": \"x\"}"));
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
        result.stdoutText = QString(40000, QLatin1Char('x'));
        result.logFile = QStringLiteral(".sandcastle/run-3.log");
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
        const size_t sent = json["stdout"].get<std::string>().size();
        QVERIFY2(sent > 16000 && sent < 16500, std::to_string(sent).c_str());
        QCOMPARE(json["full_output"].get<std::string>(), std::string(".sandcastle/run-3.log"));
        QVERIFY(!json.contains("workspace_note"));
    }

    void theAgentIsToldWhyTheWorkspaceIsReadOnly()
    {
        ExecutionResult result;
        result.status = ExecutionResult::Status::Error;
        result.error = QStringLiteral("OSError: [Errno 30] Read-only file system: 'out.csv'");
        result.workspaceNote = SandboxConfig::folderAccess(0, 0, 1000).reason;
        const nlohmann::json json = Tools::resultJson(result);
        const std::string note = json["workspace_note"].get<std::string>();
        QVERIFY2(note.find("read-only") != std::string::npos
                     && note.find("owned by root") != std::string::npos,
                 note.c_str());
    }

    void theOutputLimitIsASettingThatKeepsHeadAndTail()
    {
        ExecutionResult result;
        result.stdoutText
            = QStringLiteral("HEAD") + QString(5000, QLatin1Char('.')) + QStringLiteral("TAIL");
        result.stderrText = QString(5000, QLatin1Char('e'));
        const nlohmann::json json = Tools::resultJson(result, 1000);
        const QString out = QString::fromStdString(json["stdout"].get<std::string>());
        QVERIFY(out.startsWith(QStringLiteral("HEAD")));
        QVERIFY(out.endsWith(QStringLiteral("TAIL")));
        QVERIFY(out.contains(QStringLiteral("characters left out")));
        QVERIFY(out.size() < 1100);
        QVERIFY(json["stderr"].get<std::string>().size() < 600);
        QVERIFY(json["truncated"].get<bool>());
        QVERIFY(!json.contains("full_output")); // no log to point at
        // Short output is not touched and not marked.
        ExecutionResult small;
        small.stdoutText = QStringLiteral("4\n");
        const nlohmann::json plain = Tools::resultJson(small, 1000);
        QCOMPARE(plain["stdout"].get<std::string>(), std::string("4\n"));
        QVERIFY(!plain["truncated"].get<bool>());
    }
};

QTEST_GUILESS_MAIN(TestTools)
#include "tst_tools.moc"
