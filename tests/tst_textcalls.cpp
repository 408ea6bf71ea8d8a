#include <app/agent/textcalls.h>

#include <nlohmann/json.hpp>

#include <QtTest>

using namespace Sandcastle;

class TestTextCalls : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void findsPythonBlocksInOrderAndSkipsOtherLanguages()
    {
        const QString text
            = QStringLiteral("Let me compute it.\n```python\nx = 2\nprint(x * 21)\n```\nand then\n"
                             "```bash\nls\n```\n```py\nprint('second')\n```\n```\nplain\n```\n```"
                             "Python3\nprint(3)\n```");
        const QStringList blocks = extractPythonBlocks(text);
        QCOMPARE(blocks,
                 (QStringList{QStringLiteral("x = 2\nprint(x * 21)"),
                              QStringLiteral("print('second')"),
                              QStringLiteral("print(3)")}));
    }

    void anAnswerWithoutBlocksHasNone()
    {
        QVERIFY(extractPythonBlocks(QStringLiteral("The answer is 42.")).isEmpty());
        QVERIFY(extractPythonBlocks(QStringLiteral("```python\n\n```")).isEmpty());
        QVERIFY(extractPythonBlocks(QStringLiteral("unterminated ```python\nprint(1)")).isEmpty());
    }

    void recoversAToolCallPrintedAsJson_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("plain") << QStringLiteral(
            "{\"name\": \"run_python\", \"arguments\": {\"code\": \"print(1)\"}}");
        QTest::newRow("fenced") << QStringLiteral(
            "```json\n{\"name\": \"run_python\", \"arguments\": {\"code\": \"print(1)\"}}\n```");
        QTest::newRow("parameters") << QStringLiteral(
            "  {\"name\": \"run_python\", \"parameters\": {\"code\": \"print(1)\"}}\n");
        QTest::newRow("string args") << QStringLiteral(
            "{\"name\": \"run_python\", \"arguments\": \"{\\\"code\\\": \\\"print(1)\\\"}\"}");
        QTest::newRow("wrapped") << QStringLiteral(
            "{\"type\": \"function\", \"function\": {\"name\": \"run_python\", \"arguments\": "
            "{\"code\": \"print(1)\"}}}");
    }

    void recoversAToolCallPrintedAsJson()
    {
        QFETCH(QString, text);
        const auto call = toolCallFromText(text, {QStringLiteral("run_python")});
        QVERIFY(call);
        QCOMPARE(call->name, QStringLiteral("run_python"));
        const auto args = nlohmann::json::parse(call->arguments.toStdString());
        QCOMPARE(args["code"].get<std::string>(), std::string("print(1)"));
    }

    void leavesOrdinaryAnswersAlone()
    {
        const QStringList tools{QStringLiteral("run_python")};
        QVERIFY(!toolCallFromText(QStringLiteral("The result is {\"a\": 1}."), tools));
        QVERIFY(
            !toolCallFromText(QStringLiteral("{\"name\": \"rm_rf\", \"arguments\": {}}"), tools));
        QVERIFY(!toolCallFromText(QStringLiteral("{\"name\": \"run_python\"}"), tools));
        QVERIFY(!toolCallFromText(QStringLiteral("{not json}"), tools));
        QVERIFY(!toolCallFromText(QString(), tools));
    }
};

QTEST_GUILESS_MAIN(TestTextCalls)
#include "tst_textcalls.moc"
