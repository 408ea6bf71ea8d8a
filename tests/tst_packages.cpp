#include <app/agent/agent.h>
#include <app/agent/filetools.h>
#include <app/controller/conversationcontroller.h>
#include <app/project/projectenvironment.h>
#include <sandbox/containerengine.h>
#include <sandbox/sandboxsession.h>
#include <support/dockercheck.h>
#include <support/fakeopenaiserver.h>
#include <support/probewheel.h>

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace Sandcastle;
using Sandcastle::Testing::FakeOpenAiServer;

// Packages through a conversation, against the real daemon and a scripted model: the default
// image's data stack (an uploaded Excel file, scikit-learn, seaborn) and its list in the system
// prompt; install_packages, which always asks, builds (from a wheelhouse, no index) and moves the
// session to the new image with the network still off in the runs; a decline; and a
// requirements.txt the agent wrote, which waits for the person instead of building.
class TestPackages : public QObject
{
    Q_OBJECT

    QTemporaryDir m_wheelhouse;
    QTemporaryDir m_data;
    QStringList m_tags;

    AppSettings settingsFor(const FakeOpenAiServer &server) const
    {
        AppSettings settings;
        settings.dataDir = m_data.path();
        settings.baseUrl = server.baseUrl();
        settings.model = QStringLiteral("fake-model");
        settings.apiKey = QStringLiteral("test");
        const SandboxConfig sandbox = SandboxConfig::fromEnvironment();
        settings.engine = sandbox.engine;
        settings.image = sandbox.image;
        settings.wheelhouse = m_wheelhouse.path();
        return settings;
    }

    static QString
    runToEnd(ConversationController &controller, const QString &prompt, int timeoutMs)
    {
        QSignalSpy finished(controller.agent(), &Agent::finished);
        if (!controller.submitPrompt(prompt))
            return QStringLiteral("refused");
        if (!finished.wait(timeoutMs))
            return QStringLiteral("no end");
        return finished.first().at(0).toString();
    }

    // The tool results the model was sent, by call id, from the requests the server got.
    static QMap<QString, nlohmann::json> toolResults(const FakeOpenAiServer &server)
    {
        QMap<QString, nlohmann::json> out;
        for (const FakeOpenAiServer::Request &request : server.requests()) {
            const nlohmann::json body
                = nlohmann::json::parse(request.body.toStdString(), nullptr, false);
            if (!body.is_object() || !body.contains("messages"))
                continue;
            for (const nlohmann::json &message : body["messages"]) {
                if (message.value("role", std::string()) != "tool")
                    continue;
                out.insert(
                    QString::fromStdString(message.value("tool_call_id", std::string())),
                    nlohmann::json::parse(message.value("content", std::string()), nullptr, false));
            }
        }
        return out;
    }

    static QString systemPrompt(const FakeOpenAiServer &server, int request)
    {
        const nlohmann::json body = nlohmann::json::parse(
            server.requests().at(request).body.toStdString(), nullptr, false);
        return QString::fromStdString(body["messages"][0].value("content", std::string()));
    }

    static QByteArray args(const nlohmann::json &object)
    {
        return QByteArray::fromStdString(object.dump());
    }

    static QByteArray readAll(const QString &path)
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

private Q_SLOTS:
    void initTestCase()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        QStandardPaths::setTestModeEnabled(true);
        const QString problem = Testing::makeProbeWheel(m_wheelhouse.path());
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void cleanupTestCase() { Testing::removeEnvironmentImages(m_tags); }

