#include <app/controller/conversationcontroller.h>
#include <sandbox/containerengine.h>
#include <support/fakeengine.h>
#include <support/fakeopenaiserver.h>
#include <support/testtimeouts.h>
#include <support/windowactions.h>
#include <ui/actions/aboutdialog.h>
#include <ui/actions/commandpalette.h>
#include <ui/chat/chatpane.h>
#include <ui/chat/promptedit.h>
#include <ui/chat/thumbnails.h>
#include <ui/chat/transcriptdelegate.h>
#include <ui/chat/transcriptmodel.h>
#include <ui/console/consolepane.h>
#include <ui/editor/codeeditor.h>
#include <ui/editor/editorpane.h>
#include <ui/environment/imagebar.h>
#include <ui/files/filespane.h>
#include <ui/files/workspacemodel.h>
#include <ui/mainwindow.h>
#include <ui/settings/settingsdialog.h>
#include <ui/widgets/elidedlabel.h>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QListView>
#include <QListWidget>
#include <QMenuBar>
#include <QPushButton>
#include <QScopeGuard>
#include <QScreen>
#include <QTimer>

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace Sandcastle;
using namespace Sandcastle::Testing;

// The window as a desktop application: what launching it leaves behind.
class TestDesktopWindow : public QObject
{
    Q_OBJECT

    QTemporaryDir m_state;
    FakeOpenAiServer m_server;

    static QStringList workspaces(const QString &dataDir)
    {
        return QDir(dataDir + QStringLiteral("/workspaces"))
            .entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    }

    static QStringList rootNames(const WorkspaceModel *model)
    {
        QStringList names;
        for (int row = 0; row < model->rowCount(); ++row)
            names << model->index(row, 0).data().toString();
        return names;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY2(useFakeEngine(m_state.path()), "SANDCASTLE_SOURCE_DIR is not set");
        QVERIFY(m_server.listen());
    }

    // The menus people look for, in the order they look, and every action in the palette.
    void everyMenuActionIsThereAndInThePalette()
    {
        QTemporaryDir data;
        MainWindow window(fakeEngineSettings(m_server, data.path()));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QStringList menus;
        for (const QAction *menu : window.menuBar()->actions())
            menus << CommandPalette::label(menu);
        QCOMPARE(menus,
                 (QStringList{QStringLiteral("File"),
                              QStringLiteral("Edit"),
                              QStringLiteral("View"),
                              QStringLiteral("Run"),
                              QStringLiteral("Help")}));
        const QStringList expected{
            QStringLiteral("newConversation"),   QStringLiteral("openFolder"),
            QStringLiteral("goToFile"),          QStringLiteral("uploadFiles"),
            QStringLiteral("exportMarkdown"),    QStringLiteral("exportBundle"),
            QStringLiteral("openSettings"),      QStringLiteral("quit"),
            QStringLiteral("editUndo"),          QStringLiteral("editRedo"),
            QStringLiteral("editCut"),           QStringLiteral("editCopy"),
            QStringLiteral("editPaste"),         QStringLiteral("editSelectAll"),
            QStringLiteral("editFind"),          QStringLiteral("show-conversations"),
            QStringLiteral("show-chat"),         QStringLiteral("show-editor"),
            QStringLiteral("show-console"),      QStringLiteral("show-files"),
            QStringLiteral("showInternalFiles"), QStringLiteral("zoomIn"),
            QStringLiteral("zoomOut"),           QStringLiteral("zoomReset"),
            QStringLiteral("theme-system"),      QStringLiteral("theme-light"),
            QStringLiteral("theme-dark"),        QStringLiteral("fullScreen"),
            QStringLiteral("runEditorCode"),     QStringLiteral("stop"),
            QStringLiteral("stopCode"),          QStringLiteral("stopAfterStep"),
            QStringLiteral("reviewChanges"),     QStringLiteral("commandPaletteAction"),
            QStringLiteral("keyboardShortcuts"), QStringLiteral("about")};
        // Export needs a stored conversation.
        QVERIFY(!windowAction(window, QStringLiteral("exportMarkdown"))->isEnabled());
        QVERIFY(window.controller()->ensureSaved(QStringLiteral("kept")));
        QVERIFY(windowAction(window, QStringLiteral("exportMarkdown"))->isEnabled());
        QVERIFY(windowAction(window, QStringLiteral("exportBundle"))->isEnabled());
        // Text in the prompt, all selected: the Edit actions can act on it.
        window.activateWindow();
        window.chatPane()->promptEdit()->setFocus();
        QTRY_VERIFY(window.chatPane()->promptEdit()->hasFocus());
        QTest::keyClicks(window.chatPane()->promptEdit(), QStringLiteral("abc"));
        windowAction(window, QStringLiteral("editSelectAll"))->trigger();
        Q_EMIT window.menuBar()->actions().at(1)->menu()->aboutToShow();
        // Every action that can run now is in the palette, by its name.
        CommandPalette palette(window.allActions(), &window);
        QStringList listed;
        for (int row = 0; row < palette.list()->count(); ++row)
            listed << palette.list()->item(row)->text();
        int enabled = 0;
        for (const QString &name : expected) {
            QAction *a = windowAction(window, name);
            QVERIFY2(a, qPrintable(name));
            if (!a->isEnabled())
                continue;
            ++enabled;
            const QString label = CommandPalette::label(a);
            QVERIFY2(std::any_of(listed.cbegin(),
                                 listed.cend(),
                                 [&label](const QString &item) { return item.startsWith(label); }),
                     qPrintable(name + QStringLiteral(" is not in the palette: ") + label));
        }
        // Only redo (nothing undone) and the Run menu's stops (nothing running) wait.
        QVERIFY2(enabled >= expected.size() - 4, qPrintable(QString::number(enabled)));
        // Typing in the palette keeps the Edit actions on the prompt.
        palette.filterBox()->setFocus();
        QTest::keyClicks(palette.filterBox(), QStringLiteral("copy"));
        QVERIFY(palette.list()->count() >= 1);
        QVERIFY(palette.list()->item(0)->text().startsWith(QStringLiteral("Copy")));
    }

