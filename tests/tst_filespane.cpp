#include <ui/editor/codeeditor.h>
#include <ui/files/filepreview.h>
#include <ui/files/filespane.h>
#include <ui/files/workspacemodel.h>

#include <support/modelcheck.h>
#include <support/testfiles.h>
#include <support/testtimeouts.h>

#include <QElapsedTimer>
#include <QImage>
#include <QLabel>
#include <QMimeData>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

using namespace Sandcastle;
using Sandcastle::Testing::kWaitMs;
using Sandcastle::Testing::writeFile;

// The files pane's previews, on real files, offscreen.
class TestFilesPane : public QObject
{
    Q_OBJECT

    QTemporaryDir m_workspace;
    QTemporaryDir m_outside;

    FilePreview::Kind previewOf(FilesPane &pane, const QString &relative)
    {
        // The tree may preview what it selects on its own meanwhile: wait for this file's.
        QSignalSpy shown(&pane, &FilesPane::previewShown);
        pane.preview(relative);
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < kWaitMs) {
            for (const QList<QVariant> &args : std::as_const(shown)) {
                if (args.at(0).toString() == relative && pane.previewedFile() == relative)
                    return args.at(1).value<FilePreview::Kind>();
            }
            if (pane.previewedFile() != relative)
                pane.preview(relative); // the tree's own request replaced ours: ask again
            shown.wait(100);
        }
        return FilePreview::Kind::Message;
    }

