#include <ui/console/ansiparser.h>
#include <ui/console/consolepane.h>

#include <QScrollBar>
#include <QTemporaryDir>
#include <QtTest>

using namespace Sandcastle;

class TestAnsiParser : public QObject
{
    Q_OBJECT

    static QString plain(const QList<AnsiParser::Segment> &segments)
    {
        QString out;
        for (const auto &s : segments)
            out += (s.returnToLineStart ? QStringLiteral("<CR>") : QString()) + s.text;
        return out;
    }

private Q_SLOTS:
    void coloursAndBoldBecomeStyles()
    {
        AnsiParser parser;
        const auto segments = parser.feed(QStringLiteral(
            "plain \x1b[1;31mred bold\x1b[0m back \x1b[38;5;46mgreen\x1b[38;2;1;2;3mrgb\x1b[39m."));
        QCOMPARE(plain(segments), QStringLiteral("plain red bold back greenrgb."));
        QCOMPARE(segments.size(), 6);
        QVERIFY(!segments.at(5).style.foreground); // 39: back to the default colour
        QVERIFY(!segments.at(0).style.foreground);
        QVERIFY(segments.at(1).style.bold);
        QCOMPARE(segments.at(1).style.foreground->r, 205);
        QCOMPARE(segments.at(3).style.foreground->g, 255);
        QCOMPARE(segments.at(4).style.foreground->b, 3);
    }

    void sequencesSplitAcrossChunksAreCompleted()
    {
        AnsiParser parser;
        QString text;
        std::optional<AnsiParser::Rgb> colour;
        for (const QString &piece : {QStringLiteral("a\x1b"),
                                     QStringLiteral("[3"),
                                     QStringLiteral("2mb"),
                                     QStringLiteral("\x1b[0mc")}) {
            for (const auto &s : parser.feed(piece)) {
                text += s.text;
                if (s.text == QLatin1String("b"))
                    colour = s.style.foreground;
            }
        }
        QCOMPARE(text, QStringLiteral("abc"));
        QVERIFY(colour);
        QCOMPARE(colour->g, 188);
    }

    void otherControlSequencesAreDropped()
    {
        AnsiParser parser;
        QCOMPARE(plain(parser.feed(QStringLiteral("\x1b[2J\x1b[H\x1b]0;title\x07text\x1b[K\a\b!"))),
                 QStringLiteral("text!"));
    }

    void hostileSequencesAreInertAndControlsVisible()
    {
        AnsiParser parser;
        // OSC 52 (clipboard), OSC 8 (hyperlink), a title, cursor moves: nothing of them shows.
        const QString hostile = QStringLiteral("\x1b]52;c;cm0gLXJmIH4=\x07"
                                               "a\x1b]8;;http://evil\x1b\\b"
                                               "\x1b]8;;\x1b\\\x1b]2;pwned\x07\x1b[10;10Hc");
        QCOMPARE(plain(parser.feed(hostile)), QStringLiteral("abc"));
        // Bidi overrides and control characters are shown as marks, never obeyed.
        QCOMPARE(plain(parser.feed(QString::fromUtf8("x = 1 \u202e# comment\u202c\n"))),
                 QStringLiteral("x = 1 <U+202E># comment<U+202C>\n"));
        QCOMPARE(plain(parser.feed(QString(QChar(0)) + QStringLiteral("\x01\x7f\tok"))),
                 QString::fromUtf8("\u2400\u2401\u2421\tok"));
    }

    void anOscThatNeverEndsIsDroppedNotKeptForever()
    {
        AnsiParser parser;
        QString out
            = plain(parser.feed(QStringLiteral("\x1b]0;") + QString(5000, QLatin1Char('t'))));
        QVERIFY(out.isEmpty());
        // The stream goes on normally afterwards (the long sequence is not buffered).
        out = plain(parser.feed(QStringLiteral("\nvisible")));
        QVERIFY2(out.endsWith(QStringLiteral("visible")), qPrintable(out.left(80)));
        QVERIFY(out.size() < 5000);
    }

    void readsTheSameHoweverTheOutputIsSplit()
    {
        // Found by fuzz_ansi: a CSI longer than 64 characters was a sequence in one read but
        // text when split, and an escape before an emoji took half of the emoji with it.
        const QString stream = QStringLiteral("\x1b[3") + QString(70, QLatin1Char('1'))
                               + QStringLiteral("2mx \x1b[31mred \x1b😀!");
        AnsiParser whole;
        const QString expected = plain(whole.feed(stream));
        QCOMPARE(expected,
                 QStringLiteral("[3") + QString(70, QLatin1Char('1'))
                     + QStringLiteral("2mx red 😀!"));
        AnsiParser split;
        QString shown;
        for (const QChar c : stream)
            shown += plain(split.feed(QString(c)));
        QCOMPARE(shown, expected);
        QCOMPARE(split.style(), whole.style());
        QCOMPARE(whole.style().foreground->r, 205);
    }

    void carriageReturnsRedrawTheLineButCrlfIsANewline()
    {
        AnsiParser parser;
        QCOMPARE(plain(parser.feed(QStringLiteral("10%\r20%\r30%\r\ndone\r"))),
                 QStringLiteral("10%<CR>20%<CR>30%\ndone"));
        QCOMPARE(plain(parser.feed(QStringLiteral("\n"))), QStringLiteral("\n")); // the split CRLF
    }

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

QTEST_MAIN(TestAnsiParser)
#include "tst_ansiparser.moc"