    // Edit acts on the focused pane: the prompt's text, the transcript's message, each pane's
    // find.
    void editActsOnTheFocusedPane()
    {
        QTemporaryDir data;
        MainWindow window(fakeEngineSettings(m_server, data.path()));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.activateWindow();
        QAction *undo = windowAction(window, QStringLiteral("editUndo"));
        QAction *copy = windowAction(window, QStringLiteral("editCopy"));
        QAction *cut = windowAction(window, QStringLiteral("editCut"));
        QAction *paste = windowAction(window, QStringLiteral("editPaste"));
        QAction *find = windowAction(window, QStringLiteral("editFind"));
        QAction *selectAll = windowAction(window, QStringLiteral("editSelectAll"));

        PromptEdit *prompt = window.chatPane()->promptEdit();
        prompt->setFocus();
        QTRY_VERIFY(prompt->hasFocus());
        QVERIFY(paste->isEnabled());
        QVERIFY(!copy->isEnabled());
        QTest::keyClicks(prompt, QStringLiteral("plot the data"));
        selectAll->trigger();
        Q_EMIT window.menuBar()->actions().at(1)->menu()->aboutToShow();
        QVERIFY(copy->isEnabled());
        QVERIFY(cut->isEnabled());
        QVERIFY(undo->isEnabled());
        cut->trigger();
        QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("plot the data"));
        QVERIFY(prompt->toPlainText().isEmpty());
        undo->trigger();
        QCOMPARE(prompt->toPlainText(), QStringLiteral("plot the data"));

        // The transcript: copy the current message, find a message.
        window.chatPane()->addNotice(QStringLiteral("first notice"));
        window.chatPane()->addNotice(QStringLiteral("the needle is here"));
        QListView *transcript = window.chatPane()->transcriptView();
        transcript->setFocus();
        QTRY_VERIFY(transcript->hasFocus());
        QVERIFY(find->isEnabled());
        QVERIFY(copy->isEnabled());
        QVERIFY(!paste->isEnabled());
        find->trigger();
        auto *chatFind = window.chatPane()->findChild<QLineEdit *>(QStringLiteral("chatFind"));
        QVERIFY(chatFind && chatFind->isVisible());
        QTest::keyClicks(chatFind, QStringLiteral("NEEDLE"));
        QTest::keyClick(chatFind, Qt::Key_Return);
        QVERIFY(transcript->currentIndex()
                    .data(TranscriptModel::TextRole)
                    .toString()
                    .contains(QStringLiteral("needle")));
        QTest::keyClick(chatFind, Qt::Key_Escape);
        QTRY_VERIFY(transcript->hasFocus());
        copy->trigger();
        QVERIFY(QApplication::clipboard()->text().contains(QStringLiteral("needle")));

