#include <app/agent/agent.h>
#include <app/appsettings.h>
#include <app/controller/conversationcontroller.h>
#include <app/store/conversationrecorder.h>
#include <app/store/conversationstore.h>
#include <sandbox/sandboxsession.h>
#include <support/dockercheck.h>
#include <support/fakeopenaiserver.h>
#include <support/processinfo.h>
#include <support/sanitizers.h>
#include <support/testtimeouts.h>
#include <ui/actions/commandpalette.h>
#include <ui/chat/chatpane.h>
#include <ui/chat/promptedit.h>
#include <ui/chat/transcriptdelegate.h>
#include <ui/chat/transcriptmodel.h>
#include <ui/chat/welcomepanel.h>
#include <ui/console/consolepane.h>
#include <ui/conversations/conversationlistmodel.h>
#include <ui/conversations/conversationspane.h>
#include <ui/editor/codeeditor.h>
#include <ui/editor/editorpane.h>
#include <ui/files/filepreview.h>
#include <ui/files/filespane.h>
#include <ui/files/workspacemodel.h>
#include <ui/firstpaint.h>
#include <ui/mainwindow.h>
#include <ui/theme.h>
#include <ui/translations.h>

#include <Qsci/qscilexer.h>
#include <Qsci/qscilexerpython.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QFileSystemModel>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QStatusBar>
#include <QTabBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QTreeView>
#include <QtTest>

#include <algorithm>
#include <functional>

using namespace Sandcastle;
using Sandcastle::Testing::FakeOpenAiServer;
using Sandcastle::Testing::kWaitMs;
using Sandcastle::Testing::LoadGauge;
using Sandcastle::Testing::residentKiB;

namespace {

// Clicks a part of a transcript row (a card's header, "Open in editor", Retry) where the
// delegate paints it, as a person would.
bool clickTranscript(ChatPane *chat, int row, TranscriptDelegate::Hit part)
{
    QListView *view = chat->transcriptView();
    const QModelIndex index = chat->transcriptModel()->index(row);
    view->scrollTo(index);
    const QRect rect = chat->transcriptDelegate()->partRect(index, part);
    if (!index.isValid() || rect.isEmpty())
        return false;
    QTest::mouseClick(
        view->viewport(), Qt::LeftButton, {}, view->visualRect(index).topLeft() + rect.center());
    return true;
}

} // namespace

