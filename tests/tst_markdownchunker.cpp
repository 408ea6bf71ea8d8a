#include <ui/chat/markdownchunker.h>

#include <QtTest>

using namespace Sandcastle;

namespace {

// Each piece's text, with "|" after a complete one.
QStringList pieces(const QString &text)
{
    QStringList out;
    for (const MarkdownChunker::Chunk &c : MarkdownChunker::chunks(text))
        out << text.mid(c.start, c.end - c.start) + (c.complete ? QStringLiteral("|") : QString());
    return out;
}

QStringList list(std::initializer_list<const char *> texts)
{
    QStringList out;
    for (const char *t : texts)
        out << QString::fromUtf8(t);
    return out;
}

} // namespace

// How an answer's Markdown is cut into pieces rendered on their own (TranscriptDelegate renders
// a streaming answer's complete pieces once).
class TestMarkdownChunker : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void anEmptyTextIsOneEmptyIncompletePiece()
    {
        const auto chunks = MarkdownChunker::chunks(QString());
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
        for (const MarkdownChunker::Chunk &c : MarkdownChunker::chunks(text)) {
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
        std::vector<MarkdownChunker::Chunk> previous;
        for (qsizetype n = 0; n <= answer.size(); ++n) {
            const auto now = MarkdownChunker::chunks(answer.left(n));
            for (const MarkdownChunker::Chunk &done : previous) {
                if (!done.complete)
                    continue;
                const bool kept = std::any_of(now.begin(), now.end(), [&](const auto &c) {
                    return c.start == done.start && c.end == done.end && c.complete;
                });
                QVERIFY2(kept, qPrintable(QStringLiteral("at %1").arg(n)));
            }
            previous = now;
        }
        QCOMPARE(pieces(answer),
                 list({"Intro line\n\n|",
                       "```python\nx = 1\n\nprint(x)\n```\n\n|",
                       "- item\n\n  second paragraph\n\n|",
                       "~~~\nraw\n\n~~~\n\n|",
                       "The end.\n"}));
    }
};

QTEST_GUILESS_MAIN(TestMarkdownChunker)
#include "tst_markdownchunker.moc"
