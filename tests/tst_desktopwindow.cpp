#include <app/controller/conversationcontroller.h>
#include <support/fakeengine.h>
#include <support/fakeopenaiserver.h>
#include <ui/mainwindow.h>

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
