#include <app/agent/agent.h>
#include <app/controller/conversationcontroller.h>
#include <app/store/conversationrecorder.h>
#include <app/store/conversationstore.h>
#include <support/fakeengine.h>
#include <support/fakeopenaiserver.h>
#include <support/personsfolder.h>
#include <support/testtimeouts.h>
#include <support/windowactions.h>
#include <ui/chat/chatpane.h>
#include <ui/chat/transcriptmodel.h>
#include <ui/editor/codeeditor.h>
#include <ui/editor/editorpane.h>
#include <ui/files/filespane.h>
#include <ui/files/quickopen.h>
#include <ui/files/workspacemodel.h>
#include <ui/mainwindow.h>
#include <ui/review/checkpointreview.h>

#include <Qsci/qsciscintilla.h>

#include <QAction>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QPushButton>
#include <QScopeGuard>
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

    // The row of the chat's checkpoint badge, or -1.
    static int badgeRow(MainWindow &window)
    {
        TranscriptModel *model = window.chatPane()->transcriptModel();
        for (int row = model->rowCount() - 1; row >= 0; --row) {
            if (model->index(row, 0).data(TranscriptModel::CheckpointRole).toInt() > 0)
                return row;
        }
        return -1;
    }

    static QByteArray contentOf(const QString &path)
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
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
        QAction *open = windowAction(window, QStringLiteral("openFolder"));
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

    void aTurnShowsItsChangesAndUndoTakesThemBack()
    {
        QTemporaryDir project;
        const QString root = QFileInfo(project.path()).canonicalFilePath();
        QFile source(root + QStringLiteral("/app.py"));
        QVERIFY(source.open(QIODevice::WriteOnly));
        source.write("def greet():\n    return 'helo'\n");
        source.close();
        QFile ignore(root + QStringLiteral("/.gitignore"));
        QVERIFY(ignore.open(QIODevice::WriteOnly));
        ignore.write("*.log\n");
        ignore.close();
        QFile log(root + QStringLiteral("/debug.log"));
        QVERIFY(log.open(QIODevice::WriteOnly));
        log.close();
        QVERIFY(handToPerson(root)); // a person's folder, not root's (which is read-only)
        MainWindow window(fakeEngineSettings(m_server, m_data.path()));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFolder(project.path()));
        // The tree: an ignored file is grey, and gone when ignored files are hidden.
        WorkspaceModel *tree = window.filesPane()->model();
        QTRY_VERIFY_WITH_TIMEOUT(tree->index(root + QStringLiteral("/debug.log")).isValid(),
                                 kWaitMs);
        QVERIFY(tree->isIgnored(tree->index(root + QStringLiteral("/debug.log"))));
        QVERIFY(!tree->isIgnored(tree->index(root + QStringLiteral("/app.py"))));
        window.filesPane()->setShowIgnored(false);
        QTRY_VERIFY_WITH_TIMEOUT(!tree->index(root + QStringLiteral("/debug.log")).isValid(),
                                 kWaitMs);
        QVERIFY(tree->index(root + QStringLiteral("/app.py")).isValid());
        window.filesPane()->setShowIgnored(true);
        // The agent reads and edits one file and makes another (host tools: no engine needed).
        m_server.enqueueToolCall(
            QStringLiteral("r1"), QStringLiteral("read_file"), R"({"path": "app.py"})");
        m_server.enqueueToolCall(
            QStringLiteral("e1"),
            QStringLiteral("edit_file"),
            R"({"path": "app.py", "old_text": "'helo'", "new_text": "'hello'"})");
        m_server.enqueueToolCall(QStringLiteral("w1"),
                                 QStringLiteral("write_file"),
                                 R"({"path": "notes/todo.md", "content": "- ship\n"})");
        m_server.enqueueText(QStringLiteral("Fixed the typo and left a note."));
        // The edit streams into the editor as a diff while the model writes it.
        QStringList editorTexts;
        QList<QString> newTexts;
        connect(window.agent(),
                &Agent::toolEditChanged,
                this,
                [&](const QString &, const QString &, const QString &, const QString &newText) {
                    newTexts << newText;
                    editorTexts << window.editor()->text();
                });
        window.submitPrompt(QStringLiteral("fix the greeting"));
        QTRY_VERIFY_WITH_TIMEOUT(badgeRow(window) >= 0, kWaitMs);
        QVERIFY2(newTexts.size() >= 3, qPrintable(QString::number(newTexts.size())));
        QVERIFY(newTexts.contains(QString()) || newTexts.contains(QString(QLatin1Char('\''))));
        QCOMPARE(newTexts.last(), QStringLiteral("'hello'"));
        QVERIFY2(editorTexts.last().contains(QLatin1String("--- a/app.py"))
                     && editorTexts.last().contains(QLatin1String("-'helo'"))
                     && editorTexts.last().contains(QLatin1String("+'hello'")),
                 qPrintable(editorTexts.last()));
        TranscriptModel *model = window.chatPane()->transcriptModel();
        const QModelIndex badge = model->index(badgeRow(window), 0);
        QCOMPARE(badge.data(TranscriptModel::TextRole).toString(),
                 QStringLiteral("Turn 1 · 2 file(s) changed, +2 −1"));
        QCOMPARE(contentOf(root + QStringLiteral("/app.py")),
                 QByteArray("def greet():\n    return 'hello'\n"));
        // The tree marks the files the turn changed.
        QTRY_VERIFY_WITH_TIMEOUT(
            window.filesPane()->model()->isTurnChanged(
                window.filesPane()->model()->index(root + QStringLiteral("/app.py"))),
            kWaitMs);

        // A click on the badge opens the review: the files and the diff of the first.
        const int number = badge.data(TranscriptModel::CheckpointRole).toInt();
        Q_EMIT window.chatPane()->checkpointActivated(number);
        CheckpointReview *review = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((review = window.findChild<CheckpointReview *>()) != nullptr,
                                 kWaitMs);
        QCOMPARE(review->fileList()->count(), 2);
        QVERIFY(review->fileList()->item(0)->text().startsWith(QLatin1String("app.py")));
        QTRY_VERIFY_WITH_TIMEOUT(review->shownDiff().contains(QLatin1String("+    return 'hello'")),
                                 kWaitMs);
        QVERIFY(review->shownDiff().contains(QLatin1String("-    return 'helo'")));

        // Undo this turn: both files as before; the chat says so; the model will hear of it.
        review->setConfirmation([](const QString &) { return true; });
        QSignalSpy finished(window.controller(), &ConversationController::checkpointActionFinished);
        review->undoButton()->click();
        QVERIFY(finished.wait(kWaitMs));
        QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
        QCOMPARE(contentOf(root + QStringLiteral("/app.py")),
                 QByteArray("def greet():\n    return 'helo'\n"));
        QVERIFY(!QFileInfo::exists(root + QStringLiteral("/notes")));
        QVERIFY(finished.first().at(1).toString().contains(QLatin1String("not rewound")));
        window.controller()->shutDown(ConversationController::ShutDownMode::Wait);
    }

    void aReadOnlyFolderSaysSoAndNothingIsLost()
    {
        // A read-only bind mount of a folder (root only; CI runs as root and must run this).
        QTemporaryDir source;
        QTemporaryDir mountPoint;
        QFile file(source.filePath(QStringLiteral("data.csv")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("a,b\n1,2\n");
        file.close();
        QVERIFY(handToPerson(source.path())); // read-only by the mount alone
        const auto sh = [](const QString &command) {
            return QProcess::execute(QStringLiteral("sh"), {QStringLiteral("-c"), command}) == 0;
        };
        const QString target = mountPoint.path();
        if (!sh(QStringLiteral("mount --bind '%1' '%2' && mount -o remount,bind,ro '%2'")
                    .arg(source.path(), target))) {
            if (qEnvironmentVariableIsSet("CI"))
                QFAIL("cannot make a read-only mount in CI (root is needed)");
            QSKIP("a read-only mount needs root");
        }
        const auto unmount = qScopeGuard([&] { sh(QStringLiteral("umount '%1'").arg(target)); });
        MainWindow window(fakeEngineSettings(m_server, m_data.path()));
        window.show();
        QVERIFY(window.openFolder(target));
        QVERIFY(!window.controller()->isWorkspaceWritable());
        TranscriptModel *model = window.chatPane()->transcriptModel();
        bool said = false;
        for (int row = 0; row < model->rowCount(); ++row)
            said = said
                   || model->index(row, 0)
                          .data(TranscriptModel::TextRole)
                          .toString()
                          .contains(QLatin1String("read-only"));
        QVERIFY(said);
        // The agent tries to write: a clear error, the file as it was; the model was told.
        m_server.enqueueToolCall(QStringLiteral("w1"),
                                 QStringLiteral("write_file"),
                                 R"({"path": "data.csv", "content": "gone"})");
        m_server.enqueueText(QStringLiteral("It is read-only."));
        QSignalSpy finished(window.agent(), &Agent::finished);
        window.submitPrompt(QStringLiteral("overwrite it"));
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(contentOf(target + QStringLiteral("/data.csv")), QByteArray("a,b\n1,2\n"));
        QVERIFY(m_server.requests().size() >= 2);
        const QByteArray request = m_server.requests().at(m_server.requests().size() - 2).body;
        QVERIFY2(request.contains("read-only"), request.constData());
        const QByteArray toolResult = m_server.requests().last().body;
        QVERIFY2(toolResult.contains("Read-only file system"), toolResult.constData());
        window.controller()->shutDown(ConversationController::ShutDownMode::Wait);
    }

    void aFolderDeletedWhileOpenSaysSoAndTheConversationStays()
    {
        auto project = std::make_unique<QTemporaryDir>();
        const QString root = QFileInfo(project->path()).canonicalFilePath();
        MainWindow window(fakeEngineSettings(m_server, m_data.path()));
        window.show();
        QVERIFY(window.openFolder(root));
        project.reset(); // deleted while open
        QVERIFY(!QFileInfo::exists(root));
        m_server.enqueueToolCall(QStringLiteral("w1"),
                                 QStringLiteral("write_file"),
                                 R"({"path": "notes.md", "content": "x"})");
        m_server.enqueueText(QStringLiteral("The folder is gone."));
        QSignalSpy problems(window.controller(), &ConversationController::checkpointProblem);
        QSignalSpy finished(window.agent(), &Agent::finished);
        window.submitPrompt(QStringLiteral("write a note"));
        QVERIFY(finished.wait(kWaitMs));
        QVERIFY(!problems.isEmpty());
        QVERIFY2(problems.first().at(0).toString().contains(QLatin1String("gone")),
                 qPrintable(problems.first().at(0).toString()));
        QVERIFY(!QFileInfo::exists(root)); // not made again behind the person's back
        const QByteArray toolResult = m_server.requests().last().body;
        QVERIFY2(toolResult.contains("\\\"status\\\":\\\"error\\\""), toolResult.constData());
        // Nothing lost: the conversation and its messages are in the store.
        const QString id = window.controller()->conversationId();
        window.controller()->recorder()->flushNow();
        QVERIFY(window.controller()->store()->conversation(id));
        QVERIFY(window.controller()->store()->messages(id).value().size() >= 4);
        window.controller()->shutDown(ConversationController::ShutDownMode::Wait);
    }

    void ctrlPGoesToAFileOfTheFolderAndOpensItInTheEditor()
    {
        MainWindow window(fakeEngineSettings(m_server, m_data.path()));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QAction *goToFile = windowAction(window, QStringLiteral("goToFile"));
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
        QTRY_COMPARE_WITH_TIMEOUT(window.editorPane()->currentFile(),
                                  QStringLiteral("analysis/steps/clean_data.py"),
                                  kWaitMs);
        QVERIFY(!open->isVisible());
    }
};

QTEST_MAIN(TestProjectWindow)
#include "tst_projectwindow.moc"