// The real main window, offscreen, driven through the keyboard as a person would.
class TestMainWindow : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dataDir;

    AppSettings settingsFor(const FakeOpenAiServer &server) const
    {
        AppSettings settings;
        settings.dataDir = m_dataDir.path();
        settings.baseUrl = server.baseUrl();
        settings.model = QStringLiteral("fake-model");
        settings.image = SandboxConfig::fromEnvironment().image;
        settings.engine = SandboxConfig::fromEnvironment().engine;
        return settings;
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void showsFourPanesAndStartsWithThePromptFocused()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        MainWindow window(settingsFor(server));
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QCOMPARE(window.windowTitle(), QStringLiteral("Sandcastle — New conversation"));
        for (QWidget *pane : {static_cast<QWidget *>(window.chatPane()),
                              static_cast<QWidget *>(window.editor()),
                              static_cast<QWidget *>(window.console()),
                              static_cast<QWidget *>(window.filesPane())}) {
            QVERIFY(pane->isVisible());
            QVERIFY(pane->width() > 50);
            QVERIFY(pane->height() > 50);
        }
        // chat left of the editor, files right of it, console under it
        QVERIFY(window.chatPane()->mapTo(&window, QPoint()).x()
                < window.editor()->mapTo(&window, QPoint()).x());
        QVERIFY(window.filesPane()->mapTo(&window, QPoint()).x()
                > window.editor()->mapTo(&window, QPoint()).x());
        QVERIFY(window.console()->mapTo(&window, QPoint()).y()
                > window.editor()->mapTo(&window, QPoint()).y());
        QCOMPARE(QApplication::focusWidget(),
                 static_cast<QWidget *>(window.chatPane()->promptEdit()));
        QVERIFY(window.editor()->lexer() != nullptr);
        QCOMPARE(QString::fromLatin1(window.editor()->lexer()->language()),
                 QStringLiteral("Python"));
    }

    void turningTheNetworkOnIsVisible()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        MainWindow window(settingsFor(server));
        auto *status = window.findChild<QLabel *>(QStringLiteral("sandboxStatus"));
        QVERIFY(status);
        QVERIFY(status->text().contains(QStringLiteral("network off")));
        AppSettings withNetwork = window.settings();
        withNetwork.network = true;
        window.applySettings(withNetwork);
        QVERIFY(status->text().contains(QStringLiteral("network ON")));
        QVERIFY(window.session()->config().network);
    }

    void splitterSizesSurviveARestart()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        QList<int> saved;
        {
            MainWindow window(settingsFor(server));
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            auto *splitter = window.findChild<QSplitter *>(QStringLiteral("mainSplitter"));
            QVERIFY(splitter);
            splitter->setSizes({500, 400, 300});
            saved = splitter->sizes();
            window.close();
        }
        MainWindow again(settingsFor(server));
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        // The platform may move the window by a frame's width; the layout must come back.
        const QList<int> restored
            = again.findChild<QSplitter *>(QStringLiteral("mainSplitter"))->sizes();
        QCOMPARE(restored.size(), saved.size());
        for (qsizetype i = 0; i < saved.size(); ++i)
            QVERIFY2(qAbs(restored.at(i) - saved.at(i)) <= 8,
                     qPrintable(QStringLiteral("pane %1: %2 vs %3")
                                    .arg(i)
                                    .arg(restored.at(i))
                                    .arg(saved.at(i))));
    }

    void aPromptTypedAndEnteredRunsTheWholePath()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        const QString code
            = QStringLiteral("numbers = [1, 2, 3, 4, 5]; print(sum(numbers) / len(numbers))");
        server.enqueueToolCall(QStringLiteral("call_ui"),
                               QStringLiteral("run_python"),
                               "{\"code\": \"" + code.toUtf8() + "\"}");
        server.enqueueText(QStringLiteral("The average of the numbers is 3.0."));

        MainWindow window(settingsFor(server));
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QSignalSpy finished(window.agent(), &Agent::finished);
        QWidget *focused = QApplication::focusWidget();
        QVERIFY(focused);
        QTest::keyClicks(
            focused,
            QStringLiteral("Calculate the average of the numbers in this list: [1, 2, 3, 4, 5]"));
        QTest::keyClick(focused, Qt::Key_Return);
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("answered"));

        QCOMPARE(window.editor()->text(), code);
        QVERIFY2(window.console()->toPlainText().contains(QStringLiteral("3.0")),
                 qPrintable(window.console()->toPlainText()));
        const QString transcript = window.chatPane()->transcriptText();
        QVERIFY(transcript.contains(QStringLiteral("Calculate the average")));
        QVERIFY2(transcript.contains(QStringLiteral("The average of the numbers is 3.0.")),
                 qPrintable(transcript));
        QVERIFY(
            window.windowTitle().startsWith(QStringLiteral("Sandcastle — Calculate the average")));
        QVERIFY(window.chatPane()->promptEdit()->toPlainText().isEmpty());
    }

    void theCodeStreamsInBeforeTheCallCompletesAndItsFilesPreviewInThePane()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        const QString code
            = QStringLiteral("import csv\n"
                             "import matplotlib\n"
                             "matplotlib.use('Agg')\n"
                             "import matplotlib.pyplot as plt\n"
                             "rows = [('jan', 3), ('feb', 5), ('mar', 4)]\n"
                             "with open('table.csv', 'w', newline='') as f:\n"
                             "    csv.writer(f).writerows([('month', 'total')] + rows)\n"
                             "plt.bar([r[0] for r in rows], [r[1] for r in rows])\n"
                             "plt.savefig('chart.png')\n"
                             "print('made both')\n");
        server.enqueueToolCall(QStringLiteral("files"),
                               QStringLiteral("run_python"),
                               QJsonDocument(QJsonObject{{QStringLiteral("code"), code}})
                                   .toJson(QJsonDocument::Compact),
                               5);
        server.enqueueText(QStringLiteral("The chart is in chart.png."));
        MainWindow window(settingsFor(server));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.newConversation();

        // What the editor showed while the model was still writing the call.
        bool callComplete = false;
        QStringList seenWhileWriting;
        bool readOnlyWhileWriting = true;
        connect(window.agent(), &Agent::toolCall, this, [&] { callComplete = true; });
        connect(window.editor(), &CodeEditor::textChanged, this, [&] {
            if (callComplete || window.editor()->text().isEmpty())
                return;
            seenWhileWriting << window.editor()->text();
            readOnlyWhileWriting = readOnlyWhileWriting && window.editor()->isAgentWriting();
        });
        QSignalSpy shown(window.filesPane(), &FilesPane::previewShown);
        QSignalSpy finished(window.agent(), &Agent::finished);
        window.submitPrompt(QStringLiteral("chart these months"));
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.last().at(0).toString(), QStringLiteral("answered"));
        QVERIFY2(seenWhileWriting.size() >= 5, qPrintable(seenWhileWriting.join(QLatin1Char('|'))));
        for (const QString &partial : std::as_const(seenWhileWriting))
            QVERIFY2(code.startsWith(partial), qPrintable(partial));
        QVERIFY(seenWhileWriting.first().size() < code.size() / 2); // it grew as it came
        QVERIFY(readOnlyWhileWriting);
        QCOMPARE(window.editor()->text(), code);
        QTRY_VERIFY(window.console()->toPlainText().contains(QStringLiteral("made both")));

        // Both files are in the tree, marked as the last run's, and each preview opens.
        FilesPane *files = window.filesPane();
        const QString root = files->root();
        QTRY_VERIFY_WITH_TIMEOUT(
            files->model()->index(root + QStringLiteral("/chart.png")).isValid()
                && files->model()->index(root + QStringLiteral("/table.csv")).isValid(),
            kWaitMs);
        const QModelIndex chart = files->model()->index(root + QStringLiteral("/chart.png"));
        const QModelIndex table = files->model()->index(root + QStringLiteral("/table.csv"));
        QTRY_VERIFY(chart.data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(table.data(Qt::FontRole).value<QFont>().bold());
        // The first of the run's files is previewed by itself; a click shows the other, and
        // a click back the first.
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), kWaitMs);
        std::pair<QModelIndex, FilePreview::Kind> order[]
            = {{chart, FilePreview::Kind::Image}, {table, FilePreview::Kind::Table}};
        if (shown.last().at(0).toString() == QStringLiteral("chart.png"))
            std::swap(order[0], order[1]);
        for (const auto &[index, kind] : order) {
            shown.clear();
            // Selected in the tree as a click or the arrow keys do (an earlier test may have
            // left the files pane narrow in the shared settings, so not by position).
            files->view()->scrollTo(index);
            files->view()->setCurrentIndex(index);
            QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), kWaitMs);
            QVERIFY2(
                !shown.isEmpty(),
                qPrintable(QStringLiteral("no preview of %1; current %2; files %3")
                               .arg(files->model()->filePath(index),
                                    files->model()->filePath(files->view()->currentIndex()),
                                    QDir(root).entryList(QDir::Files).join(QLatin1Char(',')))));
            QCOMPARE(shown.last().at(1).value<FilePreview::Kind>(), kind);
        }
        // The chat's card lists them.
        TranscriptModel *transcript = window.chatPane()->transcriptModel();
        const QStringList made = transcript->index(transcript->rowOfCall(QStringLiteral("files")))
                                     .data(TranscriptModel::FilesRole)
                                     .toStringList();
        QVERIFY2(made.contains(QStringLiteral("chart.png"))
                     && made.contains(QStringLiteral("table.csv")),
                 qPrintable(made.join(QLatin1Char(','))));
    }

    void ctrlPeriodStopsTheAgentDuringARun()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueToolCall(
            QStringLiteral("long"),
            QStringLiteral("run_python"),
            "{\"code\": \"import time\\nprint('started', flush=True)\\ntime.sleep(600)\"}");
        MainWindow window(settingsFor(server));
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        window.newConversation();
        QSignalSpy finished(window.agent(), &Agent::finished);
        window.submitPrompt(QStringLiteral("wait a long time"));
        QTRY_VERIFY_WITH_TIMEOUT(
            window.console()->toPlainText().contains(QStringLiteral("started")), 60000);
        window.chatPane()->promptEdit()->setFocus();
        QTRY_VERIFY(window.chatPane()->promptEdit()->hasFocus());
        QTest::keySequence(window.chatPane()->promptEdit(),
                           QKeySequence(Qt::CTRL | Qt::Key_Period));
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 30000);
        QCOMPARE(finished.last().at(0).toString(), QStringLiteral("stopped"));
        QCOMPARE(server.requests().size(), 1); // the model is not asked again
        TranscriptModel *transcript = window.chatPane()->transcriptModel();
        const QString status = transcript->index(transcript->rowOfCall(QStringLiteral("long")))
                                   .data(TranscriptModel::StatusRole)
                                   .toString();
        QVERIFY2(status != QStringLiteral("running"), qPrintable(status));
        // The window is ready for the next request.
        QVERIFY(window.findChild<QPushButton *>(QStringLiteral("sendButton"))->text()
                == QStringLiteral("Send"));
    }

    void askFirstShowsTheCodeAndWaitsForTheRunButton()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueToolCall(
            QStringLiteral("a"), QStringLiteral("run_python"), "{\"code\": \"print('agent')\"}");
        server.enqueueText(QStringLiteral("done"));
        AppSettings settings = settingsFor(server);
        settings.askFirst = true;
        MainWindow window(settings);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy asked(window.agent(), &Agent::approvalRequested);
        QSignalSpy finished(window.agent(), &Agent::finished);
        window.submitPrompt(QStringLiteral("go"));
        QVERIFY(asked.wait(30000));
        auto *bar = window.findChild<QWidget *>(QStringLiteral("approvalBar"));
        QVERIFY(bar && bar->isVisible());
        QCOMPARE(window.editor()->text(), QStringLiteral("print('agent')"));
        QVERIFY(!window.editor()->isReadOnly());
        window.editor()->setText(QStringLiteral("print('person')"));
        QTest::mouseClick(window.findChild<QPushButton *>(QStringLiteral("approveRun")),
                          Qt::LeftButton);
        QVERIFY(finished.wait(60000));
        QVERIFY(!bar->isVisible());
        QVERIFY(window.console()->toPlainText().contains(QStringLiteral("person")));
    }

    void thePersonCanEditAndRerunTheCode()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        MainWindow window(settingsFor(server));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.newConversation(); // not the one an earlier test left open
        QSignalSpy finished(window.session(), &SandboxSession::finished);
        window.editor()->setText(
            QStringLiteral("open('note.txt', 'w').write('hi')\nprint('edited', 2 + 2)"));
        window.runEditorCode();
        QVERIFY(finished.wait(120000));
        QVERIFY(window.console()->toPlainText().contains(QStringLiteral("edited 4")));
        // and the agent is told with the next message
        server.enqueueText(QStringLiteral("I see."));
        QSignalSpy answered(window.agent(), &Agent::finished);
        QSignalSpy saved(window.controller()->recorder(), &ConversationRecorder::turnSaved);
        window.submitPrompt(QStringLiteral("what did I do?"));
        QVERIFY(answered.wait(60000));
        QVERIFY(!saved.isEmpty() || saved.wait(kWaitMs)); // on disk, read from another connection
        const QByteArray asked = server.requests().last().body;
        QVERIFY(asked.contains("The person ran this code"));
        QVERIFY(asked.contains("edited"));
        // The person's run is in the store with the conversation.
        ConversationStore store;
        QVERIFY(store.open(ConversationStore::defaultPath(m_dataDir.path())));
        const QList<StoredRun> runs = store.runs(window.conversationId()).value();
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs.at(0).origin, QStringLiteral("person"));
        QCOMPARE(runs.at(0).status, QStringLiteral("ok"));
        QVERIFY(runs.at(0).outputTail.contains(QStringLiteral("edited 4")));
        QTRY_VERIFY_WITH_TIMEOUT(
            window.filesPane()
                ->model()
                ->index(window.filesPane()->root() + QStringLiteral("/note.txt"))
                .isValid(),
            kWaitMs);
    }

    void theLastConversationReopensAtTheNextStartAndGoesOn()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        QString id;
        {
            MainWindow window(settingsFor(server));
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.newConversation();
            id = window.conversationId();
            server.enqueueText(QStringLiteral("Penguins live in the south."));
            QSignalSpy answered(window.agent(), &Agent::finished);
            QTest::keyClicks(window.chatPane()->promptEdit(),
                             QStringLiteral("Where do penguins live?"));
            QTest::keyClick(window.chatPane()->promptEdit(), Qt::Key_Return);
            QVERIFY(answered.wait(60000));
            QCOMPARE(window.windowTitle(), QStringLiteral("Sandcastle — Where do penguins live?"));
            window.close();
        }
        MainWindow again(settingsFor(server));
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QCOMPARE(again.conversationId(), id);
        QCOMPARE(again.windowTitle(), QStringLiteral("Sandcastle — Where do penguins live?"));
        QTRY_VERIFY(
            again.chatPane()->transcriptText().contains(QStringLiteral("Where do penguins live?")));
        QVERIFY(again.chatPane()->transcriptText().contains(
            QStringLiteral("Penguins live in the south.")));
        QCOMPARE(again.filesPane()->root(), m_dataDir.filePath(QStringLiteral("workspaces/") + id));

        // The next question goes to the model with the history.
        server.enqueueText(QStringLiteral("Mostly Antarctica."));
        QSignalSpy answered(again.agent(), &Agent::finished);
        QSignalSpy saved(again.controller()->recorder(), &ConversationRecorder::turnSaved);
        again.submitPrompt(QStringLiteral("Which continent?"));
        QVERIFY(answered.wait(60000));
        QVERIFY(!saved.isEmpty() || saved.wait(kWaitMs)); // on disk, read from another connection
        const nlohmann::json sent
            = nlohmann::json::parse(server.requests().last().body.toStdString());
        QCOMPARE(sent["messages"].size(), size_t(4));
        QCOMPARE(sent["messages"][1]["content"].get<std::string>(),
                 std::string("Where do penguins live?"));

        // Ctrl+N: an empty conversation; the old one stays stored.
        QTest::keySequence(&again, QKeySequence::New);
        QVERIFY(again.conversationId() != id);
        QCOMPARE(again.windowTitle(), QStringLiteral("Sandcastle — New conversation"));
        QVERIFY(!again.chatPane()->transcriptText().contains(QStringLiteral("penguins")));
        ConversationStore store;
        QVERIFY(store.open(ConversationStore::defaultPath(m_dataDir.path())));
        QCOMPARE(store.messages(id).value().size(), size_t(4));
        QVERIFY(!store.conversation(again.conversationId())); // saved once something happens
    }

    void anErrorAndItsFixAreTwoAttemptsAndThePersonsCtrlEnterRunsTheirEdit()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        MainWindow window(settingsFor(server));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.newConversation();
        server.enqueueToolCall(QStringLiteral("a1"),
                               QStringLiteral("run_python"),
                               "{\"code\": \"print(undefined_name)\"}");
        server.enqueueToolCall(
            QStringLiteral("a2"), QStringLiteral("run_python"), "{\"code\": \"print(6 * 7)\"}");
        server.enqueueText(QStringLiteral("It is 42."));
        QSignalSpy answered(window.agent(), &Agent::finished);
        QTest::keyClicks(window.chatPane()->promptEdit(), QStringLiteral("six times seven"));
        QTest::keyClick(window.chatPane()->promptEdit(), Qt::Key_Return);
        QVERIFY(answered.wait(120000));
        EditorPane *pane = window.editorPane();
        QCOMPARE(pane->attemptText(), QStringLiteral("Attempt 2 of 2 · ok"));
        QCOMPARE(pane->history().at(1).status, QStringLiteral("error"));
        QTest::mouseClick(pane->findChild<QToolButton *>(QStringLiteral("diffButton")),
                          Qt::LeftButton);
        QVERIFY(pane->isDiffShown());
        QVERIFY(pane->diffView()->text().contains(QStringLiteral("-print(undefined_name)")));
        QVERIFY(pane->diffView()->text().contains(QStringLiteral("+print(6 * 7)")));
        pane->setDiffShown(false);

        // The person edits attempt 2 and presses Ctrl+Enter: the console shows the new output.
        QSignalSpy ran(window.session(), &SandboxSession::finished);
        window.editor()->setText(QStringLiteral("print('person says', 6 * 7 + 1)"));
        window.editor()->setFocus();
        QTest::keyClick(window.editor(), Qt::Key_Return, Qt::ControlModifier);
        QVERIFY(ran.wait(60000));
        QTRY_VERIFY(window.console()->toPlainText().contains(QStringLiteral("person says 43")));

        // The chat shows each call as a card with how it ended; "Open in editor" on the first
        // brings back attempt 1.
        TranscriptModel *transcript = window.chatPane()->transcriptModel();
        const int first = transcript->rowOfCall(QStringLiteral("a1"));
        const int second = transcript->rowOfCall(QStringLiteral("a2"));
        QVERIFY(first >= 0 && second > first);
        QCOMPARE(transcript->index(first).data(TranscriptModel::StatusRole).toString(),
                 QStringLiteral("error"));
        QCOMPARE(transcript->index(first).data(TranscriptModel::ExitCodeRole).toInt(), 1);
        QCOMPARE(transcript->index(second).data(TranscriptModel::StatusRole).toString(),
                 QStringLiteral("ok"));
        QVERIFY(transcript->index(second).data(TranscriptModel::DurationRole).toLongLong() >= 0);
        QVERIFY(clickTranscript(window.chatPane(), first, TranscriptDelegate::Hit::OpenInEditor));
        QCOMPARE(pane->attemptText(), QStringLiteral("Attempt 1 of 2 · error"));
        QCOMPARE(window.editor()->text(), QStringLiteral("print(undefined_name)"));
    }

    void aWorkspaceFileOpensInAnEditorTabAndCtrlSSavesIt()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        MainWindow window(settingsFor(server));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.newConversation();
        const QDir workspace(window.filesPane()->root());
        QFile job(workspace.filePath(QStringLiteral("job.py")));
        QVERIFY(job.open(QIODevice::WriteOnly));
        job.write("total = 1\n");
        job.close();
        QVERIFY(QFile::link(QStringLiteral("/etc/passwd"),
                            workspace.filePath(QStringLiteral("passwd"))));

        EditorPane *pane = window.editorPane();
        const int tabs = pane->tabBar()->count();
        // A link planted to a host file is refused, never read.
        Q_EMIT window.filesPane()->openInEditorRequested(QStringLiteral("passwd"));
        QCOMPARE(pane->tabBar()->count(), tabs);
        QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("Cannot edit")),
                 qPrintable(window.statusBar()->currentMessage()));
        QVERIFY(!window.editor()->text().contains(QStringLiteral("root:")));

        Q_EMIT window.filesPane()->openInEditorRequested(QStringLiteral("job.py"));
        QCOMPARE(pane->tabBar()->count(), tabs + 1);
        QCOMPARE(pane->currentFile(), QStringLiteral("job.py"));
        QCOMPARE(window.editor()->text(), QStringLiteral("total = 1\n"));
        QVERIFY(QTest::qWaitForWindowActive(&window));
        window.editor()->setFocus();
        QTest::keyClick(window.editor(), Qt::Key_End);
        QTest::keyClicks(window.editor(), QStringLiteral(" + 41"));
        QVERIFY(
            pane->tabBar()->tabText(pane->tabBar()->currentIndex()).endsWith(QStringLiteral("•")));
        QTest::keyClick(window.editor(), Qt::Key_S, Qt::ControlModifier);
        QVERIFY(job.open(QIODevice::ReadOnly));
        QCOMPARE(job.readAll(), QByteArray("total = 1 + 41\n"));
        QVERIFY(!pane->isModified(pane->tabBar()->currentIndex()));
    }

    void fiftyMegabytesOfOutputLeaveTheWindowResponsive()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        MainWindow window(settingsFor(server));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.newConversation();
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->state() == SandboxSession::State::Ready, 60000);
        const qint64 rssBefore = residentKiB();
        // The event loop's pulse: a 5 ms timer; the longest gap between its ticks is the stall.
        QElapsedTimer clock;
        clock.start();
        qint64 last = 0;
        QList<qint64> gaps; // every tick's wait, the longest first at the end
        qint64 peakRss = rssBefore;
        int ticks = 0;
        QTimer pulse;
        pulse.setInterval(5);
        connect(&pulse, &QTimer::timeout, this, [&] {
            const qint64 now = clock.elapsed();
            gaps << now - last;
            last = now;
            if (++ticks % 20 == 0)
                peakRss = qMax(peakRss, residentKiB());
        });
        QSignalSpy ran(window.session(), &SandboxSession::finished);
        // Before and after only: the flood's own load (the container, the engine) is what the
        // window must stay responsive under.
        const LoadGauge load(LoadGauge::Reads::BeforeAndAfter);
        window.editor()->setText(QStringLiteral("import sys\nline = 'x' * 99 + '\\n'\nfor _ in "
                                                "range(500000):\n    sys.stdout.write(line)\n"));
        last = clock.elapsed();
        pulse.start();
        window.runEditorCode();
        QVERIFY(ran.wait(240000));
        pulse.stop();
        const auto result = ran.last().at(0).value<ExecutionResult>();
        QVERIFY2(result.isOk(), qPrintable(result.error));
        std::sort(gaps.begin(), gaps.end(), std::greater<>());
        gaps.resize(qMax<qsizetype>(gaps.size(), 2)); // a run too short to tick counts as 0 ms
        qInfo("50 MB of output in %lld ms: longest event-loop stalls %lld and %lld ms, RSS %lld "
              "-> %lld KiB (peak)",
              result.durationMs,
              gaps.at(0),
              gaps.at(1),
              rssBefore,
              peakRss);
        // Responsive: the loop turns at least every 100 ms. One longer gap is allowed when it
        // is not a freeze a person would see (the scheduler of a shared 2-core machine gave one
        // of 114 ms on a CI run beside other tests; a blocking flood stalls every frame). Both
        // on an idle machine: on a busy one, times how much slower it runs the test (LoadGauge).
        // bench_ui's "console" row measures the stall of a 200 MB flood precisely.
        const LoadGauge::Budget second = load.budget(Sandcastle::Testing::timeBudgetMs(100));
        const LoadGauge::Budget first = load.budget(Sandcastle::Testing::timeBudgetMs(250));
        QVERIFY2(gaps.at(1) <= second.ms,
                 qPrintable(QStringLiteral("two stalls over %1: %2 and %3 ms")
                                .arg(second.describe())
                                .arg(gaps.at(0))
                                .arg(gaps.at(1))));
        QVERIFY2(
            gaps.at(0) <= first.ms,
            qPrintable(
                QStringLiteral("a stall of %1 ms, over %2").arg(gaps.at(0)).arg(first.describe())));
        QVERIFY2(peakRss - rssBefore < Sandcastle::Testing::memoryBudgetKiB(256 * 1024),
                 qPrintable(QStringLiteral("RSS grew by %1 KiB").arg(peakRss - rssBefore)));
        QVERIFY(window.console()->document()->blockCount()
                <= window.console()->maximumBlockCount() + 1);
        // The footer comes after the flood, which is painted a slice per frame.
        QTRY_VERIFY_WITH_TIMEOUT(
            window.console()->toPlainText().contains(QStringLiteral("full output in")), 60000);
    }

    void switchingConversationsRestoresEachTranscript()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        MainWindow window(settingsFor(server));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto ask = [&](const QString &prompt, const QString &answer) {
            server.enqueueText(answer);
            QSignalSpy answered(window.agent(), &Agent::finished);
            QTest::keyClicks(window.chatPane()->promptEdit(), prompt);
            QTest::keyClick(window.chatPane()->promptEdit(), Qt::Key_Return);
            return answered.wait(60000);
        };
        window.newConversation();
        QVERIFY(ask(QStringLiteral("Alpha question"), QStringLiteral("Alpha answer")));
        const QString alpha = window.conversationId();
        QTest::keySequence(&window, QKeySequence::New);
        QVERIFY(ask(QStringLiteral("Beta question"), QStringLiteral("Beta answer")));
        const QString beta = window.conversationId();

        ConversationsPane *pane = window.conversationsPane();
        QListView *list = pane->view();
        auto *model = qobject_cast<ConversationListModel *>(list->model());
        QVERIFY(model);
        QCOMPARE(model->idAt(0), beta); // newest first
        QCOMPARE(list->currentIndex().row(), 0);
        const QRect alphaRow = list->visualRect(model->index(model->rowOf(alpha)));
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, alphaRow.center());
        QCOMPARE(window.conversationId(), alpha);
        QCOMPARE(window.windowTitle(), QStringLiteral("Sandcastle — Alpha question"));
        QVERIFY(window.chatPane()->transcriptText().contains(QStringLiteral("Alpha answer")));
        QVERIFY(!window.chatPane()->transcriptText().contains(QStringLiteral("Beta")));
        QVERIFY(window.openConversation(beta));
        QVERIFY(window.chatPane()->transcriptText().contains(QStringLiteral("Beta answer")));
        QVERIFY(!window.chatPane()->transcriptText().contains(QStringLiteral("Alpha")));

        // Full-text search narrows the list to the conversations that mention the words.
        QTest::keyClicks(pane->searchBox(), QStringLiteral("alph"));
        QCOMPARE(model->rowCount(), 1);
        QCOMPARE(model->idAt(0), alpha);
        QVERIFY(model->index(0)
                    .data(ConversationListModel::SnippetRole)
                    .toString()
                    .contains(QStringLiteral("[Alpha]")));
        pane->searchBox()->clear();
        QVERIFY(model->rowCount() >= 2);

        // Renamed in place; the window follows when it is the open one.
        QVERIFY(model->setData(model->index(model->rowOf(beta)), QStringLiteral("Second one")));
        QCOMPARE(window.windowTitle(), QStringLiteral("Sandcastle — Second one"));

        // Exported as Markdown.
        QTemporaryDir exports;
        const QString md = exports.filePath(QStringLiteral("alpha.md"));
        QVERIFY(window.exportConversation(alpha, md, false));
        QFile file(md);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("Alpha question"));

        // Deleted after a yes; the open conversation gives way to a new one.
        QTimer::singleShot(200, this, [] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            if (box)
                box->button(QMessageBox::Yes)->click();
        });
        pane->confirmDelete(beta);
        QCOMPARE(model->rowOf(beta), -1);
        QVERIFY(window.conversationId() != beta);
        QCOMPARE(window.windowTitle(), QStringLiteral("Sandcastle — New conversation"));
        // Its containers and workspace go in the background (the engine can be slow).
        QTRY_VERIFY_WITH_TIMEOUT(
            !QFileInfo::exists(m_dataDir.filePath(QStringLiteral("workspaces/") + beta)), 30000);
        // A no keeps it.
        QTimer::singleShot(200, this, [] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            if (box)
                box->button(QMessageBox::Cancel)->click();
        });
        pane->confirmDelete(alpha);
        QVERIFY(model->rowOf(alpha) >= 0);
    }

    void upRecallsPromptsAndDroppedFilesLandInTheWorkspace()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        MainWindow window(settingsFor(server));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.newConversation();
        PromptEdit *prompt = window.chatPane()->promptEdit();
        for (const QString &text : {QStringLiteral("first question"), QStringLiteral("second")}) {
            server.enqueueText(QStringLiteral("ok"));
            QSignalSpy answered(window.agent(), &Agent::finished);
            QTest::keyClicks(prompt, text);
            QTest::keyClick(prompt, Qt::Key_Return);
            QVERIFY(answered.wait(60000));
        }
        QTest::keyClicks(prompt, QStringLiteral("draft"));
        QTest::keyClick(prompt, Qt::Key_Up);
        QCOMPARE(prompt->toPlainText(), QStringLiteral("second"));
        QTest::keyClick(prompt, Qt::Key_Up);
        QCOMPARE(prompt->toPlainText(), QStringLiteral("first question"));
        QTest::keyClick(prompt, Qt::Key_Down);
        QTest::keyClick(prompt, Qt::Key_Down);
        QCOMPARE(prompt->toPlainText(), QStringLiteral("draft"));
        prompt->clear();

        QTemporaryDir host;
        QFile csv(host.filePath(QStringLiteral("sales.csv")));
        QVERIFY(csv.open(QIODevice::WriteOnly));
        csv.write("month,total\njan,3\n");
        csv.close();
        QCOMPARE(window.uploadFiles({csv.fileName()}), QStringList{QStringLiteral("sales.csv")});
        QVERIFY(QFileInfo::exists(window.filesPane()->root() + QStringLiteral("/sales.csv")));
        QVERIFY(prompt->toPlainText().contains(QStringLiteral("sales.csv")));
        // A folder dropped with files is opened to work in; the files are not copied into it.
        const QString before = window.filesPane()->root();
        QVERIFY(window.uploadFiles({host.path(), csv.fileName()}).isEmpty());
        QCOMPARE(window.filesPane()->root(), QFileInfo(host.path()).canonicalFilePath());
        QVERIFY(!QFileInfo::exists(host.filePath(QStringLiteral("sales (2).csv"))));
        QVERIFY(
            window.chatPane()->transcriptText().contains(QStringLiteral("not opened or added")));
        QVERIFY(before != window.filesPane()->root());
    }

    void everyMenuActionHasAnIconSharpAtHighDpi()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        MainWindow window(settingsFor(server));
        const QList<QAction *> actions = window.allActions();
        QVERIFY(actions.size() >= 9);
        for (QAction *action : actions) {
            // A checkable item shows its check instead (View's panes, themes).
            if (action->isCheckable() && action->icon().isNull())
                continue;
            QVERIFY2(!action->icon().isNull(), qPrintable(action->text()));
            // Drawn from the SVG at twice the pixels, not scaled up from a small bitmap.
            const QPixmap big = action->icon().pixmap(QSize(32, 32), 2.0);
            QCOMPARE(big.size(), QSize(64, 64));
            const QImage image = big.toImage();
            int inked = 0;
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x)
                    inked += qAlpha(image.pixel(x, y)) > 0 ? 1 : 0;
            QVERIFY2(inked > 40, qPrintable(action->text()));
        }
        // Every icon of the set is a valid SVG (the buttons' and context menus' too).
        const QStringList files = QDir(QStringLiteral(":/icons/actions")).entryList();
        QVERIFY(files.size() >= 20);
        for (const QString &file : files) {
            const QIcon icon(QStringLiteral(":/icons/actions/") + file);
            QVERIFY2(!icon.isNull() && !icon.pixmap(QSize(48, 48)).toImage().isNull(),
                     qPrintable(file));
        }
    }

    void theCommandPaletteRunsAnyActionAndF1ListsTheShortcuts()
    {
        QAction sample(QStringLiteral("Stop after this &step…"));
        QCOMPARE(CommandPalette::label(&sample), QStringLiteral("Stop after this step"));
        QVERIFY(CommandPalette::matches(QStringLiteral("New conversation"),
                                        QStringLiteral("conv NEW")));
        QVERIFY(
            !CommandPalette::matches(QStringLiteral("New conversation"), QStringLiteral("quit")));

        FakeOpenAiServer server;
        QVERIFY(server.listen());
        MainWindow window(settingsFor(server));
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        server.enqueueText(QStringLiteral("ok"));
        QSignalSpy answered(window.agent(), &Agent::finished);
        window.submitPrompt(QStringLiteral("something to leave"));
        QVERIFY(answered.wait(60000));
        const QString before = window.conversationId();
        bool sawPalette = false;
        QTimer::singleShot(300, this, [&] {
            auto *palette = qobject_cast<CommandPalette *>(QApplication::activeModalWidget());
            if (!palette)
                return;
            sawPalette = true;
            QTest::keyClicks(palette->filterBox(), QStringLiteral("new conv"));
            QCOMPARE(palette->list()->count(), 1);
            QTest::keyClick(palette->filterBox(), Qt::Key_Return);
        });
        QTest::keySequence(&window, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
        QVERIFY(sawPalette);
        QVERIFY(window.conversationId() != before);
        QCOMPARE(window.windowTitle(), QStringLiteral("Sandcastle — New conversation"));

        int rows = 0;
        bool hasNew = false;
        QTimer::singleShot(300, this, [&] {
            auto *dialog = qobject_cast<ShortcutsDialog *>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            auto *table = dialog->findChild<QTableWidget *>(QStringLiteral("shortcutsTable"));
            rows = table->rowCount();
            for (int r = 0; r < rows; ++r)
                hasNew
                    = hasNew
                      || table->item(r, 1)->text()
                             == QKeySequence(QKeySequence::New).toString(QKeySequence::NativeText);
            dialog->reject();
        });
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keySequence(&window, QKeySequence(Qt::Key_F1));
        QVERIFY(rows >= 10);
        QVERIFY(hasNew);
    }

    void theDarkAndLightThemesRecolourTheWindowAndTheEditors()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        MainWindow window(settingsFor(server));
        window.show();
        AppSettings dark = window.settings();
        dark.theme = QStringLiteral("dark");
        window.applySettings(dark);
        QVERIFY(paletteIsDark());
        QTRY_VERIFY(window.palette().color(QPalette::Window).lightness() < 80);
        QTRY_VERIFY(window.editor()->isDark());
        QVERIFY(window.editorPane()->diffView()->isDark());
        QVERIFY(window.editor()->lexer()->paper(0).lightness() < 80);
        QVERIFY(window.editor()->lexer()->color(QsciLexerPython::Keyword).lightness() > 100);
        AppSettings light = window.settings();
        light.theme = QStringLiteral("light");
        window.applySettings(light);
        QVERIFY(!paletteIsDark());
        QTRY_VERIFY(!window.editor()->isDark());
        QVERIFY(window.editor()->lexer()->paper(0).lightness() > 200);
        AppSettings system = window.settings();
        system.theme = QStringLiteral("system");
        window.applySettings(system);
    }

    void theFirstLaunchOffersTheModelServersFoundOnThisMachine()
    {
        FakeOpenAiServer local;
        QVERIFY(local.listen());
        local.setModels({QStringLiteral("qwen2.5-coder"), QStringLiteral("llama3.2")});
        QTemporaryDir fresh;
        AppSettings nothing; // the default endpoint and no key: nothing configured
        nothing.dataDir = fresh.path();
        nothing.image = SandboxConfig::fromEnvironment().image;
        MainWindow window(nothing);
        window.show();
        QVERIFY(window.welcomePanel());
        QVERIFY(window.welcomePanel()->isVisible());
        // The default ports are probed at start; here a server of our own stands in for Ollama.
        window.probeLocalServers(
            {{QStringLiteral("ollama"), QStringLiteral("Ollama"), local.baseUrl(), {}},
             {QStringLiteral("lmstudio"),
              QStringLiteral("LM Studio"),
              QStringLiteral("http://127.0.0.1:9/v1"),
              {}}});
        QPushButton *use = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (use = window.welcomePanel()->findChild<QPushButton *>(QStringLiteral("use-ollama")))
                != nullptr,
            kWaitMs);
        QVERIFY(!window.welcomePanel()->findChild<QPushButton *>(QStringLiteral("use-lmstudio")));
        QVERIFY(use->text().contains(QStringLiteral("llama3.2"))); // the list is sorted
        use->click();
        QVERIFY(!window.welcomePanel()->isVisible());
        QCOMPARE(window.settings().baseUrl, local.baseUrl());
        QCOMPARE(window.settings().provider, QStringLiteral("ollama"));
        QCOMPARE(window.settings().model, QStringLiteral("llama3.2"));
        QCOMPARE(QSettings(fresh.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat)
                     .value(QStringLiteral("model/baseUrl"))
                     .toString(),
                 local.baseUrl()); // kept for the next start
        // The sandbox check answered too (ready here: nothing to say).
        if (qEnvironmentVariable("CI") == QLatin1String("true"))
            QTRY_VERIFY_WITH_TIMEOUT(
                !window.welcomePanel()->sandboxLabel()->isVisibleTo(window.welcomePanel()),
                kWaitMs);
    }

    void aServerErrorShowsARetryThatAsksAgain()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        MainWindow window(settingsFor(server));
        window.show();
        window.newConversation();
        server.enqueueError(
            503, R"({"error":{"message":"overloaded"}})", {{"x-should-retry", "false"}});
        QSignalSpy finished(window.agent(), &Agent::finished);
        window.submitPrompt(QStringLiteral("are you there?"));
        QVERIFY(finished.wait(kWaitMs));
        QVERIFY(window.chatPane()->transcriptText().contains(QStringLiteral("Retry")));
        server.enqueueText(QStringLiteral("Yes, back now."));
        // The banner's Retry button, clicked where it is painted.
        const int banner = window.chatPane()->transcriptModel()->rowCount() - 1;
        QVERIFY(clickTranscript(window.chatPane(), banner, TranscriptDelegate::Hit::Retry));
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(finished.last().at(0).toString(), QStringLiteral("answered"));
        QTRY_VERIFY(window.chatPane()->transcriptText().contains(QStringLiteral("Yes, back now.")));
        QCOMPARE(server.requests().size(), 2);
    }

    void aRateLimitIsRetriedWithANoticeInTheChat()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        MainWindow window(settingsFor(server));
        window.show();
        window.newConversation();
        server.enqueueError(429, R"({"error":{"message":"slow down"}})", {{"retry-after", "0"}});
        server.enqueueText(QStringLiteral("Here now."));
        QSignalSpy finished(window.agent(), &Agent::finished);
        window.submitPrompt(QStringLiteral("hello?"));
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(finished.last().at(0).toString(), QStringLiteral("answered"));
        TranscriptModel *transcript = window.chatPane()->transcriptModel();
        bool noticed = false;
        for (int row = 0; row < transcript->rowCount(); ++row)
            noticed = noticed
                      || (transcript->index(row)
                                  .data(TranscriptModel::KindRole)
                                  .value<TranscriptModel::Kind>()
                              == TranscriptModel::Kind::Notice
                          && transcript->index(row)
                                 .data(TranscriptModel::TextRole)
                                 .toString()
                                 .contains(QStringLiteral("retrying")));
        QVERIFY2(noticed, qPrintable(window.chatPane()->transcriptText()));
        QVERIFY(window.chatPane()->transcriptText().contains(QStringLiteral("Here now.")));
    }

    void theStatusBarSaysWhyTheSandboxFailed()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        AppSettings settings = settingsFor(server);
        settings.image = QStringLiteral("sandcastle-missing-image:none");
        MainWindow window(settings);
        window.show();
        window.newConversation();
        auto *status = window.findChild<QLabel *>(QStringLiteral("sandboxStatus"));
        QTRY_VERIFY_WITH_TIMEOUT(status->text().contains(QStringLiteral("Sandbox: failed")), 60000);
        QVERIFY2(status->text().contains(QStringLiteral("image"))
                     || status->text().contains(QStringLiteral("daemon"))
                     || status->text().contains(QStringLiteral("docker")),
                 qPrintable(status->text()));
        QVERIFY(!status->toolTip().isEmpty());
    }

    void theStatusBarCountsTokensAndCostOfTheConversation()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        QFile prices(m_dataDir.filePath(QStringLiteral("models.json")));
        QVERIFY(prices.open(QIODevice::WriteOnly));
        prices.write(R"({"fake-model": {"input_per_mtok": 1000, "output_per_mtok": 1000,
                                         "cached_input_per_mtok": 100}})");
        prices.close();
        QString id;
        {
            MainWindow window(settingsFor(server));
            window.show();
            window.newConversation();
            id = window.conversationId();
            for (const QString &prompt : {QStringLiteral("one"), QStringLiteral("two")}) {
                Sandcastle::Testing::FakeTurn turn;
                turn.text = QStringLiteral("ok");
                // The second time, the server had 40 of the 42 prompt tokens in its cache.
                turn.usage.cached = prompt == QLatin1String("two") ? 40 : 0;
                server.enqueueTurn(turn);
                QSignalSpy answered(window.agent(), &Agent::finished);
                window.submitPrompt(prompt);
                QVERIFY(answered.wait(60000));
            }
            // Two turns of 42 + 7 tokens at $1000 per million, but for 40 cached tokens at
            // $100: 0.049 + (2 * 1000 + 40 * 100 + 7 * 1000) / 1e6.
            const auto *label = window.findChild<QLabel *>(QStringLiteral("usageStatus"));
            QCOMPARE(label->text(), QStringLiteral("98 tokens (40 cached) · $0.0620"));
        }
        MainWindow again(settingsFor(server));
        QCOMPARE(again.conversationId(), id);
        QCOMPARE(again.usageText(),
                 QStringLiteral("98 tokens (40 cached) · $0.0620")); // kept with it
        again.newConversation();
        QCOMPARE(again.usageText(), QStringLiteral("0 tokens · $0.0000"));
        QVERIFY(prices.remove());
    }

    void startUpWorkWaitsForTheFirstFrame()
    {
        QWidget window;
        window.resize(200, 100);
        bool ran = false;
        bool paintedBefore = false;
        struct PaintSeen : QObject
        {
            bool seen = false;
            bool eventFilter(QObject *, QEvent *e) override
            {
                seen = seen || e->type() == QEvent::Paint;
                return false;
            }
        } painted;
        window.installEventFilter(&painted);
        QStringList order;
        FirstPaintHook::after(&window, [&] {
            ran = true;
            paintedBefore = painted.seen;
            order << QStringLiteral("first");
        });
        FirstPaintHook::after(&window, [&] { order << QStringLiteral("second"); });
        QCoreApplication::processEvents(); // nothing painted: nothing run
        QVERIFY(!ran);
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(ran, kWaitMs);
        QVERIFY(paintedBefore);
        // In the order asked for (the first-paint report before the window's start-up work).
        QTRY_COMPARE(order, QStringList({QStringLiteral("first"), QStringLiteral("second")}));

        // Nothing shown: it runs all the same, after the fallback.
        window.hide();
        QCoreApplication::processEvents();
        bool late = false;
        QObject context;
        FirstPaintHook::after(
            &context, [&] { late = true; }, 50);
        QVERIFY(!late);
        QTRY_VERIFY_WITH_TIMEOUT(late, kWaitMs);
    }

    void theGermanAndFrenchTranslationsLoad()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        QCOMPARE(installTranslations(QStringLiteral("de")), QStringLiteral("de_DE"));
        {
            MainWindow window(settingsFor(server));
            window.newConversation();
            QCOMPARE(window.windowTitle(), QStringLiteral("Sandcastle — Neues Gespräch"));
            QCOMPARE(window.menuBar()->actions().first()->text(), QStringLiteral("&Datei"));
            QCOMPARE(
                window.chatPane()->findChild<QPushButton *>(QStringLiteral("sendButton"))->text(),
                QStringLiteral("Senden"));
        }
        QCOMPARE(installTranslations(QStringLiteral("fr")), QStringLiteral("fr_FR"));
        {
            MainWindow window(settingsFor(server));
            window.newConversation();
            QCOMPARE(window.windowTitle(), QStringLiteral("Sandcastle — Nouvelle conversation"));
        }
        QCOMPARE(installTranslations(QStringLiteral("en")), QString()); // back to English
        MainWindow window(settingsFor(server));
        window.newConversation();
        QCOMPARE(window.windowTitle(), QStringLiteral("Sandcastle — New conversation"));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
