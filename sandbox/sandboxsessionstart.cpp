// How a session's container starts: the name, the workspace's way in, the engine's create
// command, and a second try when the way to a remote daemon broke without a reason. Split from
// sandboxsession.cpp, which holds the runs.
#include "sandboxsession.h"

#include "workspacesync.h"

#include <QCoreApplication>
#include <QProcess>
#include <QRandomGenerator>
#include <QTimer>

namespace Sandcastle {

void SandboxSession::start()
{
    if (m_state != State::Stopped)
        return;
    const Result<bool> prepared = m_engine->prepareWorkspace();
    if (!prepared) {
        setState(State::Starting);
        failStart(prepared.error());
        return;
    }
    m_oomKillsSeen = 0; // a new container's cgroup starts counting at 0
    m_workspaceGoingUp = false;
    m_files.watch(m_config.workspace,
                  m_engine->workspaceStrategy() == WorkspaceStrategy::Bind
                      && m_config.daemonIsLocal());
    m_containerName = QStringLiteral("sandcastle-%1-%2")
                          .arg(QCoreApplication::applicationPid())
                          .arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'));
    setState(State::Starting);
    if (m_engine->workspaceStrategy() == WorkspaceStrategy::Copy && !m_config.workspace.isEmpty()) {
        // One sync per conversation's volume, kept across containers: a new one resumes.
        if (m_sync && !WorkspaceSync::sameVolume(m_sync->config(), m_config))
            delete m_sync;
        if (!m_sync)
            m_sync = new WorkspaceSync(m_config, this);
        m_sync->setContainer(m_containerName);
    } else {
        delete m_sync;
    }
    m_reasonlessRetries = 0;
    launchContainer();
}

// The container's creation (its name chosen, the state Starting): again when the way to a
// remote daemon broke without a reason (retriedWithoutReason).
void SandboxSession::launchContainer()
{
    const EngineCommand create
        = m_engine->createContainer(m_containerName, QCoreApplication::applicationPid());
    m_kernelIsMain = m_config.kernelIsMainProcess();
    if (m_kernelIsMain) {
        // The container's main process is the kernel itself, on this process's pipes.
        startKernel();
        startProcess(m_kernel, create);
        return;
    }
    m_starter = new QProcess(this);
    QProcess *starter = m_starter;
    connect(starter,
            &QProcess::finished,
            this,
            [this, starter](int exitCode, QProcess::ExitStatus status) {
                const QByteArray err = starter->readAllStandardError();
                starter->deleteLater();
                onContainerStarted(status == QProcess::NormalExit ? exitCode : -1, err);
            });
    connect(starter, &QProcess::errorOccurred, this, [this, starter](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart)
            return;
        starter->deleteLater();
        failStart(QStringLiteral(
                      "'%1' could not be started: is it installed? (apt-get install docker.io)")
                      .arg(m_config.engine));
    });
    startProcess(starter, create);
}

// The client lost its connection to a remote daemon before the daemon answered and did not
// say why (SandboxEngine::connectionFailedWithoutReason): nothing was made there, so the start
// is tried again, twice at most; the next attempt usually fails with ssh's own words, or works.
bool SandboxSession::retriedWithoutReason(const QByteArray &stderrData)
{
    constexpr int MaxRetries = 2;
    if (m_reasonlessRetries >= MaxRetries || !m_engine->connectionFailedWithoutReason(stderrData))
        return false;
    ++m_reasonlessRetries;
    QTimer::singleShot(0, this, [this] {
        if (m_state == State::Starting)
            launchContainer();
    });
    return true;
}

void SandboxSession::onContainerStarted(int exitCode, const QByteArray &stderrData)
{
    if (m_state != State::Starting)
        return;
    if (exitCode != 0) {
        if (!retriedWithoutReason(stderrData))
            failStart(m_engine->describeStartFailure(stderrData));
        return;
    }
    if (const QString refusal = SandboxEngine::ignoredLimits(stderrData); !refusal.isEmpty()) {
        failStart(refusal);
        return;
    }
    if (!m_sync) {
        startKernel();
        startProcess(m_kernel, m_engine->execKernel(m_containerName));
        return;
    }
    // The engine cannot see this folder: it goes into the volume while the kernel starts (each
    // over its own connection, which over ssh:// costs a handshake apiece); the session is ready
    // when both are. The kernel looks at the folder only when the first run asks for a report.
    const QString container = m_containerName;
    m_workspaceGoingUp = true;
    m_kernelReadyEarly = false;
    startKernel();
    startProcess(m_kernel, m_engine->execKernel(m_containerName));
    m_sync->pushAll([this, container](const Result<bool> &sent) {
        if (m_state != State::Starting || m_containerName != container)
            return;
        m_workspaceGoingUp = false;
        if (!sent) {
            if (QProcess *kernel = m_kernel) {
                m_kernel = nullptr; // its end is not this start's failure
                kernel->kill();
                kernel->deleteLater();
            }
            failStart(QStringLiteral("could not send the workspace to %1: %2")
                          .arg(m_engine->describeEndpoint(), sent.error()));
            return;
        }
        if (m_kernelReadyEarly)
            becomeReady();
    });
}

void SandboxSession::becomeReady()
{
    setState(State::Ready);
    Q_EMIT ready();
    if (m_pending) {
        const PendingRun run = *m_pending;
        m_pending.reset();
        dispatch(run);
    }
}

} // namespace Sandcastle
