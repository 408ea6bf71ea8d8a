#include <sandbox/sandboxconfig.h>
#include <sandbox/sandboxengine.h>

#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

using namespace Sandcastle;

class TestSandboxConfig : public QObject
{
    Q_OBJECT

    static QString valueAfter(const QStringList &args, const QString &flag)
    {
        const qsizetype i = args.indexOf(flag);
        return i >= 0 && i + 1 < args.size() ? args.at(i + 1) : QString();
    }

private Q_SLOTS:
    void defaultsAreTheHardenedOnes()
    {
        SandboxConfig config;
        config.workspace = QStringLiteral("/tmp/ws");
        const QStringList args = config.runArguments(QStringLiteral("box"), 42);
        QCOMPARE(valueAfter(args, QStringLiteral("--network")), QStringLiteral("none"));
        QCOMPARE(valueAfter(args, QStringLiteral("--cap-drop")), QStringLiteral("ALL"));
        QCOMPARE(valueAfter(args, QStringLiteral("--security-opt")),
                 QStringLiteral("no-new-privileges"));
        QVERIFY(args.contains(QStringLiteral("--read-only")));
        QVERIFY(valueAfter(args, QStringLiteral("--tmpfs")).startsWith(QStringLiteral("/tmp:")));
        QVERIFY(valueAfter(args, QStringLiteral("--tmpfs")).contains(QStringLiteral("size=")));
        QCOMPARE(valueAfter(args, QStringLiteral("--memory")), QStringLiteral("1g"));
        QCOMPARE(valueAfter(args, QStringLiteral("--memory-swap")), QStringLiteral("1g"));
        QCOMPARE(valueAfter(args, QStringLiteral("--cpus")), QStringLiteral("1"));
        QCOMPARE(valueAfter(args, QStringLiteral("--pids-limit")), QStringLiteral("256"));
        QVERIFY(args.contains(QStringLiteral("--init")));
        QCOMPARE(valueAfter(args, QStringLiteral("--log-driver")), QStringLiteral("none"));
        QCOMPARE(valueAfter(args, QStringLiteral("--pull")), QStringLiteral("never"));
        QVERIFY(args.contains(QStringLiteral("sandcastle.owner-pid=42")));
        QVERIFY(args.contains(QStringLiteral("app=sandcastle")));
    }

    void theWorkspaceIsTheOnlyMountAndNeverTheDockerSocket()
    {
        SandboxConfig config;
        config.workspace = QStringLiteral("/tmp/ws");
        const QStringList args = config.runArguments(QStringLiteral("box"), 1);
        QCOMPARE(args.count(QStringLiteral("--mount")), 1);
        QCOMPARE(valueAfter(args, QStringLiteral("--mount")),
                 QStringLiteral("type=bind,source=/tmp/ws,target=/workspace"));
        QVERIFY(!args.contains(QStringLiteral("-v")));
        QVERIFY(!args.contains(QStringLiteral("--volume")));
        QVERIFY(!args.join(QLatin1Char(' ')).contains(QStringLiteral("docker.sock")));
        QVERIFY(!args.contains(QStringLiteral("--privileged")));
    }

    void neverRunsCodeAsRoot()
    {
        const QString user = SandboxConfig::containerUser();
        QVERIFY(!user.startsWith(QStringLiteral("0:")));
        if (::getuid() == 0)
            QCOMPARE(user, QStringLiteral("1000:1000"));
        else
            QCOMPARE(user, QStringLiteral("%1:%2").arg(::getuid()).arg(::getgid()));
        SandboxConfig config;
        QCOMPARE(valueAfter(config.runArguments(QStringLiteral("b"), 1), QStringLiteral("--user")),
                 user);
    }

