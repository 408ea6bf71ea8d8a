#include <sandbox/containerengine.h>
#include <sandbox/daemonendpoint.h>
#include <sandbox/sandboxconfig.h>
#include <sandbox/sandboxengine.h>

#include <QLocalServer>
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
        config.context = QStringLiteral("sandcastle-test-no-such-context");
        config.workspace = QStringLiteral("/tmp/ws");
        const std::unique_ptr<SandboxEngine> engine = SandboxEngine::forConfig(config);
        // A context that does not say where it is could be anywhere: the folder is copied.
        QCOMPARE(engine->workspaceStrategy(), WorkspaceStrategy::Copy);
        const EngineCommand create = engine->createContainer(QStringLiteral("box"), 42);
        QCOMPARE(create.program, QStringLiteral("docker"));
        QCOMPARE(create.arguments, config.runArguments(QStringLiteral("box"), 42));
        QVERIFY(create.arguments.contains(QStringLiteral("type=volume,target=/workspace")));
        const QStringList context{QStringLiteral("--context"), config.context};
        const QStringList exec{QStringLiteral("exec"),
                               QStringLiteral("--interactive"),
                               QStringLiteral("box"),
                               QStringLiteral("python3"),
                               QStringLiteral("/opt/sandcastle/kernel.py")};
        QCOMPARE(engine->execKernel(QStringLiteral("box")).arguments, context + exec);
        const QStringList remove{QStringLiteral("rm"),
                                 QStringLiteral("--force"),
                                 QStringLiteral("--volumes"),
                                 QStringLiteral("box")};
        QCOMPARE(engine->removeContainer(QStringLiteral("box")).arguments, context + remove);
        const QStringList kill{QStringLiteral("kill"), QStringLiteral("box")};
        QCOMPARE(engine->killContainer(QStringLiteral("box")).arguments, context + kill);
        QVERIFY(engine->readOomCounters(QStringLiteral("box"))
                    .arguments.contains(QStringLiteral("/sys/fs/cgroup/memory.events")));
    }

    void theKernelIsToldWhatToImportInTheBackground()
    {
        SandboxConfig config;
        config.workspace = QStringLiteral("/tmp/ws");
        config.preimports = {QStringLiteral("numpy"),
                             QStringLiteral("matplotlib.pyplot"),
                             QStringLiteral("--evil"),
                             QStringLiteral("a b")};
        QStringList args
            = SandboxEngine::forConfig(config)->execKernel(QStringLiteral("box")).arguments;
        QCOMPARE(args.mid(args.size() - 2),
                 QStringList(
                     {QStringLiteral("--preimport"), QStringLiteral("numpy,matplotlib.pyplot")}));
        QVERIFY(SandboxConfig::isValidModuleName(QStringLiteral("scipy.stats")));
        QVERIFY(SandboxConfig::isValidModuleName(QStringLiteral("_private.mod_2")));
        for (const char *bad : {"", ".x", "x.", "a..b", "9lives", "a-b", "a,b", "a b", "--x"})
            QVERIFY2(!SandboxConfig::isValidModuleName(QLatin1String(bad)), bad);
        // None to import: no flag at all.
        config.preimports = {QStringLiteral("--evil")};
        args = SandboxEngine::forConfig(config)->execKernel(QStringLiteral("box")).arguments;
        QCOMPARE(args.last(), QStringLiteral("/opt/sandcastle/kernel.py"));
    }

    void theEnginesMemoryFiguresAreRead()
    {
        QCOMPARE(ContainerEngine::parseMemoryUsage(QStringLiteral("12.5MiB / 1GiB")),
                 qint64(12.5 * 1024 * 1024));
        QCOMPARE(ContainerEngine::parseMemoryUsage(QStringLiteral("812KiB / 1GiB")), 812 * 1024);
        QCOMPARE(ContainerEngine::parseMemoryUsage(QStringLiteral("1.2GB / 2GB")),
                 qint64(1200000000));
        QCOMPARE(ContainerEngine::parseMemoryUsage(QStringLiteral("0B / 0B")), 0);
        QCOMPARE(ContainerEngine::parseMemoryUsage(QStringLiteral("3kB")), 3000);
        for (const char *bad : {"", "--", "12 apples / 1GiB", "MiB", "-1MiB / 1GiB"})
            QCOMPARE(ContainerEngine::parseMemoryUsage(QLatin1String(bad)), -1);
    }

    void podmanNamesItsEndpointAConnection()
    {
        SandboxConfig config;
        config.engine = QStringLiteral("podman");
        config.context = QStringLiteral("gpu-box");
        QCOMPARE(config.engineArguments({QStringLiteral("ps")}),
                 (QStringList{QStringLiteral("--connection"),
                              QStringLiteral("gpu-box"),
                              QStringLiteral("ps")}));
    }

    void theWorkspaceModeCanBeForced()
    {
        SandboxConfig config;
        config.workspace = QStringLiteral("/tmp/ws");
        config.conversationId = QStringLiteral("c1");
        config.workspaceMode = SandboxConfig::WorkspaceMode::Copy;
        QCOMPARE(
            valueAfter(config.runArguments(QStringLiteral("box"), 1), QStringLiteral("--mount")),
            QStringLiteral("type=volume,target=/workspace,source=sandcastle-ws-c1,volume-label=app="
                           "sandcastle,volume-label=sandcastle.owner-host=")
                + SandboxConfig::ownerHost());
        config.keepsVolume = false;
        QCOMPARE(
            valueAfter(config.runArguments(QStringLiteral("box"), 1), QStringLiteral("--mount")),
            QStringLiteral("type=volume,target=/workspace"));
        SandboxConfig bound = config;
        bound.workspaceMode = SandboxConfig::WorkspaceMode::Bind;
        QVERIFY(bound.needsNewContainer(config));
        QCOMPARE(SandboxConfig::parseWorkspaceMode(QStringLiteral("COPY")),
                 std::optional(SandboxConfig::WorkspaceMode::Copy));
        QVERIFY(!SandboxConfig::parseWorkspaceMode(QStringLiteral("cpy")));
    }

    void containersAndVolumesSayWhoseTheyAre()
    {
        QVERIFY(!SandboxConfig::ownerHost().isEmpty());
        QVERIFY(!SandboxConfig::ownerHost().contains(QLatin1Char(',')));
        const QString data
            = SandboxConfig::ownerDataFor(QStringLiteral("/home/a/.local/sandcastle"));
        QCOMPARE(data.size(), 16);
        QCOMPARE(SandboxConfig::ownerDataFor(QStringLiteral("/home/a/.local/sandcastle/")), data);
        QVERIFY(SandboxConfig::ownerDataFor(QStringLiteral("/home/b/.local/sandcastle")) != data);
        QVERIFY(SandboxConfig::ownerDataFor(QString()).isEmpty());

        SandboxConfig config;
        config.workspace = QStringLiteral("/tmp/ws");
        config.conversationId = QStringLiteral("c1");
        config.ownerData = data;
        config.workspaceMode = SandboxConfig::WorkspaceMode::Copy;
        const QStringList args = config.runArguments(QStringLiteral("box"), 7);
        QVERIFY(
            args.contains(QStringLiteral("sandcastle.owner-host=") + SandboxConfig::ownerHost()));
        QVERIFY(args.contains(QStringLiteral("sandcastle.owner-data=") + data));
        const QString mount = valueAfter(args, QStringLiteral("--mount"));
        QVERIFY2(mount.endsWith(QStringLiteral(",volume-label=sandcastle.owner-data=") + data),
                 qPrintable(mount));
        // Podman 4.3 refuses volume-label: its volume is named, not labelled.
        config.engine = QStringLiteral("podman");
        QCOMPARE(
            valueAfter(config.runArguments(QStringLiteral("box"), 7), QStringLiteral("--mount")),
            QStringLiteral("type=volume,target=/workspace,source=sandcastle-ws-c1"));
    }

    void anEngineThatIgnoresTheLimitsIsRefusedUnlessAllowed()
    {
        const QByteArray podman = "Resource limits are not supported and ignored on cgroups V1 "
                                  "rootless systems\nabc123\n";
        qunsetenv("SANDCASTLE_ALLOW_UNLIMITED");
        QVERIFY(SandboxEngine::ignoredLimits("abc123\n").isEmpty());
        const QString refusal = SandboxEngine::ignoredLimits(podman);
        QVERIFY2(refusal.contains(QStringLiteral("ignores the sandbox's memory, process and CPU "
                                                 "limits")),
                 qPrintable(refusal));
        qputenv("SANDCASTLE_ALLOW_UNLIMITED", "yes"); // only 1 allows it
        QVERIFY(!SandboxEngine::ignoredLimits(podman).isEmpty());
        qputenv("SANDCASTLE_ALLOW_UNLIMITED", "1");
        QVERIFY(SandboxEngine::ignoredLimits(podman).isEmpty());
        qunsetenv("SANDCASTLE_ALLOW_UNLIMITED");
    }

    void theEndpointIsAskedWhetherItSeesTheFolder()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("daemon.sock"));
        QLocalServer server;
        QVERIFY(server.listen(path));
        // This process answers on the socket: it is its own peer and sees its own folders.
        QCOMPARE(DaemonEndpoint::socketPeerPid(path), QCoreApplication::applicationPid());
        QVERIFY(DaemonEndpoint::seesFolder(QStringLiteral("unix://") + path,
                                           dir.filePath(QStringLiteral("not/made/yet"))));
        QCOMPARE(DaemonEndpoint::socketPeerPid(dir.filePath(QStringLiteral("nobody.sock"))), -1);
        QVERIFY(!DaemonEndpoint::seesFolder(QStringLiteral("ssh://me@127.0.0.1"), dir.path()));
        QVERIFY(!DaemonEndpoint::seesFolder(QStringLiteral("tcp://127.0.0.1:2376"), dir.path()));
        QVERIFY(DaemonEndpoint::seesFolder(QString(), dir.path())); // podman on this machine
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

    // The docker CLI, when ssh has exited before it wrote to it, says "write |1: broken pipe"
    // instead of ssh's words (3 of 60 tries against a closed port on a loaded machine): such a
    // start is tried again, and no description ends in docker's usage hint.
    void aRemoteConnectionBrokenWithoutAReasonIsTriedAgain()
    {
        const QByteArray before = qgetenv("DOCKER_HOST");
        qputenv("DOCKER_HOST", "ssh://root@remote.invalid");
        SandboxConfig config;
        config.engine = QStringLiteral("false"); // no CLI to ask: DOCKER_HOST is the daemon
        const std::unique_ptr<SandboxEngine> remote = SandboxEngine::forConfig(config);
        const QByteArray silent = "docker: error during connect: Head "
                                  "\"http://docker.example.com/_ping\": write |1: broken pipe\n\n"
                                  "Run 'docker run --help' for more information\n";
        const QByteArray refused
            = "docker: error during connect: Head \"http://docker.example.com/_ping\": command "
              "[ssh -o ConnectTimeout=30 -T -l root -- remote.invalid docker system dial-stdio] "
              "has exited with exit status 255, make sure the URL is valid, and Docker 18.09 or "
              "later is installed on the remote host: stderr=ssh: connect to host 127.0.0.1 port "
              "1: Connection refused\n\nRun 'docker run --help' for more information\n";
        QVERIFY(remote->connectionFailedWithoutReason(silent));
        QVERIFY(!remote->connectionFailedWithoutReason(refused));
        QVERIFY(!remote->connectionFailedWithoutReason("Unable to find image 'x' locally"));
        const QString silentSaid = remote->describeStartFailure(silent);
        QVERIFY2(silentSaid.contains(QStringLiteral("broken pipe"))
                     && !silentSaid.contains(QStringLiteral("--help")),
                 qPrintable(silentSaid));
        const QString refusedSaid = remote->describeStartFailure(refused);
        QVERIFY2(refusedSaid.endsWith(QStringLiteral("port 1: Connection refused")),
                 qPrintable(refusedSaid));
        // A daemon on this machine is never tried again: its failures are not the way there.
        qputenv("DOCKER_HOST", "unix:///var/run/docker.sock");
        const std::unique_ptr<SandboxEngine> local = SandboxEngine::forConfig(config);
        QVERIFY(!local->connectionFailedWithoutReason(silent));
        if (before.isEmpty())
            qunsetenv("DOCKER_HOST");
        else
            qputenv("DOCKER_HOST", before);
    }
};

QTEST_GUILESS_MAIN(TestSandboxConfig)
#include "tst_sandboxconfig.moc"
