#include <ui/chat/markdownsplitter.h>

#include <QtTest>

using namespace Sandcastle;

namespace {

using Piece = MarkdownSplitter::Piece;

// Each piece's text, with "|" after a complete one.
QStringList pieces(const QString &text)
{
    QStringList out;
    MarkdownSplitter splitter;
    for (const Piece &c : splitter.split(text))
        out << text.mid(c.start, c.end - c.start) + (c.complete ? QStringLiteral("|") : QString());
    return out;
}

std::vector<Piece> split(const QString &text,
                         MarkdownSplitter::Mode mode = MarkdownSplitter::Mode::Markdown)
{
    MarkdownSplitter splitter(mode);
    return splitter.split(text);
}

// The inline markers and lines of a piece, as the splitter counts them.
int eventsOf(QStringView text)
{
    int n = 0;
    for (const QChar c : text)
        n += QStringLiteral("*_`[]<>|~!&\\\n").contains(c) ? 1 : 0;
    return n;
}

// Fed a character at a time (as an answer streams), `chunk` characters per split: every piece
// that was complete stays, with the same bounds, and the pieces always cover the text in order.
// Returns the pieces of the whole text.
std::vector<Piece> streamed(const QString &text, qsizetype chunk, bool *ok)
{
    MarkdownSplitter splitter;
    std::vector<Piece> previous;
    *ok = true;
    for (qsizetype n = 0;; n = std::min(text.size(), n + chunk)) {
        const std::vector<Piece> now = splitter.split(text.left(n));
        qsizetype at = 0;
        for (const Piece &p : now) {
            if (p.start != at || (p.end <= p.start && n > 0))
                *ok = false;
            at = p.end;
        }
        if (at != n)
            *ok = false;
        for (std::size_t i = 0; i < previous.size(); ++i) {
            if (!previous[i].complete)
                continue;
            if (i >= now.size() || now[i].start != previous[i].start
                || now[i].end != previous[i].end || !now[i].complete
                || now[i].reopen != previous[i].reopen)
                *ok = false;
        }
        previous = now;
        if (n == text.size())
            return previous;
    }
}

QStringList list(std::initializer_list<const char *> texts)
{
    QStringList out;
    for (const char *t : texts)
        out << QString::fromUtf8(t);
    return out;
}

} // namespace