    void anOpenedFolderRunsAsItsOwnerAndRootsIsReadOnly()
    {
        const SandboxConfig::FolderAccess mine = SandboxConfig::folderAccess(1000, 1000, 1000);
        QCOMPARE(mine.user, QStringLiteral("1000:1000"));
        QVERIFY(!mine.readOnly);
        QVERIFY(mine.reason.isEmpty());
        // Another person's folder, opened by root: still its owner, never root.
        const SandboxConfig::FolderAccess theirs = SandboxConfig::folderAccess(1001, 100, 0);
        QCOMPARE(theirs.user, QStringLiteral("1001:100"));
        QVERIFY(!theirs.readOnly);
        for (const uint host : {0u, 1000u}) {
            const SandboxConfig::FolderAccess roots = SandboxConfig::folderAccess(0, 0, host);
            QCOMPARE(roots.user, QStringLiteral("1000:1000"));
            QVERIFY(roots.readOnly);
            QVERIFY2(roots.reason.contains(QStringLiteral("read-only"))
                         && roots.reason.contains(QStringLiteral("owned by root")),
                     qPrintable(roots.reason));
        }
        QVERIFY(SandboxConfig::folderAccess(0, 0, 1000).reason.contains(QStringLiteral("1000")));
    }

    void anExplicitUserAndAReadOnlyWorkspaceReachTheArguments()
    {
        SandboxConfig config;
        config.workspace = QStringLiteral("/tmp/ws");
        config.user = QStringLiteral("1234:567");
        config.workspaceReadOnly = true;
        const QStringList args = config.runArguments(QStringLiteral("box"), 1);
        QCOMPARE(valueAfter(args, QStringLiteral("--user")), QStringLiteral("1234:567"));
        QCOMPARE(valueAfter(args, QStringLiteral("--mount")),
                 QStringLiteral("type=bind,source=/tmp/ws,target=/workspace,readonly"));
        SandboxConfig writable = config;
        writable.workspaceReadOnly = false;
        QVERIFY(writable.needsNewContainer(config));
        SandboxConfig other = config;
        other.user = QStringLiteral("1000:1000");
        QVERIFY(other.needsNewContainer(config));
    }

    void useOpenedFolderReadsTheOwner()
    {
        QTemporaryDir dir;
        SandboxConfig config;
        config.workspace = dir.path();
        config.useOpenedFolder();
        if (::getuid() == 0) {
            QCOMPARE(config.user, QStringLiteral("1000:1000"));
            QVERIFY(config.workspaceReadOnly);
            QVERIFY(!config.workspaceNote.isEmpty());
        } else {
            QCOMPARE(config.user, QStringLiteral("%1:%2").arg(::getuid()).arg(::getgid()));
            QVERIFY(!config.workspaceReadOnly);
        }
        config.workspace = QStringLiteral("/nonexistent/sandcastle");
        config.useOpenedFolder(); // unknown owner: as root's, never uid 0
        QVERIFY(config.workspaceReadOnly);
    }

    void everyLimitIsASetting()
    {
        SandboxConfig config;
        config.memory = QStringLiteral("256m");
        config.cpus = QStringLiteral("0.5");
        config.pidsLimit = 64;
        config.network = true;
        config.runtime = QStringLiteral("runsc");
        config.conversationId = QStringLiteral("abc");
        const QStringList args = config.runArguments(QStringLiteral("box"), 1);
        QCOMPARE(valueAfter(args, QStringLiteral("--memory")), QStringLiteral("256m"));
        QCOMPARE(valueAfter(args, QStringLiteral("--memory-swap")), QStringLiteral("256m"));
        QCOMPARE(valueAfter(args, QStringLiteral("--cpus")), QStringLiteral("0.5"));
        QCOMPARE(valueAfter(args, QStringLiteral("--pids-limit")), QStringLiteral("64"));
        QCOMPARE(valueAfter(args, QStringLiteral("--network")), QStringLiteral("bridge"));
        QCOMPARE(valueAfter(args, QStringLiteral("--runtime")), QStringLiteral("runsc"));
        QVERIFY(args.contains(QStringLiteral("sandcastle.conversation=abc")));
    }