        // The console and the editor each have their own find box, opened by Ctrl+F.
        window.console()->setFocus();
        QTRY_VERIFY(window.console()->hasFocus());
        QTest::keyClick(window.console(), Qt::Key_F, Qt::ControlModifier);
        auto *consoleFind = window.console()->findChild<QLineEdit *>(QStringLiteral("consoleFind"));
        QTRY_VERIFY(consoleFind && consoleFind->isVisible());
        window.editor()->setText(QStringLiteral("x = 1\nprint(x)\n"));
        window.editor()->setFocus();
        QTRY_VERIFY(window.editor()->hasFocus());
        QTest::keyClick(window.editor(), Qt::Key_F, Qt::ControlModifier);
        auto *editorFind
            = window.editorPane()->findChild<QLineEdit *>(QStringLiteral("editorFind"));
        QTRY_VERIFY(editorFind && editorFind->isVisible());
        QTest::keyClicks(editorFind, QStringLiteral("print"));
        QTest::keyClick(editorFind, Qt::Key_Return);
        QCOMPARE(window.editor()->selectedText(), QStringLiteral("print"));
        QCOMPARE(window.editor()->text(), QStringLiteral("x = 1\nprint(x)\n")); // Enter kept out
    }

    // View hides and shows each pane, zooms the text panes, and both survive a restart; the
    // last pane shown cannot be hidden.
    void viewTogglesAndZoomSurviveARestart()
    {
        QTemporaryDir data;
        int consoleSize = 0;
        {
            MainWindow window(fakeEngineSettings(m_server, data.path()));
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(window.console()->isVisible());
            windowAction(window, QStringLiteral("show-console"))->trigger();
            QVERIFY(!window.console()->isVisible());
            windowAction(window, QStringLiteral("show-files"))->trigger();
            QVERIFY(!window.filesPane()->isVisible());
            consoleSize = window.console()->font().pointSize();
            windowAction(window, QStringLiteral("zoomIn"))->trigger();
            windowAction(window, QStringLiteral("zoomIn"))->trigger();
            QCOMPARE(window.zoom(), 2);
            QCOMPARE(window.console()->font().pointSize(), consoleSize + 2);
            QCOMPARE(int(window.editor()->SendScintilla(QsciScintillaBase::SCI_GETZOOM)), 2);
            window.close();
        }
        MainWindow again(fakeEngineSettings(m_server, data.path()));
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QVERIFY(!again.console()->isVisible());
        QVERIFY(!again.filesPane()->isVisible());
        QVERIFY(!windowAction(again, QStringLiteral("show-console"))->isChecked());
        QVERIFY(again.chatPane()->isVisible());
        QCOMPARE(again.zoom(), 2);
        QCOMPARE(again.console()->font().pointSize(), consoleSize + 2);
        windowAction(again, QStringLiteral("zoomReset"))->trigger();
        QCOMPARE(again.console()->font().pointSize(), consoleSize);
        windowAction(again, QStringLiteral("show-console"))->trigger();
        QVERIFY(again.console()->isVisible());
        // Every pane off but one: that one stays.
        for (const QString &pane : {QStringLiteral("conversations"),
                                    QStringLiteral("chat"),
                                    QStringLiteral("editor"),
                                    QStringLiteral("console")})
            windowAction(again, QStringLiteral("show-") + pane)->trigger();
        QVERIFY(again.console()->isVisible());
        QVERIFY(windowAction(again, QStringLiteral("show-console"))->isChecked());
    }

    // Sandcastle's own .sandcastle folder is not among the person's files unless asked for.
    void theFilesPaneHidesSandcastlesOwnFolder()
    {
        QTemporaryDir data;
        QTemporaryDir project;
        QVERIFY(QDir().mkpath(project.filePath(QStringLiteral(".sandcastle"))));
        QFile log(project.filePath(QStringLiteral("data.csv")));
        QVERIFY(log.open(QIODevice::WriteOnly));
        log.close();
        MainWindow window(fakeEngineSettings(m_server, data.path()));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFolder(project.path()));
        WorkspaceModel *model = window.filesPane()->model();
        QTRY_VERIFY_WITH_TIMEOUT(rootNames(model).contains(QStringLiteral("data.csv")), kWaitMs);
        QVERIFY(!rootNames(model).contains(QStringLiteral(".sandcastle")));
        QAction *internal = windowAction(window, QStringLiteral("showInternalFiles"));
        QVERIFY(!internal->isChecked());
        internal->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(rootNames(model).contains(QStringLiteral(".sandcastle")), kWaitMs);
        internal->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!rootNames(model).contains(QStringLiteral(".sandcastle")),
                                 kWaitMs);
    }

    // Help → About names the versions a bug report needs.
    void aboutNamesTheVersions()
    {
        const ContainerEngine engine(fakeDockerPath());
        AboutDialog about(engine);
        const QString text = about.versionsText();
        QVERIFY2(text.contains(QStringLiteral("Sandcastle " SANDCASTLE_VERSION)), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Qt ") + QString::fromLatin1(qVersion())),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("QScintilla 2.")), qPrintable(text));
        QTRY_VERIFY2_WITH_TIMEOUT(!about.versionsText().contains(QStringLiteral("asking")),
                                  qPrintable(about.versionsText()),
                                  kWaitMs);
    }

    // A run's images show as pictures in its card; a click opens the image in the preview, and
    // a picture the run wrote again is read again.
    void aRunsChartShowsAsAThumbnailInItsCard()
    {
        QTemporaryDir data;
        MainWindow window(fakeEngineSettings(m_server, data.path()));
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QString workspace = window.controller()->workspace();
        QVERIFY(QDir().mkpath(workspace + QStringLiteral("/outputs")));
        QImage red(300, 200, QImage::Format_RGB32);
        red.fill(QColor(220, 30, 30));
        QVERIFY(red.save(workspace + QStringLiteral("/outputs/figure-1-1.png")));
        ChatPane *chat = window.chatPane();
        chat->addToolCall(QStringLiteral("c1"),
                          QStringLiteral("run_python"),
                          QStringLiteral("{\"code\": \"plt.plot([1, 2])\"}"));
        chat->addToolResult(QStringLiteral("c1"),
                            QStringLiteral("ok"),
                            0,
                            120,
                            {QStringLiteral("outputs/figure-1-1.png"), QStringLiteral("data.csv")});
        const QString figure = QStringLiteral("outputs/figure-1-1.png");
        QTRY_VERIFY_WITH_TIMEOUT(!chat->thumbnails()->image(figure).isNull(), kWaitMs);
        QVERIFY(!chat->thumbnails()->failed(QStringLiteral("data.csv")));
        TranscriptModel *model = chat->transcriptModel();
        const QModelIndex card = model->index(model->rowOfCall(QStringLiteral("c1")), 0);
        auto *delegate = chat->transcriptDelegate();
        const QRect inRow = delegate->partRect(card, TranscriptDelegate::Hit::Thumbnail);
        QVERIFY(inRow.isValid());
        QListView *view = chat->transcriptView();
        view->scrollTo(card);
        QCoreApplication::processEvents();
        const QPoint at = view->visualRect(card).topLeft() + inRow.center();
        // The picture is painted: the middle of its box is the chart's red.
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const QColor pixel = view->viewport()->grab().toImage().pixelColor(at);
                return pixel.red() > 180 && pixel.green() < 80;
            }(),
            kWaitMs);
        // A click shows the image in the files pane's preview.
        QSignalSpy shown(window.filesPane(), &FilesPane::previewShown);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), kWaitMs);
        QCOMPARE(shown.last().at(0).toString(), figure);
        QCOMPARE(shown.last().at(1).value<FilePreview::Kind>(), FilePreview::Kind::Image);
        // Written again by a later run: read again.
        QImage blue(300, 200, QImage::Format_RGB32);
        blue.fill(QColor(30, 30, 220));
        QVERIFY(blue.save(workspace + QStringLiteral("/outputs/figure-1-1.png")));
        chat->addToolCall(QStringLiteral("c2"), QStringLiteral("run_python"), QStringLiteral("{}"));
        chat->addToolResult(QStringLiteral("c2"), QStringLiteral("ok"), 0, 90, {figure});
        QTRY_VERIFY_WITH_TIMEOUT(!chat->thumbnails()->image(figure).isNull(), kWaitMs);
        QVERIFY(chat->thumbnails()->image(figure).pixelColor(10, 10).blue() > 180);
    }

    // First launch without the sandbox image: the window offers to build it, shows the build in
    // the console and its last line in the bar, and starts the sandbox on it; a failed build
    // says apt's words and offers to try again; Cancel stops a build.
    void aMissingImageIsOfferedBuiltAndCancellable()
    {
        QTemporaryDir data;
        AppSettings settings = fakeEngineSettings(m_server, data.path());
        settings.image = QStringLiteral("sandcastle-missing-first:latest");
        qputenv("FAKE_DOCKER_BUILD_FAIL", "1");
        auto unset = qScopeGuard([] {
            qunsetenv("FAKE_DOCKER_BUILD_FAIL");
            qunsetenv("FAKE_DOCKER_BUILD_SECONDS");
        });
        MainWindow window(settings);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *bar = window.findChild<ImageBar *>(QStringLiteral("imageBar"));
        QVERIFY(bar);
        QTRY_VERIFY_WITH_TIMEOUT(bar->isVisible(), kWaitMs);
        QVERIFY2(bar->text().contains(settings.image), qPrintable(bar->text()));
        auto *build = bar->findChild<QPushButton *>(QStringLiteral("buildImage"));
        auto *cancel = bar->findChild<QPushButton *>(QStringLiteral("cancelImageBuild"));

        // A failed build: apt's words, and Try again.
        build->click();
        QTRY_VERIFY2_WITH_TIMEOUT(bar->text().contains(QStringLiteral("Unable to locate package")),
                                  qPrintable(bar->text()),
                                  kWaitMs);
        QCOMPARE(build->text(), QStringLiteral("Try again"));

        // Cancelled while it runs: stopped within seconds, no image. (10 s is no wait whenever: a
        // build that went on would take 20 s a step.)
        qunsetenv("FAKE_DOCKER_BUILD_FAIL");
        qputenv("FAKE_DOCKER_BUILD_SECONDS", "20");
        build->click();
        QTRY_VERIFY_WITH_TIMEOUT(
            window.console()->toPlainText().contains(QStringLiteral("Step 1/3")), kWaitMs);
        QVERIFY(cancel->isVisible());
        QElapsedTimer clock;
        clock.start();
        cancel->click();
        QTRY_VERIFY_WITH_TIMEOUT(bar->text().contains(QStringLiteral("cancelled")), 10000);
        QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY(!ContainerEngine(fakeDockerPath()).imageExists(settings.image).value());

        // Built: the bar goes, the console has the log, the image is there.
        qputenv("FAKE_DOCKER_BUILD_SECONDS", "0");
        build->click();
        QTRY_VERIFY_WITH_TIMEOUT(!bar->isVisible(), kWaitMs);
        QVERIFY(window.console()->toPlainText().contains(QStringLiteral("Step 3/3")));
        QVERIFY(ContainerEngine(fakeDockerPath()).imageExists(settings.image).value());
        // The next launch finds it and offers nothing.
        MainWindow again(settings);
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QTest::qWait(500);
        QVERIFY(!again.findChild<ImageBar *>(QStringLiteral("imageBar"))->isVisible());
    }

    // Ctrl+, opens Settings whatever the platform theme says Preferences is.
    void ctrlCommaOpensSettings()
    {
        QTemporaryDir data;
        MainWindow window(fakeEngineSettings(m_server, data.path()));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.activateWindow();
        bool opened = false;
        QTimer poll;
        connect(&poll, &QTimer::timeout, this, [&opened] {
            if (auto *dialog = qobject_cast<SettingsDialog *>(QApplication::activeModalWidget())) {
                opened = true;
                dialog->reject();
            }
        });
        poll.start(20);
        QTest::keyClick(&window, Qt::Key_Comma, Qt::ControlModifier);
        QTRY_VERIFY(opened);
    }

    // The first window takes most of its screen; the size the person leaves comes back.
    void theFirstWindowFitsTheScreenAndItsSizeIsRemembered()
    {
        QTemporaryDir data;
        const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
        {
            MainWindow window(fakeEngineSettings(m_server, data.path()));
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY2(window.width() <= available.width() && window.height() <= available.height(),
                     qPrintable(QStringLiteral("%1x%2 on %3x%4")
                                    .arg(window.width())
                                    .arg(window.height())
                                    .arg(available.width())
                                    .arg(available.height())));
            QVERIFY(window.width() >= std::min(800, available.width()));
            window.resize(780, 520);
            QTRY_COMPARE(window.size(), QSize(780, 520));
            window.close();
        }
        MainWindow again(fakeEngineSettings(m_server, data.path()));
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QCOMPARE(again.size(), QSize(780, 520));
    }

    // A long folder path is cut in the middle in the files pane's title, whole in its tooltip.
    void aLongFolderPathIsElidedInTheMiddle()
    {
        QTemporaryDir data;
        QTemporaryDir project;
        const QString deep
            = project.filePath(QStringLiteral("a-rather-long-folder-name/with/many/levels/below/"
                                              "it/to/be/sure/that/it/cannot/fit/the-end"));
        QVERIFY(QDir().mkpath(deep));
        MainWindow window(fakeEngineSettings(m_server, data.path()));
        window.resize(900, 600);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFolder(deep));
        auto *title = window.filesPane()->findChild<ElidedLabel *>(QStringLiteral("filesTitle"));
        QVERIFY(title);
        const QString canonical = QFileInfo(deep).canonicalFilePath();
        QCOMPARE(title->toolTip(), canonical);
        QVERIFY(title->text().startsWith(QStringLiteral("Files — ")));
        QTRY_VERIFY(title->text().contains(QChar(0x2026)));
        // Both ends of the path are there, the middle is cut.
        const QStringList ends
            = title->text().mid(QStringLiteral("Files — ").size()).split(QChar(0x2026));
        QCOMPARE(ends.size(), 2);
        QVERIFY2(canonical.startsWith(ends.first()) && canonical.endsWith(ends.last())
                     && !ends.last().isEmpty(),
                 qPrintable(title->text()));
        QVERIFY(title->width() <= window.filesPane()->width());
    }

    // Five launches without a conversation leave no workspace folder; empty ones an earlier
    // version left are swept, a folder with something in it is not.
    void launchesWithoutAConversationLeaveNoWorkspace()
    {
        QTemporaryDir data;
        QVERIFY(QDir().mkpath(data.filePath(QStringLiteral("workspaces/0ld0ne5/outputs"))));
        QVERIFY(QDir().mkpath(data.filePath(QStringLiteral("workspaces/5omedata"))));
        QFile kept(data.filePath(QStringLiteral("workspaces/5omedata/notes.txt")));
        QVERIFY(kept.open(QIODevice::WriteOnly));
        kept.write("mine\n");
        kept.close();
        for (int launch = 0; launch < 5; ++launch) {
            MainWindow window(fakeEngineSettings(m_server, data.path()));
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            // The warm sandbox has its folder while the window is open.
            const QString own = window.controller()->workspace();
            QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(own), kWaitMs);
            // Swept a few seconds after the first frame.
            QTRY_VERIFY_WITH_TIMEOUT(!workspaces(data.path()).contains(QStringLiteral("0ld0ne5")),
                                     kWaitMs);
        }
        QCOMPARE(workspaces(data.path()), QStringList{QStringLiteral("5omedata")});
        QVERIFY(QFileInfo::exists(kept.fileName()));
    }

    // New pressed twice: the first, never used, leaves nothing; a conversation with a message
    // keeps its folder after the window closes.
    void anAbandonedNewConversationLeavesNothing()
    {
        QTemporaryDir data;
        QString saved;
        {
            MainWindow window(fakeEngineSettings(m_server, data.path()));
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            const QString first = window.controller()->workspace();
            QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(first), kWaitMs);
            QVERIFY(window.controller()->newConversation());
            QVERIFY(!QFileInfo::exists(first));
            QVERIFY(window.controller()->ensureSaved(QStringLiteral("kept")));
            saved = window.controller()->workspace();
            QVERIFY(QDir().mkpath(saved));
        }
        QCOMPARE(workspaces(data.path()), QStringList{QFileInfo(saved).fileName()});
    }
};

QTEST_MAIN(TestDesktopWindow)
#include "tst_desktopwindow.moc"
