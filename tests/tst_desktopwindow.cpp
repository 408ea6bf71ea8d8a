#include <app/controller/conversationcontroller.h>
#include <support/fakeengine.h>
#include <support/fakeopenaiserver.h>
#include <ui/files/filespane.h>
#include <ui/mainwindow.h>
#include <ui/settings/settingsdialog.h>
#include <ui/widgets/elidedlabel.h>

#include <QAction>
#include <QApplication>
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

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY2(useFakeEngine(m_state.path()), "SANDCASTLE_SOURCE_DIR is not set");
        QVERIFY(m_server.listen());
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
        QVERIFY(title->toolTip().endsWith(canonical));
        QTRY_VERIFY(title->text().contains(QChar(0x2026)));
        QVERIFY(title->text().endsWith(QStringLiteral("the-end")));
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
            QTRY_VERIFY(QFileInfo::exists(own));
            QVERIFY(!workspaces(data.path()).contains(QStringLiteral("0ld0ne5")));
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
            QTRY_VERIFY(QFileInfo::exists(first));
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
