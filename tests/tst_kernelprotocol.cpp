#include <sandbox/kernelprotocol.h>

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace Sandcastle;

class TestKernelProtocol : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void encodesARunRequestAsOneJsonLine()
    {
        const QByteArray line
            = KernelProtocol::encodeRun(7, QStringLiteral("print('a')\nprint(\"é\")"));
        QVERIFY(line.endsWith('\n'));
        QCOMPARE(line.count('\n'), 1);
        const QJsonObject obj = QJsonDocument::fromJson(line).object();
        QCOMPARE(obj.value(QStringLiteral("op")).toString(), QStringLiteral("run"));
        QCOMPARE(obj.value(QStringLiteral("id")).toInt(), 7);
        QCOMPARE(obj.value(QStringLiteral("code")).toString(),
                 QStringLiteral("print('a')\nprint(\"é\")"));
    }

    void asksForAFileReportAndAQuotaWatchOnlyInCopyMode()
    {
        const QJsonObject plain
            = QJsonDocument::fromJson(KernelProtocol::encodeRun(1, QStringLiteral("1"))).object();
        QVERIFY(!plain.contains(QStringLiteral("files")));
        QVERIFY(!plain.contains(QStringLiteral("quota")));
        const QJsonObject run
            = QJsonDocument::fromJson(KernelProtocol::encodeRun(2, QStringLiteral("1"), {true, 0}))
                  .object();
        QCOMPARE(run.value(QStringLiteral("files")).toBool(), true);
        QVERIFY(!run.contains(QStringLiteral("quota")));
        const QJsonObject shell
            = QJsonDocument::fromJson(KernelProtocol::encodeShell(3,
                                                                  QStringLiteral("ls"),
                                                                  {true, 5LL * 1024 * 1024 * 1024}))
                  .object();
        QCOMPARE(shell.value(QStringLiteral("op")).toString(), QStringLiteral("shell"));
        QCOMPARE(shell.value(QStringLiteral("files")).toBool(), true);
        QCOMPARE(shell.value(QStringLiteral("quota")).toInteger(), 5LL * 1024 * 1024 * 1024);
    }

    void readsAQuotaEvent()
    {
        const KernelEvent event = KernelProtocol::parseLine(
            QByteArrayLiteral("{\"ev\":\"quota\",\"id\":9,\"bytes\":70000000}"));
        QCOMPARE(event.type, KernelEvent::Type::Quota);
        QCOMPARE(event.id, 9);
        QCOMPARE(event.bytes, 70000000);
    }

    void readsWhatTheBackgroundImportsDid()
    {
        const KernelEvent event = KernelProtocol::parseLine(QByteArrayLiteral(
            "{\"ev\":\"preimported\",\"ok\":[\"numpy\",\"pandas\"],\"failed\":[\"nope\"],"
            "\"ms\":812}"));
        QCOMPARE(event.type, KernelEvent::Type::Preimported);
        QCOMPARE(event.imported, QStringList({QStringLiteral("numpy"), QStringLiteral("pandas")}));
        QCOMPARE(event.failed, QStringList{QStringLiteral("nope")});
        QCOMPARE(event.ms, 812);
        // Junk in the lists is no crash: what is not a string reads as empty.
        const KernelEvent odd = KernelProtocol::parseLine(
            QByteArrayLiteral("{\"ev\":\"preimported\",\"ok\":7,\"failed\":[null]}"));
        QCOMPARE(odd.type, KernelEvent::Type::Preimported);
        QVERIFY(odd.imported.isEmpty());
        QCOMPARE(odd.failed, QStringList{QString()});
    }

    void aReportedNameWithHalfASurrogateGetsAReplacementCharacter()
    {
        const KernelEvent event = KernelProtocol::parseLine(QByteArrayLiteral(
            "{\"ev\":\"files\",\"id\":1,\"changed\":[[\"bad-\\udcff.txt\",\"f\",3,1]],"
            "\"removed\":[\"gone-\\udcfe\"]}"));
        QCOMPARE(event.changed.size(), 1);
        QCOMPARE(event.changed.first().path, QStringLiteral("bad-\uFFFD.txt"));
        QCOMPARE(event.removed, QStringList{QStringLiteral("gone-\uFFFD")});
    }

    void readsAFileReportAndDropsMalformedEntries()
    {
        KernelProtocol protocol;
        const QList<KernelEvent> events = protocol.feed(QByteArrayLiteral(
            "{\"ev\":\"files\",\"id\":4,\"changed\":[[\"out/a.csv\",\"f\",12,1700000000],"
            "[\"out\",\"d\",4096,1700000000],[\"evil\",\"l\",7,1],[\"x\",\"fifo\",0,0],"
            "[\"short\",\"f\",1],[5,\"f\",1,1],\"junk\"],"
            "\"removed\":[\"old.txt\",7,\"line\\nbreak\"],\"overflow\":false}\n"
            "{\"ev\":\"files\",\"id\":5,\"changed\":[],\"removed\":[],\"overflow\":true}\n"));
        QCOMPARE(events.size(), 2);
        const KernelEvent &report = events.at(0);
        QCOMPARE(report.type, KernelEvent::Type::Files);
        QCOMPARE(report.id, 4);
        QCOMPARE(report.changed.size(), 3);
        QCOMPARE(report.changed.at(0).path, QStringLiteral("out/a.csv"));
        QCOMPARE(report.changed.at(0).type, 'f');
        QCOMPARE(report.changed.at(0).size, 12);
        QCOMPARE(report.changed.at(0).mtime, 1700000000);
        QCOMPARE(report.changed.at(1).type, 'd');
        QCOMPARE(report.changed.at(2).type, 'l');
        QCOMPARE(report.removed,
                 QStringList({QStringLiteral("old.txt"), QStringLiteral("line\nbreak")}));
        QVERIFY(!report.overflow);
        QCOMPARE(events.at(1).type, KernelEvent::Type::Files);
        QVERIFY(events.at(1).overflow);
        QVERIFY(events.at(1).changed.isEmpty());
    }

    void splitsEventsAcrossArbitraryReads()
    {
        const QByteArray stream = QByteArrayLiteral(
            "{\"ev\": \"ready\", \"pid\": 3}\n"
            "{\"ev\": \"out\", \"id\": 1, \"stream\": \"stderr\", \"text\": \"oops \\u2713\\n\"}\n"
            "{\"ev\": \"done\", \"id\": 1, \"status\": \"error\", \"exit_code\": 3, \"error\": "
            "\"Trace\"}\n");
        KernelProtocol protocol;
        QList<KernelEvent> events;
        for (qsizetype i = 0; i < stream.size(); i += 5)
            events += protocol.feed(stream.mid(i, 5));
        QVERIFY(!protocol.hasPartialLine());
        QCOMPARE(events.size(), 3);
        QCOMPARE(events.at(0).type, KernelEvent::Type::Ready);
        QCOMPARE(events.at(1).type, KernelEvent::Type::Output);
        QCOMPARE(events.at(1).stream, OutputStream::Stderr);
        QCOMPARE(events.at(1).text, QStringLiteral("oops ✓\n"));
        QCOMPARE(events.at(2).type, KernelEvent::Type::Done);
        QCOMPARE(events.at(2).status, QStringLiteral("error"));
        QCOMPARE(events.at(2).exitCode, 3);
        QCOMPARE(events.at(2).error, QStringLiteral("Trace"));
    }

    void multiByteCharactersSplitAcrossReadsComeOutWhole()
    {
        // The kernel sends UTF-8 as is; a pipe read may end inside any character.
        const QByteArray line
            = QStringLiteral(
                  "{\"ev\":\"out\",\"id\":1,\"stream\":\"stdout\",\"text\":\"é✓😀 done\"}\n")
                  .toUtf8();
        for (qsizetype cut = 1; cut < line.size(); ++cut) {
            KernelProtocol protocol;
            QList<KernelEvent> events = protocol.feed(line.left(cut));
            events += protocol.feed(line.mid(cut));
            QCOMPARE(events.size(), 1);
            QCOMPARE(events.first().text, QStringLiteral("é✓😀 done"));
        }
    }

    void halfASurrogatePairBecomesAReplacementCharacter()
    {
        // Found by fuzz_kernelprotocol: a "\ud800" escape gave text that is not valid UTF-16.
        KernelProtocol protocol;
        const auto events = protocol.feed(
            "{\"ev\":\"out\",\"id\":1,\"text\":\"a\\ud800b \\ud83d\\ude00 \\udc00\"}\n"
            "{\"ev\":\"done\",\"id\":1,\"status\":\"error\",\"error\":\"\\udbff\"}\n");
        QCOMPARE(events.size(), 2);
        QCOMPARE(events.at(0).text, QStringLiteral("a\uFFFDb 😀 \uFFFD"));
        QVERIFY(events.at(0).text.isValidUtf16());
        QCOMPARE(events.at(1).error, QStringLiteral("\uFFFD"));
    }

    void encodesShellAndInterruptRequests()
    {
        const QJsonObject shell
            = QJsonDocument::fromJson(KernelProtocol::encodeShell(3, QStringLiteral("ls -l")))
                  .object();
        QCOMPARE(shell.value(QStringLiteral("op")).toString(), QStringLiteral("shell"));
        QCOMPARE(shell.value(QStringLiteral("command")).toString(), QStringLiteral("ls -l"));
        const QJsonObject interrupt
            = QJsonDocument::fromJson(KernelProtocol::encodeInterrupt()).object();
        QCOMPARE(interrupt.value(QStringLiteral("op")).toString(), QStringLiteral("interrupt"));
    }

    void outputFramesCarryRawBytesHoweverTheyAreRead()
    {
        // Bytes that would need escaping in JSON, a newline and a NUL among them.
        const QByteArray raw("line one\n{\"ev\":\"done\"}\n\x00tab\there \xc3\xa9\n", 35);
        const QByteArray stream = KernelProtocol::encodeOutput(3, OutputStream::Stdout, raw)
                                  + KernelProtocol::encodeOutput(3, OutputStream::Stderr, "err")
                                  + "{\"ev\":\"done\",\"id\":3,\"status\":\"ok\"}\n";
        for (qsizetype step = 1; step <= stream.size(); ++step) {
            KernelProtocol protocol;
            QList<KernelEvent> events;
            for (qsizetype at = 0; at < stream.size(); at += step)
                events += protocol.feed(stream.mid(at, step));
            QString out;
            QString err;
            for (const KernelEvent &e : std::as_const(events)) {
                if (e.type == KernelEvent::Type::Output)
                    (e.stream == OutputStream::Stderr ? err : out) += e.text;
            }
            QCOMPARE(out, QString::fromUtf8(raw));
            QCOMPARE(err, QStringLiteral("err"));
            QCOMPARE(events.last().type, KernelEvent::Type::Done);
            QVERIFY(!protocol.hasPartialLine());
        }
    }

    void aCharacterCutBetweenFramesIsJoinedAndACutOneEndsAsReplacement()
    {
        KernelProtocol protocol;
        const QByteArray check = "\xe2\x9c\x93"; // ✓
        QList<KernelEvent> events = protocol.feed(
            KernelProtocol::encodeOutput(1, OutputStream::Stdout, "a" + check.left(1))
            + KernelProtocol::encodeOutput(1, OutputStream::Stdout, check.mid(1)));
        QString text;
        for (const KernelEvent &e : std::as_const(events))
            text += e.text;
        QCOMPARE(text, QStringLiteral("a\u2713"));
        // A run that ends inside a character: the stray bytes show as U+FFFD before done.
        events = protocol.feed(KernelProtocol::encodeOutput(1, OutputStream::Stdout, "b\xf0\x9f")
                               + "{\"ev\":\"done\",\"id\":1,\"status\":\"ok\"}\n");
        QCOMPARE(events.size(), 3);
        QCOMPARE(events.at(0).text, QStringLiteral("b"));
        QCOMPARE(events.at(1).type, KernelEvent::Type::Output);
        QVERIFY(events.at(1).text.contains(QChar::ReplacementCharacter));
        QCOMPARE(events.at(2).type, KernelEvent::Type::Done);
    }

    void aBadFrameHeaderIsInvalidAndAHugeOneIsRefused()
    {
        KernelProtocol protocol;
        const QList<KernelEvent> events
            = protocol.feed("#out x stdout 3\n#out 1 stdin 1\n#out 1 stdout 99999999999\n"
                            + KernelProtocol::encodeOutput(2, OutputStream::Stdout, "ok"));
        QCOMPARE(events.size(), 4);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(events.at(i).type, KernelEvent::Type::Invalid);
            QVERIFY(events.at(i).text.contains(QStringLiteral("bad output frame")));
        }
        QCOMPARE(events.at(3).text, QStringLiteral("ok"));
    }

    void reportsGarbageAsInvalidWithoutLosingLaterEvents()
    {
        KernelProtocol protocol;
        const auto events = protocol.feed(
            "not json\n{\"ev\":\"mystery\"}\n{\"ev\":\"done\",\"id\":2,\"status\":\"ok\"}\n");
        QCOMPARE(events.size(), 3);
        QCOMPARE(events.at(0).type, KernelEvent::Type::Invalid);
        QCOMPARE(events.at(1).type, KernelEvent::Type::Invalid);
        QCOMPARE(events.at(2).type, KernelEvent::Type::Done);
        QCOMPARE(events.at(2).exitCode, 0);
    }
};

QTEST_GUILESS_MAIN(TestKernelProtocol)
#include "tst_kernelprotocol.moc"
