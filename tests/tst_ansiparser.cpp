#include <ui/console/ansiparser.h>
#include <ui/console/consolepane.h>

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
};

QTEST_MAIN(TestAnsiParser)
#include "tst_ansiparser.moc"
