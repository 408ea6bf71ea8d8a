#pragma once

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QtTest>

namespace Sandcastle::Testing {

// The second Docker daemon of scripts/remote-engine (started by the ctest fixture
// `remote_engine`): in its own mount namespace, so it cannot see this machine's temporary and
// home folders, reached over unix:// and over ssh:// through an sshd on 127.0.0.1.
struct RemoteEngine
{
    QString socket;   // unix:///run/sandcastle-remote/docker.sock
    QString ssh;      // ssh://root@sandcastle-test-remote
    QString wrongKey; // the same sshd with a key it does not know
    QString nobody;   // a port where nothing listens
    qint64 dockerdPid = -1;
    QString why; // empty when it answers

    static QString script()
    {
        return qEnvironmentVariable("SANDCASTLE_SOURCE_DIR")
               + QStringLiteral("/scripts/remote-engine");
    }

    // Runs the script with these arguments; its output, and whether it ended with 0.
    static bool
    runScript(const QStringList &arguments, QByteArray *out = nullptr, int timeoutMs = 180000)
    {
        QProcess process;
        process.setProcessChannelMode(QProcess::MergedChannels);
        process.start(QStringLiteral("bash"), QStringList{script()} + arguments);
        if (!process.waitForFinished(timeoutMs)) {
            process.kill();
            process.waitForFinished();
            return false;
        }
        if (out)
            *out = process.readAll();
        return process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
    }

    static RemoteEngine find()
    {
        RemoteEngine remote;
        QByteArray status;
        if (!runScript({QStringLiteral("status")}, &status, 30000)) {
            remote.why
                = QStringLiteral("the remote-like daemon is not running (scripts/remote-engine "
                                 "start): ")
                  + QString::fromUtf8(status).trimmed();
            return remote;
        }
        QByteArray env;
        runScript({QStringLiteral("env")}, &env, 30000);
        for (const QByteArray &line : env.split('\n')) {
            const QString text = QString::fromUtf8(line);
            const QString key = text.section(QLatin1Char('='), 0, 0);
            const QString value = text.section(QLatin1Char('='), 1);
            if (key == QLatin1String("SANDCASTLE_REMOTE_SOCKET"))
                remote.socket = value;
            else if (key == QLatin1String("SANDCASTLE_REMOTE_SSH"))
                remote.ssh = value;
            else if (key == QLatin1String("SANDCASTLE_REMOTE_SSH_WRONG_KEY"))
                remote.wrongKey = value;
            else if (key == QLatin1String("SANDCASTLE_REMOTE_SSH_NOBODY"))
                remote.nobody = value;
            else if (key == QLatin1String("SANDCASTLE_REMOTE_DOCKERD_PID"))
                remote.dockerdPid = value.toLongLong();
        }
        if (remote.socket.isEmpty() || remote.ssh.isEmpty() || remote.dockerdPid <= 0)
            remote.why
                = QStringLiteral("scripts/remote-engine env said: ") + QString::fromUtf8(env);
        return remote;
    }

    // `docker` against the given endpoint: its exit code and output.
    static int docker(const QString &host, const QStringList &arguments, QByteArray *out = nullptr)
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DOCKER_HOST"), host);
        process.setProcessEnvironment(env);
        process.start(QStringLiteral("docker"), arguments);
        if (!process.waitForFinished(120000)) {
            process.kill();
            process.waitForFinished();
            return -1;
        }
        if (out)
            *out = process.readAllStandardOutput() + process.readAllStandardError();
        return process.exitCode();
    }

    // Whether `path` exists as the remote daemon sees this machine (its mount namespace).
    bool seesPath(const QString &path) const
    {
        QProcess process;
        process.start(QStringLiteral("nsenter"),
                      {QStringLiteral("--target"),
                       QString::number(dockerdPid),
                       QStringLiteral("--mount"),
                       QStringLiteral("--"),
                       QStringLiteral("test"),
                       QStringLiteral("-e"),
                       path});
        process.waitForFinished(30000);
        return process.exitCode() == 0;
    }
};

} // namespace Sandcastle::Testing

// Like SANDCASTLE_REQUIRE_DOCKER: skips on a developer machine without the second daemon,
// fails in CI, where the ctest fixture starts it.
#define SANDCASTLE_REQUIRE_REMOTE(remote)                                                          \
    do {                                                                                           \
        if (!(remote).why.isEmpty()) {                                                             \
            if (qEnvironmentVariableIsSet("CI"))                                                   \
                QFAIL(qPrintable(QStringLiteral("the remote engine is required in CI: ")           \
                                 + (remote).why));                                                 \
            QSKIP(qPrintable(QStringLiteral("no remote engine: ") + (remote).why));                \
        }                                                                                          \
    } while (false)
