// How a session's container comes from a warm spare and goes: stop() waits for the engine,
// release() does not, and a container the kernel left behind is removed in the background.
// Split from sandboxsession.cpp, which holds the runs.
#include "sandboxsession.h"

#include "blockingjobs.h"
#include "containerengine.h"
#include "processreaper.h"

#include <QCoreApplication>
#include <QProcess>
#include <QThreadPool>

#include <unistd.h>

#include <utility>

namespace Sandcastle {

void SandboxSession::removeContainerAsync()
{
    if (m_containerName.isEmpty())
        return;
    removeContainerInBackground(m_engine->removeContainer(m_containerName));
    m_containerName.clear();
}

void SandboxSession::removeContainerInBackground(const EngineCommand &remove)
{
    // On the blocking pool, which the application waits for when it exits: the container is
    // gone before the process is, unless the engine takes longer than the removal's own limit.
    QPointer<SandboxSession> self(this);
    blockingJobs()->start([self, remove] {
        ContainerEngine(remove.program).run(remove.arguments, 10000);
        QMetaObject::invokeMethod(QCoreApplication::instance(), [self] {
            if (self)
                Q_EMIT self->stopped();
        });
    });
}

bool SandboxSession::adopt(SandboxSession &spare)
{
    if (&spare == this || m_state != State::Stopped || spare.m_state != State::Ready
        || spare.m_running || spare.m_pending || !spare.m_kernel || spare.m_sync
        || spare.m_kernelIsMain)
        return false;
    QProcess *kernel = spare.m_kernel;
    spare.m_kernel = nullptr;
    disconnect(kernel, nullptr, &spare, nullptr);
    kernel->setParent(this);
    bindKernel(kernel);
    m_kernel = kernel;
    m_config = spare.m_config;
    m_engine = SandboxEngine::forConfig(m_config);
    m_containerName = spare.m_containerName;
    spare.m_containerName.clear();
    m_protocol = std::move(spare.m_protocol);
    spare.m_protocol = KernelProtocol();
    m_kernelStderr = std::exchange(spare.m_kernelStderr, QByteArray());
    m_preimported = std::exchange(spare.m_preimported, std::nullopt);
    m_oomKillsSeen = spare.m_oomKillsSeen;
    m_kernelIsMain = false;
    m_workspaceGoingUp = false;
    delete m_sync;
    m_files.watch(m_config.workspace, m_config.daemonIsLocal());
    spare.m_files.stopWatching();
    spare.setState(State::Stopped);
    setState(State::Ready);
    Q_EMIT ready();
    // Something the kernel said after the spare's last read is this session's to read now.
    if (kernel->bytesAvailable() > 0)
        QMetaObject::invokeMethod(this, &SandboxSession::onKernelOutput, Qt::QueuedConnection);
    return true;
}

void SandboxSession::stop()
{
    shutDown(true);
}

void SandboxSession::release()
{
    shutDown(false);
}

void SandboxSession::shutDown(bool waitForRemoval)
{
    const bool hadPending = m_pending.has_value();
    m_pending.reset();
    m_timeoutTimer.stop();
    m_graceTimer.stop();
    m_flushTimer.stop();
    m_quotaTimer.stop();
    m_files.stopWatching();
    // Killed either way; waited for only when the caller waits for the removal too.
    for (QPointer<QProcess> *slot : {&m_starter, &m_kernel}) {
        QProcess *process = *slot;
        *slot = nullptr;
        if (process && waitForRemoval)
            ProcessReaper::killAndWait(process, 2000);
        else if (process)
            ProcessReaper::reap(process);
    }
    const QString container = m_containerName;
    m_containerName.clear();
    if (!container.isEmpty()) {
        const EngineCommand remove = m_engine->removeContainer(container);
        if (waitForRemoval) {
            ContainerEngine(remove.program).run(remove.arguments, 10000);
            Q_EMIT stopped();
        } else {
            removeContainerInBackground(remove);
        }
    }
    if (m_spillFd >= 0) {
        ::close(m_spillFd);
        m_spillFd = -1;
    }
    const bool wasRunning = m_running;
    m_running = false;
    setState(State::Stopped);
    if (hadPending && !wasRunning) {
        // Every run request ends in one finished(), even one that never got to start.
        ExecutionResult result;
        result.status = ExecutionResult::Status::Killed;
        result.exitCode = 137;
        result.error = QStringLiteral("the run was stopped before it started");
        Q_EMIT finished(result);
    }
    if (wasRunning) {
        ExecutionResult result = m_current;
        result.status = ExecutionResult::Status::Killed;
        result.exitCode = 137;
        result.stateLost = true;
        result.error = QStringLiteral("the run was stopped");
        result.durationMs = m_elapsed.elapsed();
        Q_EMIT finished(result);
    }
}

} // namespace Sandcastle
