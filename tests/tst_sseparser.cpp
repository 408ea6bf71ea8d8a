#include <base/sseparser.h>

#include <QtTest>

using Sandcastle::SseParser;

class TestSseParser : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parsesOneEventPerBlankLine()
    {
        SseParser parser;
        const auto events = parser.feed("data: {\"a\":1}\n\ndata: [DONE]\n\n");
        QCOMPARE(events.size(), 2);
        QCOMPARE(events.at(0).data, QByteArray("{\"a\":1}"));
        QCOMPARE(events.at(0).event, QByteArray("message"));
        QCOMPARE(events.at(1).data, QByteArray("[DONE]"));
    }

    void reassemblesEventsSplitAtEveryByte()
    {
        const QByteArray stream = "event: delta\r\ndata: hello\r\ndata: world\r\n\r\n: "
                                  "keep-alive\r\n\r\ndata:x\r\n\r\n";
        SseParser parser;
        QList<SseParser::Event> events;
        for (char c : stream)
            events += parser.feed(QByteArray(1, c));
        QCOMPARE(events.size(), 2);
        QCOMPARE(events.at(0).event, QByteArray("delta"));
        QCOMPARE(events.at(0).data, QByteArray("hello\nworld"));
        QCOMPARE(events.at(1).data, QByteArray("x"));
    }

    void handlesBareCarriageReturnsAndCrlfSplitAcrossReads()
    {
        SseParser parser;
        auto events = parser.feed("data: a\r");
        events += parser.feed("\ndata: b\r\r");
        QCOMPARE(events.size(), 1);
        QCOMPARE(events.at(0).data, QByteArray("a\nb"));
    }

    void ignoresCommentsAndUnknownFields()
    {
        SseParser parser;
        const auto events = parser.feed(": ping\nretry: 100\nfoo: bar\n\ndata: ok\n\n");
        QCOMPARE(events.size(), 1);
        QCOMPARE(events.at(0).data, QByteArray("ok"));
    }

    void blockWithoutDataDispatchesNothing()
    {
        SseParser parser;
        QVERIFY(parser.feed("event: ping\n\n").isEmpty());
        const auto events = parser.feed("data: next\n\n");
        QCOMPARE(events.size(), 1);
        QCOMPARE(events.at(0).event, QByteArray("message")); // the name does not leak
    }

    void finishFlushesAnEventWithoutTrailingBlankLine()
    {
        SseParser parser;
        QVERIFY(parser.feed("data: tail").isEmpty());
        const auto events = parser.finish();
        QCOMPARE(events.size(), 1);
        QCOMPARE(events.at(0).data, QByteArray("tail"));
    }

    void keepsMultiByteUtf8Intact()
    {
        const QByteArray stream = QStringLiteral("data: {\"t\":\"héllo ✓ 😀\"}\n\n").toUtf8();
        SseParser parser;
        QList<SseParser::Event> events;
        for (qsizetype i = 0; i < stream.size(); i += 3)
            events += parser.feed(stream.mid(i, 3));
        QCOMPARE(events.size(), 1);
        QCOMPARE(QString::fromUtf8(events.at(0).data), QStringLiteral("{\"t\":\"héllo ✓ 😀\"}"));
    }
};

QTEST_GUILESS_MAIN(TestSseParser)
#include "tst_sseparser.moc"