private Q_SLOTS:
    void initTestCase()
    {
        qRegisterMetaType<FilePreview::Kind>();
        QImage chart(320, 200, QImage::Format_RGB32);
        chart.fill(Qt::darkCyan);
        QDir().mkpath(m_workspace.filePath(QStringLiteral("outputs")));
        QVERIFY(chart.save(m_workspace.filePath(QStringLiteral("outputs/chart.png"))));
        QVERIFY(chart.save(m_workspace.filePath(QStringLiteral("photo.jpg"))));
        writeFile(m_workspace.filePath(QStringLiteral("logo.svg")),
                  "<svg xmlns='http://www.w3.org/2000/svg' width='40' height='30'>"
                  "<rect width='40' height='30' fill='red'/></svg>");
        writeFile(m_workspace.filePath(QStringLiteral("broken.png")), "not a png at all");
        QByteArray csv = "city,note\n\"Oslo, Norway\",\"said \"\"hi\"\"\"\nRome,\"two\nlines\"\n";
        for (int i = 0; i < 1500; ++i)
            csv += "row" + QByteArray::number(i) + "," + QByteArray::number(i * 2) + "\n";
        writeFile(m_workspace.filePath(QStringLiteral("data.csv")), csv);
        writeFile(m_workspace.filePath(QStringLiteral("small.tsv")), "a\tb\n1\t2\n");
        writeFile(m_workspace.filePath(QStringLiteral("script.py")),
                  "def f(x):\n    return x * 2\n");
        writeFile(m_workspace.filePath(QStringLiteral("big.txt")),
                  QByteArray(FilePreview::kMaxTextBytes + 10, 'a'));
        writeFile(m_workspace.filePath(QStringLiteral("blob.bin")), QByteArray("\x00\x01\x02", 3));
        writeFile(m_outside.filePath(QStringLiteral("secret.txt")), "HOST SECRET");
        QVERIFY(QFile::link(QStringLiteral("/etc/passwd"),
                            m_workspace.filePath(QStringLiteral("passwd"))));
        QVERIFY(QFile::link(m_outside.path(), m_workspace.filePath(QStringLiteral("hostdir"))));
    }

    void csvFieldsFollowTheRfc()
    {
        bool more = true;
        const QList<QStringList> rows = FilePreview::parseDelimited(
            QStringLiteral("a,b\r\n\"x, y\",\"he said \"\"no\"\"\"\n\"multi\nline\",\n"),
            QLatin1Char(','),
            10,
            &more);
        QCOMPARE(rows.size(), 3);
        QCOMPARE(rows.at(1),
                 (QStringList{QStringLiteral("x, y"), QStringLiteral("he said \"no\"")}));
        QCOMPARE(rows.at(2), (QStringList{QStringLiteral("multi\nline"), QString()}));
        QVERIFY(!more);
        FilePreview::parseDelimited(QStringLiteral("1\n2\n3\n"), QLatin1Char(','), 2, &more);
        QVERIFY(more);
        QCOMPARE(
            FilePreview::parseDelimited(QStringLiteral("last,row"), QLatin1Char(','), 5).size(), 1);
    }

    void imagesShowAsPictures()
    {
        FilesPane pane;
        checkModel(pane.model());
        pane.resize(400, 600);
        pane.show();
        pane.setRoot(m_workspace.path());
        for (const QString &name : {QStringLiteral("outputs/chart.png"),
                                    QStringLiteral("photo.jpg"),
                                    QStringLiteral("logo.svg")}) {
            QCOMPARE(previewOf(pane, name), FilePreview::Kind::Image);
            const auto *image = pane.findChild<QLabel *>(QStringLiteral("previewImage"));
            QVERIFY(!image->pixmap().isNull());
            QVERIFY(pane.previewStack()->currentWidget()->isAncestorOf(image));
        }
        QCOMPARE(previewOf(pane, QStringLiteral("broken.png")), FilePreview::Kind::Message);
        QVERIFY(pane.findChild<QLabel *>(QStringLiteral("previewMessage"))
                    ->text()
                    .contains(QStringLiteral("not a valid PNG")));
    }

    void csvShowsAsATableOfTheFirstThousandRows()
    {
        FilesPane pane;
        checkModel(pane.model());
        pane.show();
        pane.setRoot(m_workspace.path());
        QCOMPARE(previewOf(pane, QStringLiteral("data.csv")), FilePreview::Kind::Table);
        auto *table = pane.findChild<QTableView *>(QStringLiteral("previewTable"));
        QCOMPARE(pane.previewStack()->currentWidget(), table);
        QCOMPARE(table->model()->rowCount(), FilePreview::kMaxRows);
        QCOMPARE(table->model()->headerData(0, Qt::Horizontal).toString(), QStringLiteral("city"));
        QCOMPARE(table->model()->index(0, 0).data().toString(), QStringLiteral("Oslo, Norway"));
        QCOMPARE(table->model()->index(0, 1).data().toString(), QStringLiteral("said \"hi\""));
        QCOMPARE(table->model()->index(1, 1).data().toString(), QStringLiteral("two\nlines"));
        QVERIFY(pane.findChild<QLabel *>(QStringLiteral("previewNote"))
                    ->text()
                    .contains(QStringLiteral("first 1000")));
        QCOMPARE(previewOf(pane, QStringLiteral("small.tsv")), FilePreview::Kind::Table);
        QCOMPARE(table->model()->index(0, 1).data().toString(), QStringLiteral("2"));
    }

    void anAddedFileTakesAFreeNameAndShows()
    {
        QTemporaryDir workspace;
        FilesPane pane;
        pane.show();
        pane.setRoot(workspace.path());
        QSignalSpy shown(&pane, &FilesPane::previewShown);
        const Result<QString> first
            = pane.addFile(QStringLiteral("table.csv"), QStringLiteral("a,b\r\n1,2\r\n"));
        QVERIFY(first);
        QCOMPARE(first.value(), QStringLiteral("table.csv"));
        const Result<QString> second
            = pane.addFile(QStringLiteral("table.csv"), QStringLiteral("c\r\n"));
        QCOMPARE(second.value(), QStringLiteral("table-2.csv"));
        QFile file(workspace.filePath(QStringLiteral("table.csv")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("a,b\r\n1,2\r\n"));
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(
            shown.last().at(0).toString(), QStringLiteral("table-2.csv"), kWaitMs);
        // No workspace to write into (a file where the folder should be): a clear error.
        writeFile(workspace.filePath(QStringLiteral("plain")), "not a folder");
        FilesPane nowhere;
        nowhere.setRoot(workspace.filePath(QStringLiteral("plain")));
        const Result<QString> refused
            = nowhere.addFile(QStringLiteral("t.csv"), QStringLiteral("x"));
        QVERIFY(!refused);
        QVERIFY(!refused.error().isEmpty());
    }

    void codeShowsHighlightedAndBigOrBinaryFilesAreRefused()
    {
        FilesPane pane;
        checkModel(pane.model());
        pane.show();
        pane.setRoot(m_workspace.path());
        QCOMPARE(previewOf(pane, QStringLiteral("script.py")), FilePreview::Kind::Text);
        auto *text = pane.findChild<CodeEditor *>(QStringLiteral("previewText"));
        QCOMPARE(text->text(), QStringLiteral("def f(x):\n    return x * 2\n"));
        QCOMPARE(text->language(), QStringLiteral("python"));
        QVERIFY(text->isReadOnly());
        QCOMPARE(previewOf(pane, QStringLiteral("big.txt")), FilePreview::Kind::Message);
        QVERIFY(pane.findChild<QLabel *>(QStringLiteral("previewMessage"))
                    ->text()
                    .contains(QStringLiteral("larger than")));
        QCOMPARE(previewOf(pane, QStringLiteral("blob.bin")), FilePreview::Kind::Message);
    }

    void aSymlinkOutOfTheWorkspaceShowsAnErrorNotTheFile()
    {
        FilesPane pane;
        checkModel(pane.model());
        pane.show();
        pane.setRoot(m_workspace.path());
        for (const QString &name :
             {QStringLiteral("passwd"), QStringLiteral("hostdir/secret.txt")}) {
            QCOMPARE(previewOf(pane, name), FilePreview::Kind::Message);
            const QString shown
                = pane.findChild<QLabel *>(QStringLiteral("previewMessage"))->text();
            QVERIFY2(shown.startsWith(QStringLiteral("Not shown")), qPrintable(shown));
            QVERIFY(!shown.contains(QStringLiteral("root:")));
            QVERIFY(!shown.contains(QStringLiteral("HOST SECRET")));
            // The text page is made when a text is first shown: none, or not this one.
            const auto *text = pane.findChild<CodeEditor *>(QStringLiteral("previewText"));
            QVERIFY(!text || !text->text().contains(QStringLiteral("root:")));
        }
    }

    void theLastRunsFilesAreMarkedAndTheFirstIsPreviewed()
    {
        FilesPane pane;
        checkModel(pane.model());
        pane.show();
        pane.setRoot(m_workspace.path());
        QTRY_VERIFY_WITH_TIMEOUT(
            pane.model()->index(m_workspace.filePath(QStringLiteral("data.csv"))).isValid(),
            kWaitMs);
        QSignalSpy shown(&pane, &FilesPane::previewShown);
        pane.highlight({QStringLiteral("data.csv"), QStringLiteral("script.py")});
        QVERIFY(shown.wait(kWaitMs));
        QCOMPARE(shown.last().at(0).toString(), QStringLiteral("data.csv"));
        const QModelIndex csv
            = pane.model()->index(m_workspace.filePath(QStringLiteral("data.csv")));
        const QModelIndex other
            = pane.model()->index(m_workspace.filePath(QStringLiteral("photo.jpg")));
        QVERIFY(csv.data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(!other.data(Qt::FontRole).value<QFont>().bold());
        pane.highlight({});
        QVERIFY(!csv.data(Qt::FontRole).value<QFont>().bold());
    }

    void dragsOutCarryRegularFilesOnlyAndDropsInAreUploads()
    {
        FilesPane pane;
        checkModel(pane.model());
        pane.show();
        pane.setRoot(m_workspace.path());
        WorkspaceModel *model = pane.model();
        QModelIndex csv;
        QModelIndex link;
        QTRY_VERIFY_WITH_TIMEOUT(
            (csv = model->index(m_workspace.filePath(QStringLiteral("data.csv")))).isValid(),
            kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(
            (link = model->index(m_workspace.filePath(QStringLiteral("passwd")))).isValid(),
            kWaitMs);
        QVERIFY(model->flags(csv) & Qt::ItemIsDragEnabled);
        QVERIFY(!(model->flags(link) & Qt::ItemIsDragEnabled));
        std::unique_ptr<QMimeData> data(model->mimeData({csv, link}));
        QVERIFY(data);
        QCOMPARE(data->urls().size(), 1);
        QCOMPARE(data->urls().first().toLocalFile(),
                 m_workspace.filePath(QStringLiteral("data.csv")));
        QVERIFY(!model->mimeData({link}));

        QSignalSpy dropped(&pane, &FilesPane::filesDropped);
        QMimeData outside;
        outside.setUrls({QUrl::fromLocalFile(m_outside.filePath(QStringLiteral("secret.txt")))});
        QWidget *viewport = pane.view()->viewport();
        QDragEnterEvent enter(
            QPoint(10, 10), Qt::CopyAction, &outside, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(viewport, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &outside, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(viewport, &drop);
        QCOMPARE(dropped.size(), 1);
        QCOMPARE(dropped.first().at(0).toStringList(),
                 QStringList{m_outside.filePath(QStringLiteral("secret.txt"))});
    }
};

QTEST_MAIN(TestFilesPane)
#include "tst_filespane.moc"