    void aContextGoesBeforeEveryCommand()
    {
        SandboxConfig config;
        config.context = QStringLiteral("remote-box");
        const QStringList args = config.runArguments(QStringLiteral("b"), 1);
        QCOMPARE(args.mid(0, 3),
                 (QStringList{QStringLiteral("--context"),
                              QStringLiteral("remote-box"),
                              QStringLiteral("run")}));
        QCOMPARE(config.engineArguments({QStringLiteral("kill"), QStringLiteral("b")}).first(),
                 QStringLiteral("--context"));
        config.context.clear();
        QCOMPARE(config.engineArguments({QStringLiteral("kill")}),
                 QStringList{QStringLiteral("kill")});
    }

    void environmentChoosesEngineAndImage()
    {
        qputenv("SANDCASTLE_IMAGE", "custom:1");
        qputenv("SANDCASTLE_ENGINE", "podman");
        const SandboxConfig config = SandboxConfig::fromEnvironment();
        qunsetenv("SANDCASTLE_IMAGE");
        qunsetenv("SANDCASTLE_ENGINE");
        QCOMPARE(config.image, QStringLiteral("custom:1"));
        QCOMPARE(config.engine, QStringLiteral("podman"));
    }

    void theLocalEngineSpeaksTheCliOfItsContext()
    {
        SandboxConfig config;
        config.engine = QStringLiteral("podman");
        config.context = QStringLiteral("remote");
        config.workspace = QStringLiteral("/tmp/ws");
        const std::unique_ptr<SandboxEngine> engine = SandboxEngine::forConfig(config);
        QCOMPARE(engine->workspaceStrategy(), WorkspaceStrategy::Bind);
        const EngineCommand create = engine->createContainer(QStringLiteral("box"), 42);
        QCOMPARE(create.program, QStringLiteral("podman"));
        QCOMPARE(create.arguments, config.runArguments(QStringLiteral("box"), 42));
        const QStringList context{QStringLiteral("--context"), QStringLiteral("remote")};
        const QStringList exec{QStringLiteral("exec"),
                               QStringLiteral("--interactive"),
                               QStringLiteral("box"),
                               QStringLiteral("python3"),
                               QStringLiteral("/opt/sandcastle/kernel.py")};
        QCOMPARE(engine->execKernel(QStringLiteral("box")).arguments, context + exec);
        const QStringList remove{
            QStringLiteral("rm"), QStringLiteral("--force"), QStringLiteral("box")};
        QCOMPARE(engine->removeContainer(QStringLiteral("box")).arguments, context + remove);
        const QStringList kill{QStringLiteral("kill"), QStringLiteral("box")};
        QCOMPARE(engine->killContainer(QStringLiteral("box")).arguments, context + kill);
        QVERIFY(engine->readOomCounters(QStringLiteral("box"))
                    .arguments.contains(QStringLiteral("/sys/fs/cgroup/memory.events")));
    }

    void startFailuresSayWhatToDo()
    {
        SandboxConfig config;
        config.image = QStringLiteral("mine:1");
        const std::unique_ptr<SandboxEngine> engine = SandboxEngine::forConfig(config);
        QVERIFY(engine->describeStartFailure("Unable to find image 'mine:1' locally")
                    .contains(QStringLiteral("sandcastle image build")));
        QVERIFY(engine->describeStartFailure("Cannot connect to the Docker daemon at unix://")
                    .startsWith(QStringLiteral("the Docker daemon is not running")));
        QVERIFY(engine->describeStartFailure("Got permission denied while trying to connect")
                    .startsWith(QStringLiteral("permission denied")));
        QVERIFY(engine->describeStartFailure("boom").endsWith(QStringLiteral("boom")));
    }
};

QTEST_GUILESS_MAIN(TestSandboxConfig)
#include "tst_sandboxconfig.moc"
