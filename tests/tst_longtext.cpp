#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <ui/chat/chatpane.h>
#include <ui/chat/markdowntable.h>
#include <ui/chat/piecerenderer.h>
#include <ui/chat/textviewer.h>
#include <ui/chat/transcriptdelegate.h>
#include <ui/chat/transcriptmodel.h>
#include <ui/editor/codeeditor.h>

#include <support/modelcheck.h>
#include <support/testtimeouts.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QListView>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QtTest>

using namespace Sandcastle;
using Sandcastle::Testing::kWaitMs;
using Sandcastle::Testing::LoadGauge;

namespace {

using Hit = TranscriptDelegate::Hit;

QString tableAnswer(int rows)
{
    QString text = QStringLiteral("The table:\n\n| n | name | note |\n|---|---|---|\n");
    for (int i = 0; i < rows; ++i)
        text += QStringLiteral("| %1 | row %1 | =SUM(A1) |\n").arg(i);
    return text + QStringLiteral("\nThat is all.");
}

// The share of the image's pixels that differ from its corner's.
double inkIn(const QImage &image)
{
    const QRgb ground = image.pixel(0, 0);
    qint64 ink = 0;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            ink += image.pixel(x, y) != ground ? 1 : 0;
    return double(ink) / (double(image.width() / 2) * double(image.height() / 2));
}

} // namespace

// A long text in the transcript: shown up to the display limits with the ways through (Show
// all, Open as text, Save as, Open table as CSV), rendered a frame's worth at a time, and shown
// whole on request even where the row is taller than QListView's 32,767 pixels.
class TestLongText : public QObject
{
    Q_OBJECT

    struct Pane
    {
        ChatPane chat;
        QListView *view() { return chat.transcriptView(); }
        TranscriptModel *model() { return chat.transcriptModel(); }
        TranscriptDelegate *delegate() { return chat.transcriptDelegate(); }
    };

    static void showAnswer(Pane &pane, const QString &text)
    {
        checkModel(pane.model());
        pane.chat.resize(700, 500);
        pane.chat.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane.chat));
        pane.chat.appendAssistantText(text);
        pane.chat.endAssistantMessage();
        QTRY_VERIFY(pane.view()->visualRect(pane.model()->index(0)).isValid());
        QTRY_VERIFY_WITH_TIMEOUT(!pane.delegate()->isRendering(), kWaitMs);
    }

    static void click(Pane &pane, const QModelIndex &index, Hit part)
    {
        const QRect at = pane.delegate()->partRect(index, part);
        QVERIFY(!at.isEmpty());
        QTest::mouseClick(pane.view()->viewport(),
                          Qt::LeftButton,
                          {},
                          pane.view()->visualRect(index).topLeft() + at.center());
    }