    void anExcelFileAModelAndAChartInTheDefaultImage()
    {
        QTemporaryDir upload;
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        // The spreadsheet is written in a first run (openpyxl), then the scripted model reads it,
        // fits y = 2x + 1 with scikit-learn and saves a seaborn chart.
        server.enqueueToolCall(QStringLiteral("x1"),
                               QStringLiteral("run_python"),
                               args({{"code",
                                      "import pandas as pd\n"
                                      "df = pd.read_excel('sales.xlsx')\n"
                                      "from sklearn.linear_model import LinearRegression\n"
                                      "m = LinearRegression().fit(df[['x']], df['y'])\n"
                                      "print('coef %.3f intercept %.3f rows %d' % (m.coef_[0], "
                                      "m.intercept_, len(df)))\n"
                                      "import seaborn as sns, matplotlib.pyplot as plt\n"
                                      "sns.regplot(data=df, x='x', y='y')\n"
                                      "import os\nos.makedirs('outputs', exist_ok=True)\n"
                                      "plt.savefig('outputs/fit.png')\n"}}));
        server.enqueueText(QStringLiteral("y = 2x + 1."));
        ConversationController controller(settingsFor(server));
        // The person's spreadsheet, made with openpyxl in a throwaway container, then uploaded.
        const ContainerEngine::Output made = Testing::pythonInImage(
            {upload.path() + QStringLiteral(":/out")},
            {QStringLiteral("-c"),
             QStringLiteral("import openpyxl\nwb = openpyxl.Workbook()\nws = wb.active\n"
                            "ws.append(['x', 'y'])\n"
                            "for x in range(10): ws.append([x, 2 * x + 1])\n"
                            "wb.save('/out/sales.xlsx')\n")});
        QVERIFY2(made.exitCode == 0, made.stderrData.constData());
        QDir().mkpath(controller.workspace());
        const Result<QString> uploaded = FileTools::upload(
            controller.workspace(), upload.filePath(QStringLiteral("sales.xlsx")));
        QVERIFY2(uploaded, qPrintable(uploaded.error()));

        QCOMPARE(runToEnd(controller, QStringLiteral("Fit sales.xlsx"), 180000),
                 QStringLiteral("answered"));
        const QMap<QString, nlohmann::json> results = toolResults(server);
        const QString out = QString::fromStdString(
            results.value(QStringLiteral("x1")).value("stdout", std::string()));
        QVERIFY2(out.contains(QStringLiteral("coef 2.000 intercept 1.000 rows 10")),
                 results.value(QStringLiteral("x1")).dump().c_str());
        QVERIFY(readAll(controller.workspace() + QStringLiteral("/outputs/fit.png"))
                    .startsWith("\x89PNG"));
        // The system prompt named what the image has, from its label.
        const QString prompt = systemPrompt(server, 0);
        QVERIFY2(prompt.contains(QStringLiteral("Installed in the sandbox: numpy ")),
                 qPrintable(prompt));
        QVERIFY(prompt.contains(QStringLiteral("scikit-learn")));
        QVERIFY(prompt.contains(QStringLiteral("openpyxl")));
        controller.shutDown(ConversationController::ShutDownMode::Wait);
    }

