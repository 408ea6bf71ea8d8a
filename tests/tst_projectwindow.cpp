#include <app/controller/conversationcontroller.h>
#include <support/fakeengine.h>
#include <support/fakeopenaiserver.h>
#include <ui/chat/chatpane.h>
#include <ui/chat/transcriptmodel.h>
#include <ui/editor/editorpane.h>
#include <ui/files/filespane.h>
#include <ui/files/quickopen.h>
#include <ui/mainwindow.h>

#include <QAction>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace Sandcastle;
using namespace Sandcastle::Testing;

// A folder of the person's opened in the real window: File → Open Folder… (Ctrl+O), a folder
// dropped on the window, the recent folders; a folder that must not be mounted is refused in
// the chat with the reason, and the conversation stays where it was.
class TestProjectWindow : public QObject
{
    Q_OBJECT

    QTemporaryDir m_state;
    QTemporaryDir m_data;
    FakeOpenAiServer m_server;

    static QString lastError(MainWindow &window)
    {
        TranscriptModel *model = window.chatPane()->transcriptModel();
        for (int row = model->rowCount() - 1; row >= 0; --row) {
            const QModelIndex index = model->index(row, 0);
            if (index.data(TranscriptModel::KindRole).toInt() == int(TranscriptModel::Kind::Error))
                return index.data(TranscriptModel::TextRole).toString();
        }
        return {};
    }

    static QAction *action(MainWindow &window, const QString &name)
    {
        for (QAction *a : window.allActions()) {
            if (a->objectName() == name)
                return a;
        }
        return nullptr;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY2(useFakeEngine(m_state.path()), "SANDCASTLE_SOURCE_DIR is not set");
        QVERIFY(m_server.listen());
    }

    void aFolderOpensFromTheMenuTheDropAndTheRecentList()
    {
        MainWindow window(fakeEngineSettings(m_server, m_data.path()));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QAction *open = action(window, QStringLiteral("openFolder"));
        QVERIFY(open);
        QCOMPARE(open->shortcut(), QKeySequence(QKeySequence::Open));

        QTemporaryDir project;
        QFile readme(project.filePath(QStringLiteral("README.md")));
        QVERIFY(readme.open(QIODevice::WriteOnly));
        readme.write("# analysis\n");
        readme.close();
        const QString canonical = QFileInfo(project.path()).canonicalFilePath();
        QVERIFY(window.openFolder(project.path()));
        QCOMPARE(window.controller()->workspace(), canonical);
        QCOMPARE(window.filesPane()->root(), canonical);
        QCOMPARE(window.recentFolders().value(0), canonical);
        // The Recent folders menu lists it.
        QMenu *recent = window.menuBar()->findChild<QMenu *>(QStringLiteral("recentFolders"));
        QVERIFY(recent);
        Q_EMIT recent->aboutToShow();
        QVERIFY(!recent->actions().isEmpty());
        QCOMPARE(recent->actions().first()->toolTip(), canonical);

        // A folder dropped on the window (through the files pane or the chat) is opened.
        QTemporaryDir second;
        window.uploadFiles({second.path()});
        QCOMPARE(window.controller()->workspace(), QFileInfo(second.path()).canonicalFilePath());
        QCOMPARE(window.recentFolders().mid(0, 2),
                 (QStringList{QFileInfo(second.path()).canonicalFilePath(), canonical}));
        // Chosen again from the list: back to the first.
        Q_EMIT recent->aboutToShow();
        recent->actions().at(1)->trigger();
        QCOMPARE(window.controller()->workspace(), canonical);
    }

    void aFolderThatMustNotBeMountedIsRefusedInTheChat()
    {
        MainWindow window(fakeEngineSettings(m_server, m_data.path()));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QString before = window.controller()->workspace();
        QTemporaryDir keys;
        QVERIFY(QDir().mkpath(keys.filePath(QStringLiteral(".ssh"))));
        QVERIFY(!window.openFolder(keys.path()));
        QVERIFY2(lastError(window).contains(QStringLiteral("holds .ssh")),
                 qPrintable(lastError(window)));
        QCOMPARE(window.controller()->workspace(), before);
        QVERIFY(!window.recentFolders().contains(QFileInfo(keys.path()).canonicalFilePath()));
        QVERIFY(!window.openFolder(m_data.path()));
        QVERIFY2(lastError(window).contains(QStringLiteral("data folder")),
                 qPrintable(lastError(window)));
        QVERIFY(!window.openFolder(keys.filePath(QStringLiteral("gone"))));
        QVERIFY(lastError(window).contains(QStringLiteral("does not exist")));
        QCOMPARE(window.controller()->workspace(), before);
    }

    void ctrlPGoesToAFileOfTheFolderAndOpensItInTheEditor()
    {
        MainWindow window(fakeEngineSettings(m_server, m_data.path()));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QAction *goToFile = action(window, QStringLiteral("goToFile"));
        QVERIFY(goToFile);
        QCOMPARE(goToFile->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_P));
        QTemporaryDir project;
        QVERIFY(QDir().mkpath(project.filePath(QStringLiteral("analysis/steps"))));
        QFile script(project.filePath(QStringLiteral("analysis/steps/clean_data.py")));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("import pandas\n");
        script.close();
        QVERIFY(window.openFolder(project.path()));
        goToFile->trigger();
        QuickOpen *open = window.filesPane()->quickOpen();
        QVERIFY(open && open->isVisible());
        QTest::keyClicks(open->queryBox(), QStringLiteral("cleandat"));
        QTest::keyClick(open->queryBox(), Qt::Key_Return);
        QTRY_COMPARE(window.editorPane()->currentFile(),
                     QStringLiteral("analysis/steps/clean_data.py"));
        QVERIFY(!open->isVisible());
    }
};

QTEST_MAIN(TestProjectWindow)
#include "tst_projectwindow.moc"