private Q_SLOTS:
    void aLongTableIsShownCutWithTheWaysThrough()
    {
        Pane pane;
        showAnswer(pane, tableAnswer(20000));
        const QModelIndex answer = pane.model()->index(0);
        for (const Hit part : {Hit::ShowAll, Hit::OpenAsText, Hit::SaveAs, Hit::OpenTableAsCsv})
            QVERIFY(!pane.delegate()->partRect(answer, part).isEmpty());
        // Cut: the row is far shorter than 20,000 table rows.
        QVERIFY(pane.view()->visualRect(answer).height() < 20000);
        // The store's text and the copy are whole.
        QVERIFY(answer.data(TranscriptModel::TextRole)
                    .toString()
                    .endsWith(QLatin1String("That is all.")));
        QVERIFY(pane.chat.transcriptText().contains(QLatin1String("| 19999 | row 19999 |")));
    }

    void hostileMarkdownPastTheLimitsIsCut_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("nested divs") << QString(QStringLiteral("<div>")).repeated(25000);
        QTest::newRow("emphasis") << QString(QStringLiteral("*a")).repeated(60000);
        QTest::newRow("links") << QString(QStringLiteral("[a](https://e.example) ")).repeated(3000);
    }

    void hostileMarkdownPastTheLimitsIsCut()
    {
        QFETCH(QString, text);
        Pane pane;
        showAnswer(pane, text);
        QVERIFY(!pane.delegate()->partRect(pane.model()->index(0), Hit::ShowAll).isEmpty());
    }

    void codeIsColouredWhenRenderedNotOnALaterTurn()
    {
        const QString text
            = QStringLiteral("Text\n\n```python\nimport os  # note\nx = 'if'\n```\n");
        MarkdownSplitter::Piece piece;
        piece.end = text.size();
        PieceRenderer::Style style;
        style.font = QApplication::font();
        style.palette = QApplication::palette();
        style.width = 600;
        const auto doc = PieceRenderer::render(text, piece, PieceRenderer::Look::Markdown, style);
        doc->size(); // laid out
        bool keyword = false;
        bool comment = false;
        bool prose = false;
        for (QTextBlock b = doc->begin(); b.isValid(); b = b.next()) {
            const QList<QTextLayout::FormatRange> ranges = b.layout()->formats();
            if (b.text().startsWith(QLatin1String("import"))) {
                for (const QTextLayout::FormatRange &r : ranges) {
                    keyword = keyword
                              || (r.start == 0 && r.length == 6
                                  && r.format.fontWeight() == QFont::DemiBold);
                    comment = comment
                              || (r.format.fontItalic()
                                  && b.text().mid(r.start) == QLatin1String("# note"));
                }
            }
            if (b.text() == QLatin1String("x = 'if'")) {
                // A keyword inside a string is string, not keyword.
                for (const QTextLayout::FormatRange &r : ranges)
                    QVERIFY(r.format.fontWeight() != QFont::DemiBold);
            }
            if (b.text() == QLatin1String("Text"))
                prose = ranges.isEmpty();
        }
        QVERIFY(keyword);
        QVERIFY(comment);
        QVERIFY(prose); // prose is not coloured as code
    }

    void aShortAnswerHasNoCut()
    {
        Pane pane;
        showAnswer(pane, tableAnswer(20));
        QVERIFY(pane.delegate()->partRect(pane.model()->index(0), Hit::ShowAll).isEmpty());
    }

    void showAllRendersEverythingAFrameAtATimeAndPaintsPastQListViewsLimit()
    {
        Pane pane;
        showAnswer(pane, tableAnswer(3000));
        const QModelIndex answer = pane.model()->index(0);
        const int cut = pane.delegate()->renderedChunks();
        QSignalSpy finished(pane.delegate(), &TranscriptDelegate::renderingFinished);
        click(pane, answer, Hit::ShowAll);
        QVERIFY(answer.data(TranscriptModel::ShowAllRole).toBool());
        // Not all at once: the pieces come over several turns of the event loop.
        QVERIFY(pane.delegate()->isRendering());
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), kWaitMs);
        QVERIFY(pane.delegate()->renderedChunks() > cut + 20);
        QVERIFY(pane.delegate()->partRect(answer, Hit::ShowAll).isEmpty()); // nothing is cut
        // 3,000 table rows are taller than any rectangle QListView hands out; the end of the
        // answer is still painted at the end of the transcript.
        QScrollBar *bar = pane.view()->verticalScrollBar();
        QTRY_VERIFY(bar->maximum() > 40000);
        bar->setValue(bar->maximum());
        // The scroll lays the view out on a later turn, and what comes into sight renders then:
        // under load, "not rendering" can hold for a moment before it starts.
        const auto inkAtTheEnd = [&] {
            return !pane.delegate()->isRendering()
                   && inkIn(pane.view()->viewport()->grab().toImage()) > 0.01;
        };
        QTRY_VERIFY2_WITH_TIMEOUT(inkAtTheEnd(), "the end of a tall answer is blank", kWaitMs);
    }

    void openTableAsCsvGivesEveryRow()
    {
        Pane pane;
        showAnswer(pane, tableAnswer(2000));
        QSignalSpy csv(&pane.chat, &ChatPane::tableAsCsvRequested);
        click(pane, pane.model()->index(0), Hit::OpenTableAsCsv);
        QCOMPARE(csv.size(), 1);
        const QStringList lines
            = csv.first().at(0).toString().split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2001);
        QCOMPARE(lines.first(), QStringLiteral("n,name,note"));
        // A cell that would run as a spreadsheet formula is quoted as text.
        QCOMPARE(lines.last(), QStringLiteral("1999,row 1999,'=SUM(A1)"));
    }

    void openAsTextShowsTheWholeText()
    {
        Pane pane;
        const QString text = tableAnswer(20000);
        showAnswer(pane, text);
        click(pane, pane.model()->index(0), Hit::OpenAsText);
        TextViewer *viewer = pane.chat.findChild<TextViewer *>();
        QVERIFY(viewer);
        QCOMPARE(viewer->editor()->toPlainText(), text);
        QVERIFY(viewer->editor()->isReadOnly());
        viewer->close();
        // A line too long to lay out is shown broken, at once (3 s on an idle machine; on a busy
        // one, times how much slower it runs the test).
        const LoadGauge load;
        QElapsedTimer clock;
        clock.start();
        TextViewer wide(QStringLiteral("wide"), QString(1500000, QLatin1Char('w')));
        wide.show();
        QVERIFY(QTest::qWaitForWindowExposed(&wide));
        wide.editor()->verticalScrollBar()->setValue(wide.editor()->verticalScrollBar()->maximum());
        wide.repaint();
        const qint64 wideMs = clock.elapsed();
        const LoadGauge::Budget wideLimit = load.budget(3000);
        QVERIFY2(
            wideMs < wideLimit.ms,
            qPrintable(QStringLiteral("%1 ms, over %2").arg(wideMs).arg(wideLimit.describe())));
        QCOMPARE(wide.editor()->toPlainText().remove(QLatin1Char('\n')).size(), 1500000);
    }

    void aHugeMessageOfThePersonAndAHugeToolArgumentAreCutToo()
    {
        Pane pane;
        checkModel(pane.model());
        pane.chat.resize(700, 500);
        pane.chat.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane.chat));
        pane.chat.addUserMessage(QString(500000, QLatin1Char('p')));
        pane.chat.addToolCall(
            QStringLiteral("c1"),
            QStringLiteral("run_python"),
            QStringLiteral("{\"code\": \"%1\"}").arg(QString(300000, QLatin1Char('x'))));
        QTRY_VERIFY_WITH_TIMEOUT(!pane.delegate()->isRendering(), kWaitMs);
        for (const int row : {0, 1}) {
            const QModelIndex index = pane.model()->index(row);
            QVERIFY(!pane.delegate()->partRect(index, Hit::ShowAll).isEmpty());
            QVERIFY(pane.view()->visualRect(index).height() < 30000);
        }
    }

    void markdownTablesConvertToCsv()
    {
        const QString text = QStringLiteral("before\n| a | b \\| c | \"q\" |\n|:-|-:|---|\n| 1, 2 "
                                            "| -3 | @x |\n| +1 |  | ok |\n\nafter");
        const qsizetype start = text.indexOf(QLatin1Char('|'));
        QCOMPARE(MarkdownTable::toCsv(text, start),
                 QStringLiteral("a,b | c,\"\"\"q\"\"\"\r\n\"1, 2\",-3,'@x\r\n+1,,ok\r\n"));
        // No delimiter row: no table.
        QVERIFY(MarkdownTable::toCsv(QStringLiteral("| a |\n| b |\n"), 0).isEmpty());
        QVERIFY(MarkdownTable::toCsv(text, -1).isEmpty());
        QVERIFY(MarkdownTable::toCsv(text, text.size()).isEmpty());
        QCOMPARE(MarkdownTable::cells(u"|x|y|"),
                 QStringList({QStringLiteral("x"), QStringLiteral("y")}));
    }

    void theEditorDoesNotShowALineTooLongToLayOut()
    {
        CodeEditor editor;
        editor.resize(500, 300);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        const QString huge
            = QStringLiteral("x = '") + QString(1500000, QLatin1Char('w')) + QStringLiteral("'\n");
        // All of it in 2 s on an idle machine; on a busy one, times how much slower it runs it.
        const LoadGauge load;
        QElapsedTimer clock;
        clock.start();
        editor.setText(huge);
        editor.repaint();
        QVERIFY(editor.text().startsWith(QLatin1String("# Not shown")));
        // Streamed, it shows as much as it can, then the note, which stays.
        editor.showStreamingCode(QStringLiteral("print(1)\n"));
        QCOMPARE(editor.text(), QStringLiteral("print(1)\n"));
        for (int n = 1000; n < 200000; n += 20000) {
            editor.showStreamingCode(QStringLiteral("print(1)\n") + QString(n, QLatin1Char('w')));
            editor.repaint();
        }
        QVERIFY(editor.text().startsWith(QLatin1String("# Not shown")));
        const qint64 editorMs = clock.elapsed();
        const LoadGauge::Budget editorLimit = load.budget(2000);
        QVERIFY2(
            editorMs < editorLimit.ms,
            qPrintable(QStringLiteral("%1 ms, over %2").arg(editorMs).arg(editorLimit.describe())));
        editor.setText(QStringLiteral("ok = 1\n"));
        QCOMPARE(editor.text(), QStringLiteral("ok = 1\n"));
    }
};

QTEST_MAIN(TestLongText)
#include "tst_longtext.moc"
