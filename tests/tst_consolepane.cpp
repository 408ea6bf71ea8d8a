#include <ui/console/consolepane.h>

#include <QScrollBar>
#include <QTemporaryDir>
#include <QtTest>

using namespace Sandcastle;

// The console widget over the ANSI parser: what a person sees of a run's output.
class TestConsolePane : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theConsoleShowsProgressBarsAndColoursAsATerminalWould()
    {
        ConsolePane console;
        console.appendOutput(OutputStream::Stdout, QStringLiteral("\x1b[32mok\x1b[0m\n"));
        console.appendOutput(OutputStream::Stdout, QStringLiteral("progress 10%\rprogress 50%"));
        console.appendOutput(OutputStream::Stdout, QStringLiteral("\rprogress 100%\n"));
        QCOMPARE(console.toPlainText(), QStringLiteral("ok\nprogress 100%\n"));
    }

    void eachRunEndsWithItsOutcomeSpelledOut()
    {
        ConsolePane console;
        ExecutionResult result;
        result.status = ExecutionResult::Status::Timeout;
        result.durationMs = 60012;
        console.beginRun(QStringLiteral("run 1"));
        console.endRun(result);
        result.status = ExecutionResult::Status::OutOfMemory;
        result.durationMs = 120;
        result.truncated = true;
        result.logFile = QStringLiteral(".sandcastle/run-2.log");
        console.beginRun(QStringLiteral("run 2"));
        console.endRun(result);
        result = ExecutionResult();
        result.status = ExecutionResult::Status::Error;
        result.exitCode = 3;
        result.error = QStringLiteral("Traceback: \u202eevil");
        console.beginRun(QStringLiteral("run 3"));
        console.endRun(result);
        console.flush();
        const QString text = console.toPlainText();
        QVERIFY2(text.contains(QStringLiteral("stopped: the time limit was reached in 60.0 s")),
                 qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("killed: out of memory in 120 ms · full output in "
                                             ".sandcastle/run-2.log")));
        QVERIFY(text.contains(QStringLiteral("Traceback: <U+202E>evil")));
        QVERIFY(text.contains(QStringLiteral("failed (exit code 3)")));
    }

    void aFloodIsPaintedASliceAtATimeAndOnlyWhatTheScrollbackHolds()
    {
        ConsolePane console;
        console.setScrollback(1000);
        console.beginRun(QStringLiteral("flood"));
        QString chunk;
        for (int i = 0; i < 5000; ++i)
            chunk += QStringLiteral("line %1\n").arg(i);
        for (int n = 0; n < 4; ++n) // 20,000 lines in batches as big as a flood makes them
            console.appendOutput(OutputStream::Stdout, chunk);
        QVERIFY(console.toPlainText().size() < 200000); // not all painted at once
        console.flush();
        QVERIFY(console.document()->blockCount() <= 1001);
        QVERIFY(console.toPlainText().contains(QStringLiteral("not shown here")));
        QVERIFY(console.toPlainText().endsWith(QStringLiteral("line 4999\n")));
    }

    void aFloodOfLongLinesKeepsMegabytesNotTheScrollbackTimesTheLineLength()
    {
        ConsolePane console; // the default scrollback: 20,000 lines
        console.beginRun(QStringLiteral("long lines"));
        const QString line = QString(1023, QLatin1Char('y')) + QLatin1Char('\n');
        // 24 MB of 1 KiB lines, painted as they come: the document never holds them all.
        for (int batch = 0; batch < 24; ++batch) {
            QString chunk = line.repeated(1023);
            chunk += QStringLiteral("batch %1 ends\n").arg(batch);
            console.appendOutput(OutputStream::Stdout, chunk);
            console.flush();
            // Bounded within a batch and the tenth the line count may drift by.
            QVERIFY(console.document()->characterCount()
                    <= ConsolePane::kMaxKeptChars * 5 / 4 + 1024 * 1024);
        }
        QVERIFY(console.toPlainText().endsWith(QStringLiteral("batch 23 ends\n")));
        QVERIFY(console.document()->blockCount() < 20000 / 2);
        // Short lines are still kept by the line: 20,000 of them fit in the bound.
        console.beginRun(QStringLiteral("short lines"));
        QString shortLines;
        for (int i = 0; i < 19000; ++i)
            shortLines += QStringLiteral("row %1\n").arg(i);
        console.appendOutput(OutputStream::Stdout, shortLines);
        console.flush();
        QVERIFY(console.toPlainText().contains(QStringLiteral("\nrow 0\n")));
        QVERIFY(console.toPlainText().endsWith(QStringLiteral("row 18999\n")));
    }

    void aHugeLineIsShownUpToTheLimitWithANoteOfTheRest()
    {
        // 3 million characters on one line, in pieces as the sandbox sends them, then a line
        // of its own: laying out all of it froze the window for minutes.
        ConsolePane console;
        console.beginRun(QStringLiteral("huge"));
        const QString piece(100000, QLatin1Char('y'));
        for (int i = 0; i < 30; ++i)
            console.appendOutput(OutputStream::Stdout, piece);
        console.appendOutput(OutputStream::Stdout, QStringLiteral("\nnext line\n"));
        console.flush();
        const QStringList lines = console.toPlainText().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 4); // header, the huge line, "next line", ""
        const QString huge = lines.at(1);
        QVERIFY(huge.startsWith(QString(ConsolePane::kMaxLineChars, QLatin1Char('y'))
                                + QStringLiteral(" [")));
        QVERIFY2(huge.contains(QLocale().toString(3000000 - ConsolePane::kMaxLineChars)),
                 qPrintable(huge.right(100)));
        QCOMPARE(lines.at(2), QStringLiteral("next line"));
        // A progress bar redrawing its line starts counting again.
        console.appendOutput(OutputStream::Stdout,
                             QString(ConsolePane::kMaxLineChars, QLatin1Char('a'))
                                 + QStringLiteral("\r") + QStringLiteral("done\n"));
        console.flush();
        QVERIFY(console.toPlainText().endsWith(QStringLiteral("next line\ndone\n")));
    }

    void theEndStaysInViewWhenAWideLineBringsTheHorizontalScrollBar()
    {
        ConsolePane console;
        console.resize(300, 200);
        console.show();
        QVERIFY(QTest::qWaitForWindowExposed(&console));
        auto atEnd = [&] {
            QApplication::processEvents();
            return console.verticalScrollBar()->value() == console.verticalScrollBar()->maximum()
                   && console.verticalScrollBar()->maximum() > 0;
        };
        for (int i = 0; i < 40; ++i)
            console.appendOutput(OutputStream::Stdout, QStringLiteral("line %1\n").arg(i));
        console.flush();
        QVERIFY(atEnd());
        console.appendOutput(OutputStream::Stderr,
                             QString(400, QLatin1Char('x')) + QLatin1Char('\n'));
        console.appendOutput(OutputStream::Stdout, QStringLiteral("the last line\n"));
        console.flush();
        QTRY_VERIFY(console.horizontalScrollBar()->isVisible());
        QTRY_VERIFY(atEnd());
        // The person scrolls up to read: new output leaves them there.
        console.verticalScrollBar()->setValue(0);
        console.appendOutput(OutputStream::Stdout, QStringLiteral("more\n"));
        console.flush();
        QApplication::processEvents();
        QCOMPARE(console.verticalScrollBar()->value(), 0);
    }

    void findWrapsAroundAndSaveWritesWhatIsShown()
    {
        ConsolePane console;
        console.appendOutput(OutputStream::Stdout, QStringLiteral("alpha\nbeta\nalpha again\n"));
        console.flush();
        QVERIFY(console.find(QStringLiteral("alpha")));
        QCOMPARE(console.textCursor().blockNumber(), 0);
        QVERIFY(console.find(QStringLiteral("alpha")));
        QCOMPARE(console.textCursor().blockNumber(), 2);
        QVERIFY(console.find(QStringLiteral("alpha"))); // wraps to the top
        QCOMPARE(console.textCursor().blockNumber(), 0);
        QVERIFY(!console.find(QStringLiteral("gamma")));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("out.txt"));
        QCOMPARE(console.saveTo(path), QString());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("alpha\nbeta\nalpha again\n"));
        QVERIFY(!console.saveTo(QStringLiteral("/nonexistent/dir/out.txt")).isEmpty());
    }
};

QTEST_MAIN(TestConsolePane)
#include "tst_consolepane.moc"
