#pragma once

#include <QString>
#include <QStringList>

#include <optional>

namespace Sandcastle {

// Everything that decides how a sandbox container is started. The defaults are the hardened
// ones of architecture.md §5; every limit can be changed. runArguments() is pure so that the flags
// can be checked without a daemon.
struct SandboxConfig
{
    QString engine = QStringLiteral("docker");
    QString image = QStringLiteral("sandcastle-sandbox:latest");
    QString workspace; // host folder mounted at /workspace
    // uid:gid the code runs as; empty for containerUser() (a workspace Sandcastle made, which
    // it may hand to that user). Set: a folder of the person's, never chowned.
    QString user;
    bool workspaceReadOnly = false; // the bind mount is read-only
    QString workspaceNote;          // why, told with every run's result (empty: nothing to tell)
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
    // Modules the kernel imports in the background once it is ready (kernel.py --preimport),
    // so that a conversation's first data run does not wait for them; not in fresh mode.
    QStringList preimports;
    // A module name as --preimport takes it: dotted Python identifiers.
    static bool isValidModuleName(const QString &name);
    int interruptGraceMs = 2000; // after a timeout's interrupt, before docker kill
    // How the workspace reaches /workspace: Auto binds it when the daemon is on this machine
    // and copies it otherwise; Copy forces copying (a daemon whose unix socket is local but
    // whose files are not, as in a namespace or a VM); Bind forces the bind mount.
    enum class WorkspaceMode { Auto, Bind, Copy };
    WorkspaceMode workspaceMode = WorkspaceMode::Auto;
    // Copy mode: the volume outlives the container (a conversation's), or goes with it (a
    // single `sandcastle exec`).
    bool keepsVolume = true;
    // Whose conversations these are, as labels on containers and volumes, so that the
    // housekeeping of an engine shared with other machines (a team's build server) or other
    // data folders touches only its own: this machine (ownerHost) and the data folder
    // (ownerData, a hash of its path; empty outside the app).
    QString ownerData;
    static QString ownerHost();
    static QString ownerDataFor(const QString &dataDir);

    // A memory limit docker accepts: digits with an optional b/k/m/g unit ("512m", "2g").
    static bool isValidMemory(const QString &size);

    // Reads SANDCASTLE_ENGINE and SANDCASTLE_IMAGE over the defaults.
    static SandboxConfig fromEnvironment();

    // Who runs the code in a folder the person opened: its owner, so that what the code
    // writes is theirs and what is there keeps its owner and mode. Never uid 0: a folder
    // owned by root is mounted read-only and the code runs as 1000:1000, and `reason` says so.
    struct FolderAccess
    {
        QString user;
        bool readOnly = false;
        QString reason;
    };
    static FolderAccess folderAccess(uint ownerUid, uint ownerGid, uint hostUid);
    // Applies folderAccess() for `workspace`, a folder of the person's (its owner, from stat).
    void useOpenedFolder();
    // The daemon sees this machine's workspace folder as it is here (DaemonEndpoint asks the
    // endpoint, once per process): its bind mount is the host folder itself, so the host sees
    // the container's writes as they happen.
    bool daemonIsLocal() const;
    // The workspace goes by copy into a volume (WorkspaceMode, else the endpoint decides).
    bool copiesWorkspace() const;
    // Fresh mode's container runs the kernel as its main process on the CLI's pipes; in copy
    // mode it runs like any other (the files come back from it after the run) and goes then.
    bool kernelIsMainProcess() const
    {
        return fresh && (workspace.isEmpty() || !copiesWorkspace());
    }
    // "auto", "bind" or "copy"; parse() refuses anything else.
    static QString workspaceModeName(WorkspaceMode mode);
    static std::optional<WorkspaceMode> parseWorkspaceMode(const QString &name);
    // Copy mode's volume: named after the conversation (kept across restarts, removed with it),
    // or empty without one or when it is not kept (an anonymous volume, removed with the
    // container).
    QString workspaceVolume() const;
    // The name of a conversation's copy-mode volume.
    static QString volumeFor(const QString &conversationId)
    {
        return QStringLiteral("sandcastle-ws-") + conversationId;
    }

    // uid:gid for the container: the host user's, except that root on the host runs the code
    // as the image's unprivileged user (1000:1000), never as root.
    static QString containerUser();

    // Arguments after the engine binary that start a long-lived, hardened container (or, in
    // fresh mode, a container whose main process is the kernel, on stdin, removed at its end).
    QStringList runArguments(const QString &containerName, qint64 ownerPid) const;
    // The engine is Podman (its command is podman or a path to it).
    bool isPodman() const;
    // Global engine options (--context) followed by `args`.
    QStringList engineArguments(const QStringList &args) const;
    // A container started with `current` does not have what this config asks for (network,
    // memory, CPUs, runtime, image, engine, fresh mode): a new one must be started for it.
    // Timeouts and output limits apply to the next run without a restart.
    bool needsNewContainer(const SandboxConfig &current) const;
};

} // namespace Sandcastle
