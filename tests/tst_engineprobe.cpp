#include <sandbox/engineprobe.h>

#include <QtTest>

using namespace Sandcastle;

// The engine page's lists and Test line, read from what the CLIs print (shapes taken from
// docker 28.2 and podman 4.3 on Debian 12).
class TestEngineProbe : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void dockerContextsOneJsonObjectALine()
    {
        QCOMPARE(EngineProbe::listArguments(QStringLiteral("docker")).first(),
                 QStringLiteral("context"));
        const QByteArray out
            = "{\"Current\":true,\"Description\":\"Current DOCKER_HOST based configuration\","
              "\"DockerEndpoint\":\"unix:///var/run/"
              "docker.sock\",\"Error\":\"\",\"Name\":\"default\"}\n"
              "{\"Current\":false,\"Description\":\"\",\"DockerEndpoint\":\"ssh://me@gpu-box\","
              "\"Error\":\"\",\"Name\":\"gpu-box\"}\n"
              "not json\n\n";
        const QList<EngineProbe::Endpoint> found
            = EngineProbe::parseList(QStringLiteral("docker"), out);
        QCOMPARE(found.size(), 2);
        QCOMPARE(found.at(0).name, QStringLiteral("default"));
        QVERIFY(found.at(0).current);
        QCOMPARE(found.at(1).name, QStringLiteral("gpu-box"));
        QCOMPARE(found.at(1).address, QStringLiteral("ssh://me@gpu-box"));
        QVERIFY(!found.at(1).current);
    }

    void podmanConnectionsOneJsonArray()
    {
        QCOMPARE(EngineProbe::listArguments(QStringLiteral("/usr/bin/podman")).first(),
                 QStringLiteral("system"));
        const QByteArray out
            = "[{\"Name\":\"build\",\"URI\":\"ssh://core@build:22/run/podman/podman.sock\","
              "\"Identity\":\"/home/me/.ssh/id\",\"Default\":true}]";
        const QList<EngineProbe::Endpoint> found
            = EngineProbe::parseList(QStringLiteral("podman"), out);
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.at(0).address, QStringLiteral("ssh://core@build:22/run/podman/podman.sock"));
        QVERIFY(found.at(0).current);
        QVERIFY(EngineProbe::parseList(QStringLiteral("podman"), "[]").isEmpty());
        QVERIFY(EngineProbe::parseList(QStringLiteral("podman"), "garbage").isEmpty());
    }

    void whatADaemonSaysOfItself()
    {
        const EngineProbe::Facts docker = EngineProbe::parseInfo(
            QStringLiteral("docker"),
            "{\"ServerVersion\":\"28.2.2\",\"OperatingSystem\":\"Debian GNU/Linux 12 (bookworm)\","
            "\"NCPU\":2,\"MemTotal\":25276157952}");
        QCOMPARE(
            EngineProbe::describe(docker),
            QStringLiteral("Docker 28.2.2 on Debian GNU/Linux 12 (bookworm), 2 CPUs, 23.5 GiB"));
        const EngineProbe::Facts podman
            = EngineProbe::parseInfo(QStringLiteral("podman"),
                                     "{\"host\":{\"cpus\":1,\"memTotal\":2147483648,"
                                     "\"distribution\":{\"distribution\":\"debian\","
                                     "\"version\":\"12\"}},\"version\":{\"Version\":\"4.3.1\"}}");
        QCOMPARE(EngineProbe::describe(podman),
                 QStringLiteral("Podman 4.3.1 on debian 12, 1 CPU, 2.0 GiB"));
    }

    void anUnansweringDaemonOrJunkIsSaid()
    {
        const EngineProbe::Facts down
            = EngineProbe::parseInfo(QStringLiteral("docker"),
                                     "{\"ServerErrors\":[\"Cannot connect to the Docker daemon at "
                                     "unix:///var/run/docker.sock\"]}");
        QVERIFY(EngineProbe::describe(down).startsWith(QStringLiteral("Cannot connect")));
        const EngineProbe::Facts junk = EngineProbe::parseInfo(QStringLiteral("docker"), "<html>");
        QVERIFY(!junk.error.isEmpty());
        QVERIFY(EngineProbe::describe(junk).contains(QStringLiteral("<html>")));
        QVERIFY(!EngineProbe::parseInfo(QStringLiteral("docker"), "{}").error.isEmpty());
    }
};

QTEST_MAIN(TestEngineProbe)
#include "tst_engineprobe.moc"
