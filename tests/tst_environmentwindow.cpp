#include <app/controller/conversationcontroller.h>
#include <app/project/projectenvironment.h>
#include <sandbox/sandboxsession.h>
#include <support/dockercheck.h>
#include <support/fakeopenaiserver.h>
#include <support/personsfolder.h>
#include <support/probewheel.h>
#include <support/testtimeouts.h>
#include <ui/chat/chatpane.h>
#include <ui/chat/transcriptmodel.h>
#include <ui/environment/environmentbar.h>
#include <ui/mainwindow.h>

#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

using namespace Sandcastle;
using Sandcastle::Testing::FakeOpenAiServer;
using Sandcastle::Testing::kWaitMs;

// A folder with a requirements.txt opened in the real window, against the real daemon: the
// environment bar asks (with the diff), Not now leaves the sandbox as it is, Build environment
// builds with its log in the console and the status bar saying so, and the person's next run
// imports the package.
class TestEnvironmentWindow : public QObject
{
    Q_OBJECT

    QTemporaryDir m_data;
    QTemporaryDir m_wheelhouse;
    FakeOpenAiServer m_server;
    QStringList m_tags;

    AppSettings settings() const
    {
        AppSettings s;
        s.dataDir = m_data.path();
        s.baseUrl = m_server.baseUrl();
        s.model = QStringLiteral("fake-model");
        s.apiKey = QStringLiteral("test");
        const SandboxConfig sandbox = SandboxConfig::fromEnvironment();
        s.engine = sandbox.engine;
        s.image = sandbox.image;
        s.wheelhouse = m_wheelhouse.path();
        return s;
    }

    static QString lastNotice(MainWindow &window)
    {
        TranscriptModel *model = window.chatPane()->transcriptModel();
        for (int row = model->rowCount() - 1; row >= 0; --row) {
            const QModelIndex index = model->index(row, 0);
            if (index.data(TranscriptModel::KindRole).toInt() == int(TranscriptModel::Kind::Notice))
                return index.data(TranscriptModel::TextRole).toString();
        }
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_server.listen());
        const QString problem = Testing::makeProbeWheel(m_wheelhouse.path());
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void cleanupTestCase() { Testing::removeEnvironmentImages(m_tags); }

    void theBarAsksThenBuildsAndTheNextRunHasThePackage()
    {
        QTemporaryDir project;
        QFile requirements(project.filePath(QStringLiteral("requirements.txt")));
        QVERIFY(requirements.open(QIODevice::WriteOnly));
        requirements.write("# for the probe\nsandcastle-probe\n");
        requirements.close();
        QVERIFY(Testing::handToPerson(project.path()));

        MainWindow window(settings());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *bar = window.findChild<EnvironmentBar *>(QStringLiteral("environmentBar"));
        QVERIFY(bar);
        QVERIFY(!bar->isVisible());
        QVERIFY(window.openFolder(project.path()));
        QTRY_VERIFY_WITH_TIMEOUT(bar->isVisible(), 30000);
        QVERIFY2(bar->text().contains(QStringLiteral("pip: sandcastle-probe")),
                 qPrintable(bar->text()));
        auto *approve = bar->findChild<QPushButton *>(QStringLiteral("environmentApprove"));
        auto *decline = bar->findChild<QPushButton *>(QStringLiteral("environmentDecline"));
        QVERIFY(approve && decline);
        QCOMPARE(approve->text(), QStringLiteral("Build environment"));
        // The changes, against nothing approved yet.
        auto *details = bar->findChild<QPlainTextEdit *>(QStringLiteral("environmentDetails"));
        QVERIFY(details->toPlainText().contains(QStringLiteral("+sandcastle-probe")));

        // Not now: the sandbox stays on the default image, and the same files do not ask again.
        ProjectEnvironment *environment = window.controller()->environment();
        QTest::mouseClick(decline, Qt::LeftButton);
        QVERIFY(!bar->isVisible());
        QCOMPARE(window.controller()->session()->config().image, settings().image);

        // A save of the file asks again once it changed; this time the person builds.
        window.saveWorkspaceFile(QStringLiteral("requirements.txt"),
                                 QStringLiteral("sandcastle-probe==1.0\n"));
        QTRY_VERIFY_WITH_TIMEOUT(bar->isVisible(), 30000);
        QVERIFY(details->toPlainText().contains(QStringLiteral("+sandcastle-probe==1.0")));
        QSignalSpy restarted(window.controller(), &ConversationController::environmentRestarted);
        QTest::mouseClick(approve, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(environment->state() == ProjectEnvironment::State::Building
                                     || environment->state() == ProjectEnvironment::State::Ready,
                                 kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(environment->state() == ProjectEnvironment::State::Ready, 300000);
        const QString image = window.controller()->session()->config().image;
        if (image.startsWith(QStringLiteral("sandcastle-env:")))
            m_tags << image;
        QVERIFY2(image.startsWith(QStringLiteral("sandcastle-env:")), qPrintable(image));
        QVERIFY(!bar->isVisible());
        // The sandbox moves to the new image once nothing runs in it (its release, a new start).
        QTRY_VERIFY_WITH_TIMEOUT(!restarted.isEmpty(), kWaitMs);
        QVERIFY2(lastNotice(window).contains(image), qPrintable(lastNotice(window)));

        // The person's next run has the package, and still no network.
        QSignalSpy finished(window.controller(), &ConversationController::personRunFinished);
        window.runPersonCode(
            QStringLiteral("import os, sandcastle_probe\nprint(sandcastle_probe.ANSWER, "
                           "os.listdir('/sys/class/net'))\n"));
        QVERIFY(finished.wait(120000));
        const auto result = finished.first().at(0).value<ExecutionResult>();
        QVERIFY2(result.stdoutText == QStringLiteral("42 ['lo']\n"),
                 qPrintable(result.stdoutText + result.error));
    }

    void aBuildThatFailsSaysWhyAndKeepsTheSandbox()
    {
        QTemporaryDir project;
        QFile apt(project.filePath(QStringLiteral("apt.txt")));
        QVERIFY(apt.open(QIODevice::WriteOnly));
        apt.write("no-such-package-sandcastle\n");
        apt.close();
        QVERIFY(Testing::handToPerson(project.path()));
        MainWindow window(settings());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *bar = window.findChild<EnvironmentBar *>(QStringLiteral("environmentBar"));
        QVERIFY(window.openFolder(project.path()));
        QTRY_VERIFY_WITH_TIMEOUT(bar->isVisible(), 30000);
        auto *label = window.statusBar()->findChild<QLabel *>(QStringLiteral("sandboxStatus"));
        QVERIFY(label);
        QTest::mouseClick(bar->findChild<QPushButton *>(QStringLiteral("environmentApprove")),
                          Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(label->text().contains(QStringLiteral("building environment")),
                                 kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(window.controller()->environment()->state()
                                     == ProjectEnvironment::State::Failed,
                                 300000);
        QVERIFY(bar->isVisible());
        QVERIFY2(bar->text().contains(
                     QStringLiteral("Unable to locate package no-such-package-sandcastle")),
                 qPrintable(bar->text()));
        QVERIFY(bar->findChild<QPushButton *>(QStringLiteral("environmentDismiss"))->isVisible());
        QCOMPARE(window.controller()->session()->config().image, settings().image);
        QVERIFY(!label->text().contains(QStringLiteral("building environment")));
    }
};

QTEST_MAIN(TestEnvironmentWindow)
#include "tst_environmentwindow.moc"
