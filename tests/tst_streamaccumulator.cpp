#include <app/llm/streamaccumulator.h>
#include <support/chunkcorpus.h>
#include <support/streamdescribe.h>

#include <QtTest>

using namespace Sandcastle;
using Sandcastle::Testing::describe;

// The fast chunk reader must agree with the JSON DOM on everything; these are the cases where
// they could part ways.
class TestStreamAccumulator : public QObject
{
    Q_OBJECT

    // Feeds the same events to a fast and a DOM accumulator and compares every step.
    static void expectSameOnBothPaths(const QList<QByteArray> &chunks)
    {
        StreamAccumulator fast;
        StreamAccumulator dom;
        dom.setFastPath(false);
        for (const QByteArray &chunk : chunks) {
            const SseParser::Event event{QByteArrayLiteral("message"), chunk, {}};
            QCOMPARE(describe(fast.add(event)), describe(dom.add(event)));
        }
        QCOMPARE(describe(fast.completion()), describe(dom.completion()));
    }

private Q_SLOTS:
    void fastPathMatchesTheDom_data()
    {
        QTest::addColumn<QByteArray>("chunk");
        const auto chunks = Sandcastle::Testing::trickyChunks();
        for (const auto &[name, chunk] : chunks)
            QTest::newRow(name.constData()) << chunk;
    }

    void fastPathMatchesTheDom()
    {
        QFETCH(QByteArray, chunk);
        expectSameOnBothPaths({chunk});
    }

    void aWholeStreamComesOutTheSameOnBothPaths()
    {
        expectSameOnBothPaths(Sandcastle::Testing::wholeStream());
    }

    void cachedPromptTokensAreReadOnBothPaths()
    {
        for (const bool fastPath : {true, false}) {
            StreamAccumulator acc;
            acc.setFastPath(fastPath);
            acc.add({QByteArrayLiteral("message"),
                     QByteArrayLiteral("{\"usage\":{\"prompt_tokens\":90,\"completion_tokens\":5,"
                                       "\"prompt_tokens_details\":{\"cached_tokens\":64}}}"),
                     {}});
            const Usage usage = acc.completion().usage;
            QCOMPARE(usage.promptTokens, 90);
            QCOMPARE(usage.completionTokens, 5);
            QCOMPARE(usage.cachedPromptTokens, 64);
        }
        StreamAccumulator none;
        none.add({QByteArrayLiteral("message"),
                  QByteArrayLiteral("{\"usage\":{\"prompt_tokens\":9}}"),
                  {}});
        QCOMPARE(none.completion().usage.cachedPromptTokens, -1); // not said: unknown
    }

    void doneAndErrorEventsAreUnderstood()
    {
        StreamAccumulator acc;
        QVERIFY(!acc.isComplete());
        acc.add({QByteArrayLiteral("message"), QByteArrayLiteral("[DONE]"), {}});
        QVERIFY(acc.sawDone());
        const auto outcome = acc.add(
            {QByteArrayLiteral("error"), QByteArrayLiteral("{\"message\":\"overloaded\"}"), {}});
        QVERIFY(outcome.error);
        QVERIFY(outcome.error->message.contains(QStringLiteral("overloaded")));
    }
};

QTEST_GUILESS_MAIN(TestStreamAccumulator)
#include "tst_streamaccumulator.moc"
