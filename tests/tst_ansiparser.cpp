#include <base/ansiparser.h>

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
};

QTEST_GUILESS_MAIN(TestAnsiParser)
#include "tst_ansiparser.moc"
