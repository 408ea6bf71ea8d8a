#include <app/store/conversationremoval.h>
#include <app/store/conversationstore.h>
#include <sandbox/containerengine.h>
#include <sandbox/sandboxsession.h>
#include <support/dockercheck.h>
#include <support/remoteengine.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <cerrno>
#include <csignal>

using namespace Sandcastle;
using Sandcastle::Testing::RemoteEngine;

// Housekeeping on an engine that other machines and other data folders share (the second
// daemon of scripts/remote-engine, where the workspace goes by copy into a volume): deleting a
// conversation removes its volume; orphans are reaped only when they are this machine's and
// this data folder's; another machine's containers are never touched.
class TestEngineHousekeeping : public QObject
{
    Q_OBJECT

    RemoteEngine m_remote;
    QString m_prefix; // of every name this suite makes on the remote daemon

    QString conversation(const QString &name) const { return m_prefix + name; }
    static QString volumeOf(const QString &conversationId)
    {
        return QStringLiteral("sandcastle-ws-") + conversationId;
    }

    int docker(const QStringList &arguments, QByteArray *out = nullptr) const
    {
        return RemoteEngine::docker(m_remote.socket, arguments, out);
    }
    bool volumeExists(const QString &volume) const
    {
        return docker({QStringLiteral("volume"), QStringLiteral("inspect"), volume}) == 0;
    }
    bool containerExists(const QString &name) const
    {
        return docker({QStringLiteral("container"), QStringLiteral("inspect"), name}) == 0;
    }
    // A labelled volume as another Sandcastle would have left it.
    bool makeVolume(const QString &volume, const QString &host, const QString &data) const
    {
        return docker({QStringLiteral("volume"),
                       QStringLiteral("create"),
                       QStringLiteral("--label"),
                       QStringLiteral("app=sandcastle"),
                       QStringLiteral("--label"),
                       QStringLiteral("sandcastle.owner-host=") + host,
                       QStringLiteral("--label"),
                       QStringLiteral("sandcastle.owner-data=") + data,
                       volume})
               == 0;
    }
    // Removes, with `remove --force`, what `list --quiet --filter FILTER` names.
    void
    removeListed(const QStringList &list, const QString &filter, const QStringList &remove) const
    {
        QByteArray out;
        docker(list + QStringList{QStringLiteral("--quiet"), QStringLiteral("--filter"), filter},
               &out);
        const QStringList names
            = QString::fromUtf8(out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        if (!names.isEmpty())
            docker(remove + QStringList{QStringLiteral("--force")} + names);
    }
    // A container named with the suite's prefix that sleeps: `docker run`'s exit code.
    int startSleeper(const QString &name, const QStringList &options) const
    {
        return docker(QStringList{QStringLiteral("run"),
                                  QStringLiteral("--detach"),
                                  QStringLiteral("--pull"),
                                  QStringLiteral("never"),
                                  QStringLiteral("--network"),
                                  QStringLiteral("none"),
                                  QStringLiteral("--name"),
                                  m_prefix + name}
                      + options
                      + QStringList{SandboxConfig::fromEnvironment().image,
                                    QStringLiteral("sleep"),
                                    QStringLiteral("infinity")});
    }
    // A pid no process has here.
    static qint64 deadPid()
    {
        for (qint64 pid = 3999999; pid > 1000; --pid) {
            if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
                return pid;
        }
        return -1;
    }

private Q_SLOTS:
    void initTestCase()
    {
        SANDCASTLE_REQUIRE_DOCKER();
        m_remote = RemoteEngine::find();
        SANDCASTLE_REQUIRE_REMOTE(m_remote);
        m_prefix = QStringLiteral("tst-hk-%1-").arg(QCoreApplication::applicationPid());
        qputenv("DOCKER_HOST", m_remote.socket.toUtf8());
    }

    void cleanupTestCase()
    {
        // What this suite made: its containers first (they hold volumes), then its volumes.
        removeListed({QStringLiteral("ps"), QStringLiteral("--all")},
                     QStringLiteral("name=") + m_prefix,
                     {QStringLiteral("rm")});
        removeListed({QStringLiteral("volume"), QStringLiteral("ls")},
                     QStringLiteral("name=sandcastle-ws-") + m_prefix,
                     {QStringLiteral("volume"), QStringLiteral("rm")});
        qunsetenv("DOCKER_HOST");
    }

    void aSessionsVolumeSaysWhoseItIsAndGoesWithItsConversation()
    {
        QTemporaryDir data;
        QTemporaryDir ws;
        SandboxConfig config = SandboxConfig::fromEnvironment();
        config.workspace = ws.path();
        QVERIFY2(config.copiesWorkspace(), "the remote daemon must get the workspace by copy");
        config.conversationId = conversation(QStringLiteral("deleted"));
        config.ownerData = SandboxConfig::ownerDataFor(data.path());
        {
            SandboxSession session(config);
            QSignalSpy finished(&session, &SandboxSession::finished);
            session.runPython(QStringLiteral("open('made.txt', 'w').write('x')"));
            const ExecutionResult result = Sandcastle::Testing::resultOf(finished, 300000);
            QVERIFY2(result.status == ExecutionResult::Status::Ok, qPrintable(result.error));
        }
        const QString volume = volumeOf(config.conversationId);
        QByteArray labels;
        QCOMPARE(docker({QStringLiteral("volume"),
                         QStringLiteral("inspect"),
                         QStringLiteral("--format"),
                         QStringLiteral("{{json .Labels}}"),
                         volume},
                        &labels),
                 0);
        const QByteArray host
            = QByteArray("\"sandcastle.owner-host\":\"") + SandboxConfig::ownerHost().toUtf8();
        const QByteArray folder
            = QByteArray("\"sandcastle.owner-data\":\"") + config.ownerData.toUtf8();
        QVERIFY2(labels.contains(host), labels.constData());
        QVERIFY2(labels.contains(folder), labels.constData());

        // Deleted as the window deletes it: its container, then its volume.
        ConversationInfo info;
        info.id = config.conversationId;
        const ContainerEngine engine;
        const Result<QString> left
            = ConversationRemoval::removeLeftovers(engine, data.path(), info);
        QVERIFY2(left, left ? "" : qPrintable(left.error()));
        QVERIFY2(left.value().isEmpty(), qPrintable(left.value()));
        QVERIFY(!volumeExists(volume));
        // Again (nothing there any more) is no error.
        QVERIFY(engine.removeConversationVolume(config.conversationId));
    }

    void orphanVolumesAreReapedOnlyForThisMachineAndDataFolder()
    {
        const QString ours = SandboxConfig::ownerDataFor(QStringLiteral("/data/ours"));
        const QString otherFolder = SandboxConfig::ownerDataFor(QStringLiteral("/data/other"));
        const QString orphan = volumeOf(conversation(QStringLiteral("orphan")));
        const QString live = volumeOf(conversation(QStringLiteral("live")));
        const QString busy = volumeOf(conversation(QStringLiteral("busy")));
        const QString elsewhere = volumeOf(conversation(QStringLiteral("elsewhere")));
        const QString otherData = volumeOf(conversation(QStringLiteral("other-data")));
        QVERIFY(makeVolume(orphan, SandboxConfig::ownerHost(), ours));
        QVERIFY(makeVolume(live, SandboxConfig::ownerHost(), ours));
        QVERIFY(makeVolume(busy, SandboxConfig::ownerHost(), ours));
        QVERIFY(makeVolume(elsewhere, QStringLiteral("another-machine"), ours));
        QVERIFY(makeVolume(otherData, SandboxConfig::ownerHost(), otherFolder));
        // A container holds `busy` (a run of a conversation not yet saved).
        QCOMPARE(startSleeper(QStringLiteral("busy"),
                              {QStringLiteral("--mount"),
                               QStringLiteral("type=volume,source=") + busy
                                   + QStringLiteral(",target=/workspace")}),
                 0);

        const ContainerEngine engine;
        const int reaped = engine.reapOrphanVolumes(ours, {conversation(QStringLiteral("live"))});
        QCOMPARE(reaped, 1);
        QVERIFY(!volumeExists(orphan));
        QVERIFY(volumeExists(live));
        QVERIFY(volumeExists(busy));
        QVERIFY(volumeExists(elsewhere));
        QVERIFY(volumeExists(otherData));
        // Without a data folder's label to go by, nothing is reaped.
        QCOMPARE(engine.reapOrphanVolumes(QString(), {}), 0);
        QVERIFY(volumeExists(live));
    }

    void anotherMachinesContainersAreNeverReaped()
    {
        const qint64 pid = deadPid();
        QVERIFY(pid > 0);
        const auto start = [&](const QString &name, const QString &host) {
            return startSleeper(name,
                                {QStringLiteral("--label"),
                                 QStringLiteral("app=sandcastle"),
                                 QStringLiteral("--label"),
                                 QStringLiteral("sandcastle.owner-pid=") + QString::number(pid),
                                 QStringLiteral("--label"),
                                 QStringLiteral("sandcastle.owner-host=") + host});
        };
        // The same pid, dead here: only this machine's container is an orphan.
        QCOMPARE(start(QStringLiteral("mine"), SandboxConfig::ownerHost()), 0);
        QCOMPARE(start(QStringLiteral("theirs"), QStringLiteral("another-machine")), 0);
        QVERIFY(ContainerEngine().reapOrphans() >= 1);
        QVERIFY(!containerExists(m_prefix + QStringLiteral("mine")));
        QVERIFY(containerExists(m_prefix + QStringLiteral("theirs")));
    }
};

QTEST_MAIN(TestEngineHousekeeping)
#include "tst_enginehousekeeping.moc"
