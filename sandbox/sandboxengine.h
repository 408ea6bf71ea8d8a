#pragma once

#include "sandboxconfig.h"
#include <base/result.h>

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <memory>

namespace Sandcastle {

// One command for the engine's CLI: the program and its arguments.
struct EngineCommand
{
    QString program;
    QStringList arguments;
};

// How the workspace reaches /workspace in the container. Bind: a local daemon mounts the host
// folder. Copy: a remote daemon (or Podman remote, later Kubernetes) cannot see the host's
// folders, so the files travel as archives into a volume of the conversation and the changed
// ones come back (the remote-engine issue adds that engine and its sync steps).
enum class WorkspaceStrategy { Bind, Copy };

// What a SandboxSession asks of a container engine, as commands it runs itself (the session
// owns the processes, their pipes and their timing). The kernel protocol on the pipes is the
// same whatever the engine.
class SandboxEngine
{
public:
    virtual ~SandboxEngine() = default;

    virtual WorkspaceStrategy workspaceStrategy() const = 0;
    // Readies the workspace before a container starts: bind makes the folder and hands it to
    // the sandbox's user; copy will bring the files into the conversation's volume.
    virtual Result<bool> prepareWorkspace() const = 0;
    // Creates the conversation's hardened, long-lived container (fresh mode: a container whose
    // main process is the kernel, on the command's pipes, removed when it ends).
    virtual EngineCommand createContainer(const QString &name, qint64 ownerPid) const = 0;
    // The kernel inside a running container, on the command's pipes.
    virtual EngineCommand execKernel(const QString &name) const = 0;
    // Another program in a running container, in /workspace, with the command's stdin open
    // when `withStdin` (copy mode's tar streams and listings go through this).
    virtual EngineCommand
    execIn(const QString &name, const QStringList &argv, bool withStdin) const = 0;
    // Kills the container's processes: killing the CLI that exec'd the kernel would not.
    virtual EngineCommand killContainer(const QString &name) const = 0;
    virtual EngineCommand removeContainer(const QString &name) const = 0;
    // Prints the container cgroup's OOM counters (v1 and v2 files), to tell an OOM kill from
    // another death of the kernel.
    virtual EngineCommand readOomCounters(const QString &name) const = 0;
    // Why the container could not be created, in words a person can act on.
    virtual QString describeStartFailure(const QByteArray &stderrData) const = 0;
    // The way to a remote daemon broke before the daemon answered, and the client did not say
    // why: the docker CLI, when ssh exits before it has written to it, reports its own "write:
    // broken pipe" instead of ssh's words. Nothing was made on the daemon, so the start can be
    // tried again, and the next attempt usually carries ssh's reason.
    virtual bool connectionFailedWithoutReason(const QByteArray &stderrData) const = 0;
    // The engine in a few words for messages: "the docker daemon at ssh://build-box",
    // "docker context gpu", "docker on this machine".
    virtual QString describeEndpoint() const = 0;

    // The engine a session with this configuration uses.
    static std::unique_ptr<SandboxEngine> forConfig(const SandboxConfig &config);

    // Why code must not run in a container the engine started while saying that it ignores
    // the sandbox's limits (rootless Podman on cgroups v1 drops --memory, --pids-limit and
    // --cpus with a warning); empty when it said no such thing, or when the person allowed
    // it with SANDCASTLE_ALLOW_UNLIMITED=1.
    static QString ignoredLimits(const QByteArray &engineStderr);
};

// The docker (or podman) CLI talking to its daemon, through --context or DOCKER_HOST if set:
// the workspace is bind-mounted when the daemon is on this machine, and copied into a volume
// (WorkspaceSync) when it is not or the configuration says so.
class LocalCliEngine final : public SandboxEngine
{
public:
    explicit LocalCliEngine(SandboxConfig config);

    WorkspaceStrategy workspaceStrategy() const override
    {
        return m_config.copiesWorkspace() ? WorkspaceStrategy::Copy : WorkspaceStrategy::Bind;
    }
    Result<bool> prepareWorkspace() const override;
    EngineCommand createContainer(const QString &name, qint64 ownerPid) const override;
    EngineCommand execKernel(const QString &name) const override;
    EngineCommand
    execIn(const QString &name, const QStringList &argv, bool withStdin) const override;
    EngineCommand killContainer(const QString &name) const override;
    EngineCommand removeContainer(const QString &name) const override;
    EngineCommand readOomCounters(const QString &name) const override;
    QString describeStartFailure(const QByteArray &stderrData) const override;
    bool connectionFailedWithoutReason(const QByteArray &stderrData) const override;
    QString describeEndpoint() const override;

private:
    EngineCommand command(const QStringList &arguments) const;

    SandboxConfig m_config;
};

} // namespace Sandcastle