    void installPackagesAsksBuildsAndTheSessionMovesToTheNewImage()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueToolCall(
            QStringLiteral("i1"),
            QStringLiteral("install_packages"),
            args({{"pip", {"sandcastle-probe"}}, {"reason", "to read the probe"}}));
        server.enqueueToolCall(
            QStringLiteral("r1"),
            QStringLiteral("run_python"),
            args({{"code",
                   "import os, sandcastle_probe\n"
                   "print(sandcastle_probe.ANSWER, sorted(os.listdir('/sys/class/net')))\n"}}));
        server.enqueueText(QStringLiteral("Installed."));
        ConversationController controller(settingsFor(server));
        ProjectEnvironment *environment = controller.environment();
        environment->setCanAsk(true);
        QSignalSpy asked(environment, &ProjectEnvironment::approvalNeeded);
        QSignalSpy restarted(&controller, &ConversationController::environmentRestarted);
        QSignalSpy finished(controller.agent(), &Agent::finished);
        QVERIFY(controller.submitPrompt(QStringLiteral("Use the probe")));
        QVERIFY(asked.wait(60000));
        const auto approval = asked.first().at(0).value<ProjectEnvironment::Approval>();
        QCOMPARE(approval.kind, ProjectEnvironment::Approval::Kind::Install);
        QCOMPARE(approval.pip, QStringList{QStringLiteral("sandcastle-probe")});
        QCOMPARE(approval.reason, QStringLiteral("to read the probe"));
        QVERIFY2(approval.diff.contains(QStringLiteral("+sandcastle-probe")),
                 qPrintable(approval.diff));
        // Nothing is written or built before the person says so.
        QCOMPARE(environment->state(), ProjectEnvironment::State::AwaitingApproval);
        QVERIFY(!QFileInfo::exists(controller.workspace() + QStringLiteral("/requirements.txt")));
        environment->approve();
        QVERIFY(finished.wait(600000));
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("answered"));
        const QString image = controller.session()->config().image;
        if (image.startsWith(QStringLiteral("sandcastle-env:")))
            m_tags.append(image); // removed at the end; never the base image
        QVERIFY2(image.startsWith(QStringLiteral("sandcastle-env:")),
                 qPrintable(image + QLatin1Char(' ')
                            + QString::fromStdString(
                                toolResults(server).value(QStringLiteral("i1")).dump())));
        QCOMPARE(readAll(controller.workspace() + QStringLiteral("/requirements.txt")),
                 QByteArray("sandcastle-probe\n"));
        QVERIFY(!restarted.isEmpty());
        const QMap<QString, nlohmann::json> results = toolResults(server);
        QCOMPARE(results.value(QStringLiteral("i1")).value("status", std::string()),
                 std::string("ok"));
        QVERIFY(QString::fromStdString(
                    results.value(QStringLiteral("i1")).value("packages", std::string()))
                    .contains(QStringLiteral("sandcastle-probe 1.0")));
        QCOMPARE(results.value(QStringLiteral("r1")).value("stdout", std::string()),
                 std::string("42 ['lo']\n")); // imported, and no network but the loopback
        // The next request's system prompt lists the new package.
        QVERIFY(systemPrompt(server, server.requests().size() - 1)
                    .contains(QStringLiteral("sandcastle-probe 1.0")));
        controller.shutDown(ConversationController::ShutDownMode::Wait);
    }

    void aDeclinedInstallTellsTheModelAndChangesNothing()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueToolCall(QStringLiteral("i1"),
                               QStringLiteral("install_packages"),
                               args({{"apt", {"jq"}}, {"reason", "json"}}));
        server.enqueueText(QStringLiteral("Fine."));
        ConversationController controller(settingsFor(server));
        controller.environment()->setCanAsk(true);
        QSignalSpy asked(controller.environment(), &ProjectEnvironment::approvalNeeded);
        QSignalSpy finished(controller.agent(), &Agent::finished);
        QVERIFY(controller.submitPrompt(QStringLiteral("Install jq")));
        QVERIFY(asked.wait(60000));
        controller.environment()->decline();
        QVERIFY(finished.wait(60000));
        const nlohmann::json result = toolResults(server).value(QStringLiteral("i1"));
        QCOMPARE(result.value("status", std::string()), std::string("error"));
        QVERIFY2(result.value("error", std::string()).find("declined") != std::string::npos,
                 result.dump().c_str());
        QVERIFY(!QFileInfo::exists(controller.workspace() + QStringLiteral("/apt.txt")));
        QCOMPARE(controller.session()->config().image, controller.settings().image);
        controller.shutDown(ConversationController::ShutDownMode::Wait);
    }

    void aStoppedTurnWithdrawsItsQuestion()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueToolCall(QStringLiteral("i1"),
                               QStringLiteral("install_packages"),
                               args({{"apt", {"jq"}}, {"reason", "json"}}));
        ConversationController controller(settingsFor(server));
        ProjectEnvironment *environment = controller.environment();
        environment->setCanAsk(true);
        QSignalSpy asked(environment, &ProjectEnvironment::approvalNeeded);
        QSignalSpy finished(controller.agent(), &Agent::finished);
        QVERIFY(controller.submitPrompt(QStringLiteral("Install jq")));
        QVERIFY(asked.wait(60000));
        controller.stop();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 30000);
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("stopped"));
        QVERIFY(!environment->pendingApproval());
        QCOMPARE(environment->state(), ProjectEnvironment::State::Default);
        environment->approve(); // nothing waits any more: nothing is written or built
        QCOMPARE(environment->state(), ProjectEnvironment::State::Default);
        QVERIFY(!QFileInfo::exists(controller.workspace() + QStringLiteral("/apt.txt")));
        controller.shutDown(ConversationController::ShutDownMode::Wait);
    }

    void aRequirementsFileTheAgentWroteWaitsForThePerson()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueToolCall(
            QStringLiteral("w1"),
            QStringLiteral("write_file"),
            args({{"path", "requirements.txt"}, {"content", "sandcastle-probe==1.0\nrich\n"}}));
        server.enqueueText(QStringLiteral("Wrote it."));
        ConversationController controller(settingsFor(server));
        ProjectEnvironment *environment = controller.environment();
        environment->setCanAsk(true);
        QSignalSpy asked(environment, &ProjectEnvironment::approvalNeeded);
        QSignalSpy states(environment, &ProjectEnvironment::stateChanged);
        // As in the window: the sandbox (and with it the workspace) is started with the
        // conversation.
        QSignalSpy ready(controller.session(), &SandboxSession::ready);
        controller.warmUp();
        QVERIFY(ready.wait(60000));
        QCOMPARE(runToEnd(controller, QStringLiteral("Pin the deps"), 120000),
                 QStringLiteral("answered"));
        QVERIFY(asked.wait(60000));
        const auto approval = asked.first().at(0).value<ProjectEnvironment::Approval>();
        QCOMPARE(approval.kind, ProjectEnvironment::Approval::Kind::FolderFiles);
        QVERIFY2(approval.diff.contains(QStringLiteral("+sandcastle-probe==1.0"))
                     && approval.diff.contains(QStringLiteral("+rich")),
                 qPrintable(approval.diff));
        QCOMPARE(environment->state(), ProjectEnvironment::State::AwaitingApproval);
        // Waiting for the person builds nothing, however long it waits.
        QTest::qWait(1500);
        for (const QList<QVariant> &state : std::as_const(states))
            QVERIFY(state.at(0).value<ProjectEnvironment::State>()
                    != ProjectEnvironment::State::Building);
        environment->decline();
        QCOMPARE(environment->state(), ProjectEnvironment::State::Default);
        QCOMPARE(controller.session()->config().image, controller.settings().image);
        // Declined content is not asked about again until it changes.
        asked.clear();
        environment->refresh();
        QTest::qWait(500);
        QVERIFY(asked.isEmpty());
        controller.shutDown(ConversationController::ShutDownMode::Wait);
    }

    void withoutAFaceToAskNothingIsBuilt()
    {
        FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.enqueueToolCall(QStringLiteral("i1"),
                               QStringLiteral("install_packages"),
                               args({{"pip", {"rich"}}, {"reason", "tables"}}));
        server.enqueueText(QStringLiteral("I could not."));
        ConversationController controller(settingsFor(server)); // as `sandcastle chat`: no asking
        QCOMPARE(runToEnd(controller, QStringLiteral("Install rich"), 60000),
                 QStringLiteral("answered"));
        const nlohmann::json result = toolResults(server).value(QStringLiteral("i1"));
        QCOMPARE(result.value("status", std::string()), std::string("error"));
        QVERIFY2(result.value("error", std::string()).find("sandcastle env build")
                     != std::string::npos,
                 result.dump().c_str());
        QVERIFY(!QFileInfo::exists(controller.workspace() + QStringLiteral("/requirements.txt")));
        controller.shutDown(ConversationController::ShutDownMode::Wait);
    }
};

QTEST_MAIN(TestPackages)
#include "tst_packages.moc"
