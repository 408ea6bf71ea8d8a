#include <support/dockercheck.h>
#include <support/remoteengine.h>
#include <ui/environment/imagebar.h>
#include <ui/mainwindow.h>
#include <ui/settings/enginepage.h>

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace Sandcastle;
using Sandcastle::Testing::RemoteEngine;

// Settings → Engine against the real engines: the contexts Docker knows listed, Test saying
// what answered and whether the image is there, and Send putting it there, with the remote of
// scripts/remote-engine behind a context of its own; and the window's bar offering to send an
// image the remote lacks.
class TestEnginePage : public QObject
{
    Q_OBJECT

    RemoteEngine m_remote;
    QString m_context;
    QTemporaryDir m_data;

    // An image only this machine has (the remote lacks it until it is sent), removed from both
    // at the end: one small file made into an image by `docker import`, with the label the
    // sandbox image carries. What is checked here is that it is found missing and then sent,
    // not what runs in it (tst_remoteengine and the engines' suites run the real image on the
    // remote); a tag of the 825 MB sandbox image, sent twice, took 44 of this suite's 45 s.
    struct LocalImage
    {
        QString image;
        QString remote;
        bool made = false;
        LocalImage(const QString &name, QString remoteSocket)
            : image(QStringLiteral("sandcastle-sandbox:%1-%2")
                        .arg(name)
                        .arg(QCoreApplication::applicationPid()))
            , remote(std::move(remoteSocket))
            , made(importSmallImage(image))
        {}
        static bool importSmallImage(const QString &image)
        {
            QTemporaryDir dir;
            const QString root = dir.filePath(QStringLiteral("root"));
            const QString tar = dir.filePath(QStringLiteral("image.tar"));
            QDir().mkpath(root);
            QFile file(root + QStringLiteral("/hello.txt"));
            if (!file.open(QIODevice::WriteOnly) || file.write("hello\n") != 6)
                return false;
            file.close();
            return QProcess::execute(QStringLiteral("tar"),
                                     {QStringLiteral("-cf"),
                                      tar,
                                      QStringLiteral("-C"),
                                      root,
                                      QStringLiteral(".")})
                       == 0
                   && RemoteEngine::docker(QString(),
                                           {QStringLiteral("import"),
                                            QStringLiteral("--change"),
                                            QStringLiteral("LABEL org.sandcastle.inputs=") + image,
                                            tar,
                                            image})
                          == 0;
        }
        LocalImage(const LocalImage &) = delete;
        LocalImage &operator=(const LocalImage &) = delete;
        ~LocalImage()
        {
            RemoteEngine::docker(QString(), {QStringLiteral("rmi"), image});
            RemoteEngine::docker(remote, {QStringLiteral("rmi"), image});
        }
    };

