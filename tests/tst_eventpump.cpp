#include <app/llm/eventpump.h>
#include <support/testtimeouts.h>

#include <QElapsedTimer>
#include <QThread>
#include <QtTest>

using namespace Sandcastle;
using Sandcastle::Testing::kWaitMs;

// The pump hands a stream's events over a slice of time at a time, in order, and lets the event
// loop run between slices.
class TestEventPump : public QObject
{
    Q_OBJECT

    static QList<SseParser::Event> events(int from, int count)
    {
        QList<SseParser::Event> out;
        for (int i = from; i < from + count; ++i)
            out.append({QByteArrayLiteral("message"), QByteArray::number(i), QByteArray()});
        return out;
    }

private Q_SLOTS:
    void handlesWhatASliceAllowsThenGoesOnAtTheNextTurn()
    {
        QList<int> handled;
        EventPump pump([&](const SseParser::Event &event) {
            QThread::usleep(1000); // each event costs a millisecond
            handled.append(event.data.toInt());
            return true;
        });
        pump.push(events(0, 60));
        // One slice now: about SliceMs worth, far from all of it.
        QVERIFY2(!handled.isEmpty() && handled.size() <= EventPump::SliceMs + 2,
                 qPrintable(QString::number(handled.size())));
        QVERIFY(!pump.isEmpty());
        // What comes meanwhile goes behind what waits.
        pump.push(events(60, 20));
        bool drained = false;
        int handledWhenDrained = 0;
        pump.whenDrained([&] {
            drained = true;
            handledWhenDrained = int(handled.size());
        });
        // Between slices the event loop runs: a timer gets its turn before the end.
        bool timerRan = false;
        int handledWhenTimerRan = 0;
        QTimer::singleShot(0, this, [&] {
            timerRan = true;
            handledWhenTimerRan = int(handled.size());
        });
        QTRY_VERIFY_WITH_TIMEOUT(drained, kWaitMs);
        QVERIFY(timerRan);
        QVERIFY2(handledWhenTimerRan < 80, "the loop did not run between slices");
        QCOMPARE(handledWhenDrained, 80);
        QList<int> expected;
        for (int i = 0; i < 80; ++i)
            expected.append(i);
        QCOMPARE(handled, expected);
        QVERIFY(pump.isEmpty());
    }

    void whenDrainedRunsAtOnceWhenNothingWaits()
    {
        EventPump pump([](const SseParser::Event &) { return true; });
        bool ran = false;
        pump.whenDrained([&] { ran = true; });
        QVERIFY(ran);
    }

    void aHandlerThatEndsTheStreamDropsTheRest()
    {
        QList<int> handled;
        EventPump pump([&](const SseParser::Event &event) {
            QThread::usleep(1000);
            handled.append(event.data.toInt());
            return event.data.toInt() < 9; // the tenth event is an error
        });
        bool drained = false;
        pump.push(events(0, 100));
        QVERIFY(handled.size() < 10); // the first slice ends before the error
        pump.whenDrained([&] { drained = true; });
        // The rest of the ten, a millisecond each, over the next slices: waited for (a fixed
        // 50 ms could end first on a busy machine). Then nothing more comes.
        QTRY_COMPARE_WITH_TIMEOUT(handled.size(), 10, kWaitMs);
        QTest::qWait(50);
        QCOMPARE(handled.size(), 10);
        QVERIFY(pump.isEmpty());
        QVERIFY2(!drained, "an ended stream is not drained: what waited on it is dropped");
    }

    void clearDropsWhatWaitsAndWhatWaitedOnIt()
    {
        int handled = 0;
        EventPump pump([&](const SseParser::Event &) {
            QThread::usleep(1000);
            ++handled;
            return true;
        });
        pump.push(events(0, 50));
        bool drained = false;
        pump.whenDrained([&] { drained = true; });
        const int before = handled;
        pump.clear();
        QTest::qWait(50);
        QCOMPARE(handled, before);
        QVERIFY(!drained);
        // And it works again afterwards.
        pump.push(events(0, 3));
        QTRY_COMPARE_WITH_TIMEOUT(handled, before + 3, kWaitMs);
    }
};

QTEST_GUILESS_MAIN(TestEventPump)
#include "tst_eventpump.moc"
