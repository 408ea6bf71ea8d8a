#pragma once

#include "executionresult.h"

#include <QByteArray>
#include <QString>

namespace Sandcastle {

// Why the host stopped a run (when it did).
enum class StopReason { None, Timeout, OutputCap, Quota, Person };

// How a kernel that died during a run went: OOM-killed, killed by a signal from inside the
// sandbox, with its container, with the engine's daemon, or unknown.
enum class KernelDeath { OutOfMemory, Signal, ContainerGone, DaemonGone, Gone };

// Everything that decides what a person is told when the kernel ends in the middle of a run.
struct KernelEnd
{
    bool killedByHost = false; // the container was killed to end the run
    StopReason reason = StopReason::None;
    KernelDeath death = KernelDeath::Gone;
    int exitCode = -1;
    QString diagnostics; // the kernel's stderr
    QString memory;      // the sandbox's memory limit, as configured
    qint64 outputCapBytes = 0;
    QString quotaMessage; // what the workspace quota stopped
    QString remote;       // a remote engine in words ("the docker daemon at ssh://box"), or empty
    QString engineSaid;   // what the engine's CLI said when asked about the container
};

// How the kernel died, from what the engine's readOomCounters() printed (stdout, stderr) about
// its container: more OOM kills than `oomKillsSeen` (updated) and SIGKILL is the memory limit,
// SIGKILL without one is a signal from inside; no answer means the container, or the daemon,
// is gone.
KernelDeath deathFromOomProbe(const QByteArray &stdoutData,
                              const QByteArray &stderrData,
                              int exitCode,
                              qint64 &oomKillsSeen);

// The run's status, exit code and error for such an end (its state is lost: a new sandbox
// starts for the next run). Pure, so every case is tested without a daemon.
void describeKernelEnd(const KernelEnd &end, ExecutionResult &result);

} // namespace Sandcastle
