#pragma once

#include <QString>
#include <QStringList>

namespace Sandcastle {

// Everything that decides how a sandbox container is started. The defaults are the hardened
// ones of architecture.md §5; every limit can be changed. runArguments() is pure so that the flags
// can be checked without a daemon.
struct SandboxConfig
{
    QString engine = QStringLiteral("docker");
    QString image = QStringLiteral("sandcastle-sandbox:latest");
    QString workspace; // host folder mounted at /workspace
    QString memory = QStringLiteral("1g");
    QString cpus = QStringLiteral("1");
    int pidsLimit = 256;
    QString tmpfsSize = QStringLiteral("256m");
    bool network = false;
    int timeoutMs = 60000;
    QString runtime; // e.g. "runsc" for gVisor; empty for the daemon's default
    QString context; // docker --context; empty for the default (DOCKER_HOST is honoured)
    QString conversationId;
    bool fresh = false;                           // a new container for every run, no state kept
    qint64 maxKeptBytes = 8 * 1024 * 1024;        // output kept in a run's result
    qint64 outputHardCapBytes = 64 * 1024 * 1024; // past this the run is stopped
    // Past this many bytes in the workspace (checked on the host while a run goes on) the run
    // is stopped; 0 for no quota. Docker cannot limit a bind mount's size.
    qint64 workspaceQuotaBytes = qint64(2) * 1024 * 1024 * 1024;
    int interruptGraceMs = 2000; // after a timeout's interrupt, before docker kill

    // A memory limit docker accepts: digits with an optional b/k/m/g unit ("512m", "2g").
    static bool isValidMemory(const QString &size);

    // Reads SANDCASTLE_ENGINE and SANDCASTLE_IMAGE over the defaults.
    static SandboxConfig fromEnvironment();

    // The daemon is on this machine (no --context, DOCKER_HOST unset or a unix socket): its bind
    // mount is the host folder itself, so the host sees the container's writes as they happen.
    bool daemonIsLocal() const;

    // uid:gid for the container: the host user's, except that root on the host runs the code
    // as the image's unprivileged user (1000:1000), never as root.
    static QString containerUser();

    // Arguments after the engine binary that start a long-lived, hardened container (or, in
    // fresh mode, a container whose main process is the kernel, on stdin, removed at its end).
    QStringList runArguments(const QString &containerName, qint64 ownerPid) const;
    // Global engine options (--context) followed by `args`.
    QStringList engineArguments(const QStringList &args) const;
    // A container started with `current` does not have what this config asks for (network,
    // memory, CPUs, runtime, image, engine, fresh mode): a new one must be started for it.
    // Timeouts and output limits apply to the next run without a restart.
    bool needsNewContainer(const SandboxConfig &current) const;
};

} // namespace Sandcastle
