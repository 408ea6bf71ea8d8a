#pragma once

#include "executionresult.h"
#include "kernelend.h"
#include "kernelprotocol.h"
#include "outputbatcher.h"
#include "sandboxconfig.h"
#include "sandboxengine.h"
#include "workspacechanges.h"
#include "workspacesync.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <memory>
#include <optional>

class QProcess;

namespace Sandcastle {

// One conversation's sandbox: a long-lived hardened container with a stateful Python kernel
// inside, reached through `docker exec -i` pipes (or, in fresh mode, a new container per run).
// Runs go one at a time; output streams out through outputReady() in batches (at most ~60 a
// second), is kept up to a limit, spilled in full to .sandcastle/run-N.log, and every run ends
// in exactly one finished(). A timeout first interrupts the code (KeyboardInterrupt, state
// kept); code that does not stop within the grace period is ended by killing the container
// (the CLI process dying would not stop it), and the result says that state was lost.
class SandboxSession : public QObject
{
    Q_OBJECT
public:
    enum class State { Stopped, Starting, Ready, Running };
    Q_ENUM(State)

    explicit SandboxSession(SandboxConfig config, QObject *parent = nullptr);
    ~SandboxSession() override;

    const SandboxConfig &config() const { return m_config; }
    // Takes effect when the next container starts (stop() to start one now).
    void setConfig(const SandboxConfig &config);
    // The engine commands the session runs (made from the config).
    const SandboxEngine &engine() const { return *m_engine; }
    State state() const { return m_state; }
    QString containerName() const { return m_containerName; }

    // Starts the container and kernel ahead of the first run (pre-warm). No-op unless stopped.
    void start();
    // Takes over `spare`'s ready container and kernel (a warm spare started ahead of need with
    // this session's container settings, bind-mounted, not fresh): this session becomes
    // ready at once with the spare's config, and the spare is left stopped with nothing to
    // remove. False, and nothing changes, unless this session is stopped and the spare ready.
    bool adopt(SandboxSession &spare);
    // The kernel's background imports (config().preimports) have ended: what it imported.
    bool preimportsDone() const { return m_preimported.has_value(); }
    // Once done: the modules imported, and those that could not be.
    QStringList preimportedModules() const
    {
        return m_preimported ? m_preimported->imported : QStringList();
    }
    QStringList failedPreimports() const
    {
        return m_preimported ? m_preimported->failed : QStringList();
    }
    // Runs code in the kernel's persistent globals. timeoutMs < 0 takes the config's timeout.
    void runPython(const QString &code, int timeoutMs = -1);
    // Runs `bash -lc command` in the same container, in /workspace.
    void runShell(const QString &command, int timeoutMs = -1);
    // Interrupts the run in progress (KeyboardInterrupt / SIGINT); its result is `killed`.
    void interrupt();
    // Removes the container; waits for the engine at most a few seconds (the command line).
    void stop();
    // The same without waiting for anything (the window): the kernel's processes are killed
    // and reaped in the background, the container is removed on a worker thread, and
    // stopped() follows once it is gone. A run in progress ends (killed) before this returns.
    // A removal that fails leaves a container the next start reaps.
    void release();

Q_SIGNALS:
    void stateChanged(Sandcastle::SandboxSession::State state);
    void ready();
    void outputReady(Sandcastle::OutputStream stream, const QString &text);
    void finished(const Sandcastle::ExecutionResult &result);
    void errorOccurred(const QString &message);
    // The kernel finished importing config().preimports in the background.
    void preimported(const QStringList &imported, const QStringList &failed, qint64 ms);
    // A container the session removed is gone (or the engine gave up on it): after stop(),
    // release(), or a kernel that died or never started.
    void stopped();

private:
    void shutDown(bool waitForRemoval);
    void removeContainerInBackground(const EngineCommand &remove);
    void startProcess(QProcess *process, const EngineCommand &command);
    struct PendingRun
    {
        bool shell = false;
        QString code;
        int timeoutMs = -1;
    };

    void setState(State state);
    void launchContainer();
    void onContainerStarted(int exitCode, const QByteArray &stderrData);
    bool retriedWithoutReason(const QByteArray &stderrData);
    void startKernel();
    void bindKernel(QProcess *kernel);
    void becomeReady();
    void onKernelOutput();
    void onKernelFinished(int exitCode);
    void endKernelRun(int exitCode,
                      const QString &diagnostics,
                      KernelDeath death,
                      const QString &engineSaid = {});
    void handleEvent(const KernelEvent &event);
    void finishFromDone(const KernelEvent &event);
    void dispatch(const PendingRun &run);
    void sendRun(const PendingRun &run);
    // Copy mode: the run's files come back from the volume before finished() says it ended.
    void completeRun(const ExecutionResult &result);
    // Copy mode: brings the run's files back, then completes it.
    void pullThenComplete(ExecutionResult result);
    // Fresh mode: the run's container goes once the run has ended.
    void retireFreshContainer();
    void flushOutput();
    void appendOutput(OutputStream stream, const QString &text);
    void finishRun(ExecutionResult result);
    void failStart(const QString &message);
    void onTimeout();
    void checkQuota();
    QString quotaMessage() const;
    void requestStop(StopReason reason);
    void killContainer();
    void submit(const PendingRun &run);
    void openSpillLog();
    void removeContainerAsync();

    SandboxConfig m_config;
    std::unique_ptr<SandboxEngine> m_engine;
    State m_state = State::Stopped;
    QString m_containerName;
    QPointer<QProcess> m_starter;
    QPointer<QProcess> m_kernel;
    KernelProtocol m_protocol;
    QByteArray m_kernelStderr;

    std::optional<PendingRun> m_pending;
    bool m_running = false;
    qint64 m_runId = 0;
    StopReason m_stopReason = StopReason::None;
    bool m_killed = false; // the container was killed to end the run
    qint64 m_outputBytes = 0;
    int m_spillFd = -1;
    QElapsedTimer m_elapsed;
    QTimer m_timeoutTimer;
    QTimer m_graceTimer;
    QTimer m_flushTimer;
    QTimer m_quotaTimer;
    bool m_quotaCheckRunning = false;
    qint64 m_workspaceBytes = 0; // at the last quota check
    qint64 m_oomKillsSeen = 0;   // the container cgroup's oom_kill count when last asked
    OutputBatcher m_batcher;
    WorkspaceChanges m_files; // which files a run created or changed
    // Copy mode (a remote engine): the folder and the container's volume kept in step.
    QPointer<WorkspaceSync> m_sync;
    std::optional<KernelEvent> m_report; // the current run's file report (copy mode)
    bool m_workspaceGoingUp = false;     // copy mode: the first push is still on its way
    bool m_kernelReadyEarly = false;     // the kernel said ready before that push ended
    bool m_kernelIsMain = false;         // fresh mode's kernel is its container's main process
    int m_reasonlessRetries = 0;         // starts tried again after a connection failed silently
    ExecutionResult m_current;
    std::optional<KernelEvent> m_preimported; // the kernel's background imports ended
};

} // namespace Sandcastle