// How a text the model wrote is cut into pieces rendered on their own, each within a frame's
// work (TranscriptRowLayout renders a streaming answer's complete pieces once).
class TestMarkdownSplitter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void anEmptyTextIsOneEmptyIncompletePiece()
    {
        const auto chunks = split(QString());
        QCOMPARE(chunks.size(), std::size_t(1));
        QCOMPARE(chunks[0].start, qsizetype(0));
        QCOMPARE(chunks[0].end, qsizetype(0));
        QVERIFY(!chunks[0].complete);
    }

    void aTextWithoutBlankLinesIsOnePiece()
    {
        QCOMPARE(pieces(QStringLiteral("no break\nstill the same paragraph")),
                 list({"no break\nstill the same paragraph"}));
    }

    void blankLinesCutAndEveryPieceButTheLastIsComplete()
    {
        QCOMPARE(pieces(QStringLiteral("one\n\ntwo\n\nthree")),
                 list({"one\n\n|", "two\n\n|", "three"}));
    }

    void severalBlankLinesStayWithThePieceBefore()
    {
        QCOMPARE(pieces(QStringLiteral("one\n\n\n  \ntwo")), list({"one\n\n\n  \n|", "two"}));
    }

    void aTrailingBlankLineDoesNotCutYet()
    {
        // The next line may continue an indented block: nothing is complete until it comes.
        QCOMPARE(pieces(QStringLiteral("one\n\n")), list({"one\n\n"}));
    }

    void leadingBlankLinesAreAPieceOfTheirOwn()
    {
        QCOMPARE(pieces(QStringLiteral("\n\nfirst")), list({"\n\n|", "first"}));
    }

    void anIndentedContinuationIsNotCutFromItsBlock()
    {
        QCOMPARE(pieces(QStringLiteral("- item\n\n  more\n\nend\n")),
                 list({"- item\n\n  more\n\n|", "end\n"}));
        QCOMPARE(pieces(QStringLiteral("text\n\n    indented code\n\n\tmore code\n")),
                 list({"text\n\n    indented code\n\n\tmore code\n"}));
    }

    void blankLinesInsideABacktickFenceDoNotCut()
    {
        QCOMPARE(pieces(QStringLiteral("```python\na\n\nb\n```\n\nafter")),
                 list({"```python\na\n\nb\n```\n\n|", "after"}));
    }

    void blankLinesInsideATildeFenceDoNotCut()
    {
        QCOMPARE(pieces(QStringLiteral("~~~\na\n\nb\n~~~\n\nafter")),
                 list({"~~~\na\n\nb\n~~~\n\n|", "after"}));
    }

    void aFenceClosesOnlyWithItsOwnMarkerAtLeastAsLong()
    {
        // A ``` line inside a ~~~ block, a shorter fence inside a longer one, or a fence with an
        // info string inside a block are all code: the block goes on.
        QCOMPARE(pieces(QStringLiteral("~~~\n```\n\nstill code\n~~~\n\nafter")),
                 list({"~~~\n```\n\nstill code\n~~~\n\n|", "after"}));
        QCOMPARE(pieces(QStringLiteral("````\n```\n\nstill code\n````\n\nafter")),
                 list({"````\n```\n\nstill code\n````\n\n|", "after"}));
        QCOMPARE(pieces(QStringLiteral("```\n```python\n\nstill code\n```\n\nafter")),
                 list({"```\n```python\n\nstill code\n```\n\n|", "after"}));
    }

    void aLongerClosingFenceCloses()
    {
        QCOMPARE(pieces(QStringLiteral("```\na\n\nb\n`````\n\nafter")),
                 list({"```\na\n\nb\n`````\n\n|", "after"}));
    }

    void anIndentedFenceIsStillAFence()
    {
        // Up to three spaces at the top level, deeper inside a list item.
        QCOMPARE(pieces(QStringLiteral("  ```\ncode\n\nmore\n  ```\n\nafter")),
                 list({"  ```\ncode\n\nmore\n  ```\n\n|", "after"}));
        QCOMPARE(pieces(QStringLiteral("1. item\n\n   ```\n   a\n\nb\n   ```\n\nafter")),
                 list({"1. item\n\n   ```\n   a\n\nb\n   ```\n\n|", "after"}));
    }

    void anUnterminatedFenceKeepsTheRestInOneIncompletePiece()
    {
        QCOMPARE(pieces(QStringLiteral("intro\n\n```\na\n\nb\n\nc")),
                 list({"intro\n\n|", "```\na\n\nb\n\nc"}));
    }

    void inlineCodeAtTheStartOfALineOpensNoFence()
    {
        QCOMPARE(pieces(QStringLiteral("```x``` is code\n\nafter")),
                 list({"```x``` is code\n\n|", "after"}));
    }

    void twoBackticksAreNoFence()
    {
        QCOMPARE(pieces(QStringLiteral("``\n\nafter")), list({"``\n\n|", "after"}));
    }

    void piecesCoverTheTextInOrder()
    {
        const QString text = QStringLiteral("a\n\n- b\n\n  c\n\n```\nd\n\ne\n```\n\n~~~\nf\n\nend");
        qsizetype at = 0;
        for (const Piece &c : split(text)) {
            QCOMPARE(c.start, at);
            QVERIFY(c.end > c.start);
            at = c.end;
        }
        QCOMPARE(at, text.size());
    }

    void aCompletePieceStaysTheSameWhileTheTextGrows()
    {
        // Streamed a character at a time: once complete, a piece is in every longer text, with
        // the same bounds, still complete.
        const QString answer = QStringLiteral(
            "Intro line\n\n```python\nx = 1\n\nprint(x)\n```\n\n- item\n\n  second paragraph\n\n"
            "~~~\nraw\n\n~~~\n\nThe end.\n");
        bool ok = false;
        streamed(answer, 1, &ok);
        QVERIFY(ok);
        QCOMPARE(pieces(answer),
                 list({"Intro line\n\n|",
                       "```python\nx = 1\n\nprint(x)\n```\n\n|",
                       "- item\n\n  second paragraph\n\n|",
                       "~~~\nraw\n\n~~~\n\n|",
                       "The end.\n"}));
    }
    void aLongCodeFenceIsCutAndEachPieceReopensIt()
    {
        QString text = QStringLiteral("```python\n");
        for (int i = 0; i < 1000; ++i)
            text += QStringLiteral("x = %1\n").arg(i);
        text += QStringLiteral("```\n\nafter\n");
        const auto all = split(text);
        QVERIFY(all.size() > 5);
        for (std::size_t i = 1; i + 1 < all.size(); ++i) {
            QCOMPARE(all[i].reopen, QStringLiteral("```python\n"));
            QVERIFY(text.at(all[i].start - 1) == QLatin1Char('\n')); // cut between lines
        }
        QCOMPARE(text.mid(all.back().start), QStringLiteral("after\n"));
        QVERIFY(all.back().reopen.isEmpty());
    }

    void aLongTableIsCutBetweenRowsAndRepeatsItsHeader()
    {
        QString text = QStringLiteral("Intro\n\n| n | name |\n|---|:-:|\n");
        const qsizetype tableStart = text.indexOf(QLatin1Char('|'));
        for (int i = 0; i < 2000; ++i)
            text += QStringLiteral("| %1 | row %1 |\n").arg(i);
        text += QStringLiteral("\nThe end.");
        const auto all = split(text);
        int rows = 0;
        int continued = 0;
        for (const Piece &p : all) {
            rows += p.tableRows;
            if (p.continuesTable) {
                ++continued;
                QCOMPARE(p.reopen, QStringLiteral("| n | name |\n|---|:-:|\n"));
                QCOMPARE(p.table, tableStart);
                QVERIFY(text.mid(p.start).startsWith(QLatin1String("| ")));
            }
            QVERIFY(eventsOf(QStringView(text).mid(p.start, p.end - p.start))
                    <= 2 * MarkdownSplitter::Limits().events + 8);
        }
        QCOMPARE(rows, 2000);
        QVERIFY(continued > 20);
        QCOMPARE(text.mid(all.back().start), QStringLiteral("The end."));
        QCOMPARE(all.back().table, qsizetype(-1));
    }

    void aPieceThatGoesOnWithATableNamesThatTableEvenWhenAnotherStartsInIt()
    {
        // Found by fuzzing: the second table's start was taken for the piece's table, while the
        // piece repeats the first one's header.
        QString text = QStringLiteral("| a | b |\n|---|---|\n");
        for (int i = 0; i < 200; ++i)
            text += QStringLiteral("| %1 | x |\n").arg(i);
        text += QStringLiteral("\nnext\n| c | d |\n|---|---|\n| 1 | 2 |\n");
        MarkdownSplitter splitter(MarkdownSplitter::Mode::Markdown, {4096, 40});
        for (const Piece &p : splitter.split(text)) {
            if (p.continuesTable) {
                QCOMPARE(p.table, qsizetype(0));
                QVERIFY(p.table < p.start);
            }
        }
    }

    void aLongParagraphIsCutAtALineThatStartsNoIndentedBlock()
    {
        QString text;
        for (int i = 0; i < 400; ++i)
            text += i % 2 ? QStringLiteral("  continued %1\n").arg(i)
                          : QStringLiteral("line %1\n").arg(i);
        const auto all = split(text);
        QVERIFY(all.size() > 1);
        for (std::size_t i = 1; i < all.size(); ++i)
            QVERIFY2(text.mid(all[i].start).startsWith(QLatin1String("line ")),
                     qPrintable(text.mid(all[i].start, 20)));
    }

    void aSetextUnderlineAndATableDelimiterStayWithTheLineBefore()
    {
        QString text;
        for (int i = 0; i < 300; ++i)
            text += QStringLiteral("Heading %1\n%2\n")
                        .arg(i)
                        .arg(i % 2 ? QStringLiteral("===") : QStringLiteral("---"));
        for (const Piece &p : split(text)) {
            const QStringView at = QStringView(text).mid(p.start);
            QVERIFY(!at.startsWith(QLatin1String("===")) && !at.startsWith(QLatin1String("---")));
        }
    }

    void aHugeLineIsCutWhereItStands()
    {
        // 60,000 emphasis markers in one line: Qt's importer would take minutes over it whole.
        QString text;
        for (int i = 0; i < 60000; ++i)
            text += QStringLiteral("*a");
        const auto all = split(text);
        const MarkdownSplitter::Limits limits;
        QVERIFY(all.size() > 100);
        for (const Piece &p : all)
            QVERIFY(eventsOf(QStringView(text).mid(p.start, p.end - p.start))
                    <= limits.events * MarkdownSplitter::Limits::HardFactor);
        // One without markers is cut by its size.
        const QString plain(100000, QLatin1Char('x'));
        for (const Piece &p : split(plain))
            QVERIFY(p.end - p.start <= limits.chars * MarkdownSplitter::Limits::HardFactor);
    }

    void aCutNeverSplitsASurrogatePair()
    {
        QString text;
        for (int i = 0; i < 20000; ++i)
            text += QString::fromUtf8("\xF0\x9F\x98\x80"); // U+1F600, two UTF-16 units
        for (const Piece &p : split(text))
            QVERIFY(!text.at(p.start).isLowSurrogate());
    }

    void linksAreCounted()
    {
        const auto all = split(QStringLiteral("[a](https://a.example) and <https://b.example>\n"));
        QCOMPARE(all.size(), std::size_t(1));
        QVERIFY(all[0].links >= 2);
    }

    void plainTextIsCutOnlyByItsLimits()
    {
        QString text = QStringLiteral("```\n\nno fence here\n\n");
        for (int i = 0; i < 1000; ++i)
            text += QStringLiteral("line %1\n").arg(i);
        const auto all = split(text, MarkdownSplitter::Mode::Plain);
        QVERIFY(all.size() > 1);
        for (const Piece &p : all)
            QVERIFY(p.reopen.isEmpty());
        QCOMPARE(split(QStringLiteral("a\n\nb"), MarkdownSplitter::Mode::Plain).size(),
                 std::size_t(1));
    }

    void hostileTextsStreamStablyInBoundedPieces_data()
    {
        QTest::addColumn<QString>("text");
        QString table = QStringLiteral("| a | b |\n|---|---|\n");
        QString links;
        QString divs;
        QString quotes;
        QString ticks;
        for (int i = 0; i < 3000; ++i) {
            table += QStringLiteral("| %1 | x |\n").arg(i);
            links += QStringLiteral("[link %1](https://example.com/%1) ").arg(i);
            divs += QStringLiteral("<div>");
            quotes += QStringLiteral(">");
            ticks += QString(i % 5 + 1, QLatin1Char('`')) + QStringLiteral("a");
        }
        QTest::newRow("table") << table;
        QTest::newRow("links in one paragraph") << links;
        QTest::newRow("nested divs") << divs;
        QTest::newRow("nested quotes") << quotes + QStringLiteral(" deep\n") + quotes;
        QTest::newRow("unclosed backticks") << ticks;
        QTest::newRow("unclosed fence") << QStringLiteral("```\n") + table;
    }

    void hostileTextsStreamStablyInBoundedPieces()
    {
        QFETCH(QString, text);
        bool ok = false;
        const auto byChunks = streamed(text, 97, &ok);
        QVERIFY(ok);
        const MarkdownSplitter::Limits limits;
        for (const Piece &p : byChunks) {
            QVERIFY(p.end - p.start <= limits.chars * MarkdownSplitter::Limits::HardFactor);
            QVERIFY(eventsOf(QStringView(text).mid(p.start, p.end - p.start))
                    <= limits.events * MarkdownSplitter::Limits::HardFactor + 2);
        }
    }

    void aTextThatDoesNotContinueTheLastIsSplitAnew()
    {
        MarkdownSplitter splitter;
        splitter.split(QStringLiteral("one\n\ntwo"));
        const auto again = splitter.split(QStringLiteral("uno\n\ndos\n\ntres"));
        QCOMPARE(again.size(), std::size_t(3));
        QCOMPARE(again[2].start, qsizetype(10));
    }

    void delimiterRows()
    {
        QVERIFY(MarkdownSplitter::isDelimiterRow(u"|---|:-:|"));
        QVERIFY(MarkdownSplitter::isDelimiterRow(u" --- | --- "));
        QVERIFY(!MarkdownSplitter::isDelimiterRow(u"---"));
        QVERIFY(!MarkdownSplitter::isDelimiterRow(u"| a | b |"));
    }
};

QTEST_GUILESS_MAIN(TestMarkdownSplitter)
#include "tst_markdownsplitter.moc"
