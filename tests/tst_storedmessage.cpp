#include <app/store/conversationstore.h>
#include <app/store/storedmessage.h>

#include <QTemporaryDir>
#include <QtTest>

using namespace Sandcastle;

namespace {

// Every kind of message the agent writes, in the JSON the store has always kept.
nlohmann::json call(const char *id, const char *name, const char *arguments)
{
    return {
        {"id", id}, {"type", "function"}, {"function", {{"name", name}, {"arguments", arguments}}}};
}

nlohmann::json storedKinds()
{
    const nlohmann::json ok = {{"status", "ok"}, {"exit_code", 0}, {"stdout", "1\n"}};
    return nlohmann::json::array({
        {{"role", "user"}, {"content", "average of data.csv?"}},
        {{"role", "assistant"}, {"content", "Let me look."}, {"reasoning", "read the file first"}},
        {{"role", "assistant"},
         {"content", nullptr},
         {"reasoning", "two calls"},
         {"tool_calls",
          {call("c1", "run_python", "{\"code\": \"print(1)\"}"),
           call("c2", "read_file", "{\"path\": \"a.txt\"}")}}},
        {{"role", "tool"}, {"tool_call_id", "c1"}, {"content", ok.dump()}},
        {{"role", "tool"}, {"tool_call_id", "c2"}, {"content", "{\"status\":\"error\"}"}},
        {{"role", "assistant"},
         {"content", "Text beside a call."},
         {"tool_calls", {call("c3", "list_files", "{}")}}},
        // Code-block mode: the code is in the text, its output comes back as the person's.
        {{"role", "assistant"},
         {"content", "Running it:\n```python\nprint(sum([1, 2]))\n```"},
         {"reasoning", "blocks"}},
        {{"role", "user"}, {"content", "Output of your code:\n" + ok.dump()}},
        {{"role", "assistant"}, {"content", ""}},
        {{"role", "system"}, {"content", "You are Sandcastle."}},
    });
}

} // namespace

class TestStoredMessage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyKindOfStoredMessageComesBackTheSame()
    {
        for (const auto &stored : storedKinds()) {
            const Result<Message> message = fromStoreJson(stored);
            QVERIFY2(message, qPrintable(message.error()));
            QVERIFY2(toStoreJson(message.value()) == stored, stored.dump().c_str());
        }
    }

    void theFieldsLandWhereTheAgentLooksForThem()
    {
        const nlohmann::json kinds = storedKinds();
        const Message calls = fromStoreJson(kinds[2]).value();
        QVERIFY(calls.role == Message::Role::Assistant);
        QVERIFY(calls.text.isEmpty());
        QCOMPARE(calls.reasoning, QStringLiteral("two calls"));
        QCOMPARE(calls.toolCalls.size(), 2);
        QCOMPARE(calls.toolCalls[1].id, QStringLiteral("c2"));
        QCOMPARE(calls.toolCalls[1].name, QStringLiteral("read_file"));
        QCOMPARE(calls.toolCalls[1].arguments, QStringLiteral("{\"path\": \"a.txt\"}"));
        const Message result = fromStoreJson(kinds[3]).value();
        QVERIFY(result.role == Message::Role::Tool);
        QCOMPARE(result.toolCallId, QStringLiteral("c1"));
        QVERIFY(result.text.startsWith(QStringLiteral("{\"exit_code\":0")));
    }

    void messagesMadeByTheAgentAreStoredInTheOldShape()
    {
        const Message call = Message::assistant(
            QString(),
            QString(),
            {{QStringLiteral("c1"), QStringLiteral("run_python"), QStringLiteral("{}")}});
        const nlohmann::json json = toStoreJson(call);
        QVERIFY(json["content"].is_null());
        QVERIFY(!json.contains("reasoning")); // none given, none stored
        QCOMPARE(json["tool_calls"][0]["type"].get<std::string>(), std::string("function"));
        QCOMPARE(toStoreJson(Message::user(QStringLiteral("hi"))),
                 nlohmann::json({{"role", "user"}, {"content", "hi"}}));
        QCOMPARE(toStoreJson(Message::toolResult(QStringLiteral("c1"), QStringLiteral("{}"))),
                 nlohmann::json({{"role", "tool"}, {"tool_call_id", "c1"}, {"content", "{}"}}));
    }

    void whatTheStoreGivesBackConvertsToTheSameMessages()
    {
        // Through SQLite and back: the columns the store keeps carry every field.
        QTemporaryDir dir;
        ConversationStore store;
        QVERIFY(store.open(dir.filePath(QStringLiteral("s.sqlite3"))));
        QVERIFY(store.create(QStringLiteral("conv"), QStringLiteral("t"), dir.path(), false));
        QList<Message> written;
        for (const auto &stored : storedKinds()) {
            written << fromStoreJson(stored).value();
            QVERIFY(store.addMessage(QStringLiteral("conv"), toStoreJson(written.last())));
        }
        const nlohmann::json read = store.messages(QStringLiteral("conv")).value();
        QCOMPARE(qsizetype(read.size()), written.size());
        for (qsizetype i = 0; i < written.size(); ++i) {
            QVERIFY2(fromStoreJson(read[size_t(i)]).value() == written[i],
                     read[size_t(i)].dump().c_str());
        }
    }

    void aMessageWithoutAKnownRoleIsRefused()
    {
        QVERIFY(!fromStoreJson({{"content", "x"}}));
        QVERIFY(!fromStoreJson({{"role", "developer"}, {"content", "x"}}));
        QVERIFY(!fromStoreJson(nlohmann::json::array({1, 2})));
    }
};

QTEST_GUILESS_MAIN(TestStoredMessage)
#include "tst_storedmessage.moc"