    AppSettings settings() const
    {
        AppSettings s;
        s.dataDir = m_data.path();
        return s;
    }

private Q_SLOTS:
    void initTestCase()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        m_remote = RemoteEngine::find();
        SANDCASTLE_REQUIRE_REMOTE(m_remote);
        qunsetenv("DOCKER_HOST");
        m_context = QStringLiteral("sandcastle-page-%1").arg(QCoreApplication::applicationPid());
        QCOMPARE(RemoteEngine::docker(QString(),
                                      {QStringLiteral("context"),
                                       QStringLiteral("create"),
                                       m_context,
                                       QStringLiteral("--docker"),
                                       QStringLiteral("host=") + m_remote.ssh}),
                 0);
    }

    void cleanupTestCase()
    {
        if (!m_context.isEmpty())
            RemoteEngine::docker(QString(),
                                 {QStringLiteral("context"),
                                  QStringLiteral("rm"),
                                  QStringLiteral("--force"),
                                  m_context});
    }

    void theLocalEngineAnswersAndHasTheImage()
    {
        EnginePage page(settings());
        QSignalSpy tested(&page, &EnginePage::tested);
        page.test();
        QVERIFY(tested.wait(60000));
        QVERIFY2(page.report().contains(QStringLiteral("Docker "))
                     && page.report().contains(QStringLiteral("CPU")),
                 qPrintable(page.report()));
        QVERIFY2(page.report().contains(QStringLiteral("the workspace is mounted")),
                 qPrintable(page.report()));
        QVERIFY2(page.report().contains(QStringLiteral("is there")), qPrintable(page.report()));
        QVERIFY(!page.sendButton()->isEnabled());
    }

    void aRemoteContextIsListedTestedAndSentTheImage()
    {
        const LocalImage tag(QStringLiteral("page-test"), m_remote.socket);
        QVERIFY(tag.made);
        const QString &image = tag.image;
        AppSettings s = settings();
        s.image = image;
        EnginePage page(s);
        QSignalSpy listed(&page, &EnginePage::listed);
        QVERIFY(listed.wait(30000));
        QVERIFY(page.contextBox()->findText(m_context) >= 0);
        page.contextBox()->setCurrentIndex(page.contextBox()->findText(m_context));
        QCOMPARE(page.contextBox()
                     ->itemData(page.contextBox()->currentIndex(), Qt::ToolTipRole)
                     .toString(),
                 m_remote.ssh);

        QSignalSpy tested(&page, &EnginePage::tested);
        QTest::mouseClick(page.testButton(), Qt::LeftButton);
        QVERIFY(tested.wait(60000));
        QVERIFY2(page.report().contains(m_remote.ssh)
                     && page.report().contains(QStringLiteral("cannot see")),
                 qPrintable(page.report()));
        QVERIFY2(page.report().contains(QStringLiteral("is not there")), qPrintable(page.report()));
        QVERIFY(page.sendButton()->isEnabled());

        QSignalSpy sent(&page, &EnginePage::imageSent);
        QTest::mouseClick(page.sendButton(), Qt::LeftButton);
        QVERIFY(sent.wait(300000));
        QVERIFY2(page.report().contains(QStringLiteral("is there now")), qPrintable(page.report()));
        page.test();
        QVERIFY(tested.wait(60000));
        QVERIFY2(page.report().contains(QStringLiteral("is there.")), qPrintable(page.report()));

        AppSettings chosen = settings();
        page.apply(chosen);
        QCOMPARE(chosen.engineContext, m_context);
        QCOMPARE(chosen.engine, QStringLiteral("docker"));
        QCOMPARE(chosen.workspaceMode, QStringLiteral("auto"));
    }

    void anEngineThatDoesNotAnswerIsSaid()
    {
        EnginePage page(settings());
        page.contextBox()->setCurrentText(QStringLiteral("no-such-context-at-all"));
        QSignalSpy tested(&page, &EnginePage::tested);
        page.test();
        QVERIFY(tested.wait(60000));
        QVERIFY2(page.report().contains(QStringLiteral("no-such-context-at-all")),
                 qPrintable(page.report()));
        QVERIFY(!page.sendButton()->isEnabled());
        page.engineBox()->setCurrentText(QStringLiteral("/nonexistent/docker"));
        page.test();
        QVERIFY(tested.wait(60000));
        QVERIFY2(page.report().contains(QStringLiteral("could not be started")),
                 qPrintable(page.report()));
    }

    // The window on a remote context without the image: the bar over the editor says so and
    // offers to send it from this machine; sent, the bar goes and the remote has it.
    void theWindowOffersToSendAnImageTheRemoteLacks()
    {
        const LocalImage tag(QStringLiteral("window-test"), m_remote.socket);
        QVERIFY(tag.made);
        const QString &image = tag.image;
        QTemporaryDir data;
        AppSettings s;
        s.dataDir = data.path();
        s.baseUrl = QStringLiteral("http://127.0.0.1:9/v1"); // no model is asked here
        s.apiKey = QStringLiteral("unused");
        s.engineContext = m_context;
        s.image = image;
        MainWindow window(s);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *bar = window.findChild<ImageBar *>(QStringLiteral("imageBar"));
        QVERIFY(bar);
        QTRY_VERIFY_WITH_TIMEOUT(bar->isVisible(), 60000);
        QVERIFY2(bar->text().contains(image) && bar->text().contains(m_remote.ssh)
                     && bar->text().contains(QStringLiteral("send it from this machine")),
                 qPrintable(bar->text()));
        auto *send = bar->findChild<QPushButton *>(QStringLiteral("sendImage"));
        auto *build = bar->findChild<QPushButton *>(QStringLiteral("buildImage"));
        QVERIFY(send && send->isVisible());
        QCOMPARE(build->text(), QStringLiteral("Build it there"));
        send->click();
        QVERIFY(!send->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(!bar->isVisible(), 300000);
        QCOMPARE(RemoteEngine::docker(m_remote.socket,
                                      {QStringLiteral("image"), QStringLiteral("inspect"), image}),
                 0);
    }
};

QTEST_MAIN(TestEnginePage)
#include "tst_enginepage.moc"
