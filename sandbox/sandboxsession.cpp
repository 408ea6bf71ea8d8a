#include "sandboxsession.h"

#include "blockingjobs.h"
#include "pathguard.h"
#include "workspacesync.h"

#include <QCoreApplication>
#include <QFile>
#include <QProcess>
#include <QThreadPool>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Sandcastle {

namespace {
constexpr int kFlushIntervalMs = 16; // ~60 updates a second at most
// How often a run's workspace is measured against the quota (off the event loop's thread).
constexpr int kQuotaPollMs = 200;
constexpr int kKillGraceMs = 5000;

} // namespace

SandboxSession::SandboxSession(SandboxConfig config, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_engine(SandboxEngine::forConfig(m_config))
{
    m_timeoutTimer.setSingleShot(true);
    connect(&m_timeoutTimer, &QTimer::timeout, this, &SandboxSession::onTimeout);
    m_graceTimer.setSingleShot(true);
    connect(&m_graceTimer, &QTimer::timeout, this, &SandboxSession::killContainer);
    m_flushTimer.setSingleShot(true);
    m_flushTimer.setInterval(kFlushIntervalMs);
    connect(&m_flushTimer, &QTimer::timeout, this, &SandboxSession::flushOutput);
    m_quotaTimer.setInterval(kQuotaPollMs);
    connect(&m_quotaTimer, &QTimer::timeout, this, &SandboxSession::checkQuota);
}

void SandboxSession::setConfig(const SandboxConfig &config)
{
    m_config = config;
    m_engine = SandboxEngine::forConfig(m_config);
}

void SandboxSession::startProcess(QProcess *process, const EngineCommand &command)
{
    process->start(command.program, command.arguments);
}

SandboxSession::~SandboxSession()
{
    // Listeners may be half destroyed already: clean up without telling anyone.
    blockSignals(true);
    stop();
}

void SandboxSession::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    Q_EMIT stateChanged(state);
}

void SandboxSession::startKernel()
{
    m_protocol = KernelProtocol();
    m_kernelStderr.clear();
    m_kernel = new QProcess(this);
    bindKernel(m_kernel);
}

void SandboxSession::bindKernel(QProcess *kernel)
{
    connect(kernel, &QProcess::readyReadStandardOutput, this, &SandboxSession::onKernelOutput);
    connect(kernel, &QProcess::readyReadStandardError, this, [this, kernel] {
        m_kernelStderr += kernel->readAllStandardError();
        if (m_kernelStderr.size() > 65536)
            m_kernelStderr = m_kernelStderr.right(65536);
    });
    connect(kernel,
            &QProcess::finished,
            this,
            [this, kernel](int exitCode, QProcess::ExitStatus status) {
                if (kernel != m_kernel)
                    return;
                onKernelFinished(status == QProcess::NormalExit ? exitCode : -1);
            });
    connect(kernel, &QProcess::errorOccurred, this, [this, kernel](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart && kernel == m_kernel)
            onKernelFinished(-1);
    });
}

void SandboxSession::onKernelOutput()
{
    if (!m_kernel)
        return;
    const QList<KernelEvent> events = m_protocol.feed(m_kernel->readAllStandardOutput());
    for (const KernelEvent &event : events)
        handleEvent(event);
}

// The kernel's answer at the end of a run: how it ended, in the words the person reads.
void SandboxSession::finishFromDone(const KernelEvent &event)
{
    if (!m_running || event.id != m_runId)
        return;
    ExecutionResult result = m_current;
    result.exitCode = event.exitCode;
    result.error = event.error;
    const qint64 capMiB = m_config.outputHardCapBytes / (1024 * 1024);
    if (event.status == QLatin1String("ok")) {
        result.status = ExecutionResult::Status::Ok;
        if (m_stopReason == StopReason::OutputCap) {
            // The code ended on its own before the interrupt reached it (the engine's pipe
            // held the rest of its output): its work is done, but not all it printed.
            result.truncated = true;
            result.error = QStringLiteral("the run printed more than %1 MiB; what came after "
                                          "was not kept (the run ended before it could be "
                                          "stopped)")
                               .arg(capMiB);
        }
    } else if (event.status == QLatin1String("interrupted")) {
        switch (m_stopReason) {
        case StopReason::Timeout:
            result.status = ExecutionResult::Status::Timeout;
            result.exitCode = 124;
            result.error
                = QStringLiteral("the run took longer than its time limit and was interrupted; "
                                 "variables are kept");
            break;
        case StopReason::OutputCap:
            result.status = ExecutionResult::Status::Killed;
            result.error
                = QStringLiteral("the run printed more than %1 MiB and was stopped").arg(capMiB);
            break;
        case StopReason::Quota:
            result.status = ExecutionResult::Status::Killed;
            result.error = quotaMessage();
            break;
        case StopReason::Person:
        case StopReason::None:
            result.status = ExecutionResult::Status::Killed;
            break;
        }
    } else {
        result.status = ExecutionResult::Status::Error;
    }
    // One run per container: let this one go before anyone can submit the next run (in
    // copy mode once its files are back).
    if (m_kernelIsMain)
        retireFreshContainer();
    finishRun(result);
}

void SandboxSession::handleEvent(const KernelEvent &event)
{
    switch (event.type) {
    case KernelEvent::Type::Ready:
        if (m_state != State::Starting)
            break;
        // Fresh mode: the engine's warnings came on the kernel's own stderr.
        if (const QString refusal = SandboxEngine::ignoredLimits(m_kernelStderr);
            !refusal.isEmpty()) {
            failStart(refusal);
            break;
        }
        if (m_workspaceGoingUp)
            m_kernelReadyEarly = true; // ready when the workspace is there too
        else
            becomeReady();
        break;
    case KernelEvent::Type::Output:
        if (m_running && event.id == m_runId)
            appendOutput(event.stream, event.text);
        break;
    case KernelEvent::Type::Done:
        finishFromDone(event);
        break;
    case KernelEvent::Type::Files:
        if (m_running && event.id == m_runId && m_sync)
            m_report = event;
        break;
    case KernelEvent::Type::Quota:
        if (m_running && event.id == m_runId && m_sync) {
            m_workspaceBytes = event.bytes;
            requestStop(StopReason::Quota);
        }
        break;
    case KernelEvent::Type::Preimported:
        m_preimported = event;
        Q_EMIT preimported(event.imported, event.failed, event.ms);
        break;
    case KernelEvent::Type::ProtocolError:
    case KernelEvent::Type::Invalid:
        qWarning("sandbox kernel: %s", qPrintable(event.text));
        break;
    }
}

void SandboxSession::runPython(const QString &code, int timeoutMs)
{
    submit({false, code, timeoutMs < 0 ? m_config.timeoutMs : timeoutMs});
}

void SandboxSession::runShell(const QString &command, int timeoutMs)
{
    submit({true, command, timeoutMs < 0 ? m_config.timeoutMs : timeoutMs});
}

void SandboxSession::submit(const PendingRun &run)
{
    if (m_running || m_pending) {
        ExecutionResult busy;
        busy.status = ExecutionResult::Status::EngineError;
        busy.exitCode = 125;
        busy.error = QStringLiteral("another run is still in progress in this sandbox");
        QMetaObject::invokeMethod(
            this, [this, busy] { Q_EMIT finished(busy); }, Qt::QueuedConnection);
        return;
    }
    if (m_state == State::Ready) {
        dispatch(run);
        return;
    }
    m_pending = run;
    if (m_state == State::Stopped)
        start();
}

void SandboxSession::sendRun(const PendingRun &run)
{
    m_running = true;
    m_stopReason = StopReason::None;
    m_killed = false;
    m_outputBytes = 0;
    ++m_runId;
    m_current = ExecutionResult();
    m_batcher.take();
    if (!m_sync)
        m_files.begin(m_config.workspace);
    openSpillLog();
    setState(State::Running);
    m_elapsed.start();
    if (run.timeoutMs > 0)
        m_timeoutTimer.start(run.timeoutMs);
    if (m_config.workspaceQuotaBytes > 0 && !m_config.workspace.isEmpty())
        m_quotaTimer.start();
    m_report.reset();
    // Copy mode: the kernel says what the run changed, and when it fills the volume too much.
    KernelProtocol::CopyMode copy;
    if (m_sync) {
        copy.reportFiles = true;
        copy.quotaBytes = qMax<qint64>(0, m_config.workspaceQuotaBytes);
    }
    m_kernel->write(run.shell ? KernelProtocol::encodeShell(m_runId, run.code, copy)
                              : KernelProtocol::encodeRun(m_runId, run.code, copy));
}

void SandboxSession::openSpillLog()
{
    if (m_spillFd >= 0)
        ::close(m_spillFd);
    m_spillFd = -1;
    if (m_config.workspace.isEmpty())
        return;
    // Through the guard: the code could have planted a symlink where the log goes.
    const Result<int> fd
        = PathGuard::openInside(m_config.workspace,
                                QStringLiteral(".sandcastle/run-%1.log").arg(m_runId),
                                O_WRONLY | O_CREAT | O_TRUNC,
                                true);
    if (fd)
        m_spillFd = fd.value();
    else
        qWarning("sandbox: no output log: %s", qPrintable(fd.error()));
}

void SandboxSession::appendOutput(OutputStream stream, const QString &text)
{
    const QByteArray bytes = text.toUtf8();
    const qint64 before = m_outputBytes;
    m_outputBytes += bytes.size();
    if (m_outputBytes > m_config.outputHardCapBytes)
        requestStop(StopReason::OutputCap); // does nothing once the stop is on its way
    if (before >= m_config.outputHardCapBytes)
        return; // counted, not kept
    if (m_spillFd >= 0) {
        const qint64 room = m_config.outputHardCapBytes - before;
        const qsizetype n = qsizetype(qMin<qint64>(bytes.size(), room));
        if (::write(m_spillFd, bytes.constData(), size_t(n)) != n) {
            ::close(m_spillFd);
            m_spillFd = -1;
        }
    }
    QString &kept = stream == OutputStream::Stdout ? m_current.stdoutText : m_current.stderrText;
    const qint64 keptSoFar = m_current.stdoutText.size() + m_current.stderrText.size();
    const qint64 room = m_config.maxKeptBytes - keptSoFar;
    if (room >= text.size()) {
        kept += text;
    } else {
        if (room > 0)
            kept += text.left(qsizetype(room));
        m_current.truncated = true;
    }
    m_batcher.append(stream,
                     room >= text.size() ? text : text.left(qsizetype(qMax<qint64>(room, 0))));
    if (!m_flushTimer.isActive())
        m_flushTimer.start();
}

void SandboxSession::flushOutput()
{
    const QList<OutputBatcher::Chunk> chunks = m_batcher.take();
    for (const OutputBatcher::Chunk &chunk : chunks) {
        if (!chunk.text.isEmpty())
            Q_EMIT outputReady(chunk.stream, chunk.text);
    }
}

void SandboxSession::finishRun(ExecutionResult result)
{
    m_timeoutTimer.stop();
    m_quotaTimer.stop();
    m_graceTimer.stop();
    m_flushTimer.stop();
    flushOutput();
    m_running = false;
    if (m_spillFd >= 0) {
        ::close(m_spillFd);
        m_spillFd = -1;
        result.logFile = QStringLiteral(".sandcastle/run-%1.log").arg(m_runId);
    }
    result.durationMs = m_elapsed.isValid() ? m_elapsed.elapsed() : 0;
    result.truncated = result.truncated || m_current.truncated;
    result.workspaceNote = m_config.workspaceNote;
    if (!m_sync) {
        result.files = m_files.finish();
        completeRun(result);
        return;
    }
    pullThenComplete(result);
}

void SandboxSession::interrupt()
{
    requestStop(StopReason::Person);
}

void SandboxSession::onTimeout()
{
    requestStop(StopReason::Timeout);
}

void SandboxSession::checkQuota()
{
    if (!m_running || m_quotaCheckRunning)
        return;
    // Walking a big workspace takes a while: measure on the pool, decide back here.
    m_quotaCheckRunning = true;
    QPointer<SandboxSession> self(this);
    const std::function<qint64()> measure = m_files.usageProbe(m_config.workspace);
    const qint64 runId = m_runId;
    blockingJobs()->start([self, measure, runId] {
        // From the watcher's running total when the workspace is watched: no walk.
        const qint64 used = measure();
        // The application as the context: the session may be gone by now.
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, used, runId] {
                if (!self)
                    return;
                self->m_quotaCheckRunning = false;
                self->m_workspaceBytes = used;
                if (self->m_running && self->m_runId == runId
                    && used > self->m_config.workspaceQuotaBytes)
                    self->requestStop(StopReason::Quota);
            },
            Qt::QueuedConnection);
    });
}

QString SandboxSession::quotaMessage() const
{
    return QStringLiteral("the run filled the workspace past its quota of %1 MiB (it holds %2 MiB "
                          "now) and was stopped; delete files to make room")
        .arg(m_config.workspaceQuotaBytes / (1024 * 1024))
        .arg(m_workspaceBytes / (1024 * 1024));
}

void SandboxSession::requestStop(StopReason reason)
{
    if (!m_running || m_stopReason != StopReason::None || !m_kernel)
        return;
    m_stopReason = reason;
    m_timeoutTimer.stop();
    m_kernel->write(KernelProtocol::encodeInterrupt());
    m_graceTimer.start(m_config.interruptGraceMs);
}

void SandboxSession::killContainer()
{
    if (!m_running)
        return;
    m_killed = true;
    // Killing the exec'd CLI would leave the code running: stop the container itself.
    auto *killer = new QProcess(this);
    connect(killer, &QProcess::finished, killer, &QObject::deleteLater);
    startProcess(killer, m_engine->killContainer(m_containerName));
    // If the kernel pipe does not close in time, give up on it.
    QTimer::singleShot(kKillGraceMs, this, [this, runId = m_runId] {
        if (m_running && m_runId == runId && m_kernel)
            m_kernel->kill();
    });
}

void SandboxSession::onKernelFinished(int exitCode)
{
    QProcess *kernel = m_kernel;
    m_kernel = nullptr;
    if (kernel)
        kernel->deleteLater();
    const QString diagnostics = QString::fromUtf8(m_kernelStderr).trimmed();
    if (m_state == State::Starting) {
        if (m_kernelIsMain && retriedWithoutReason(m_kernelStderr))
            return;
        failStart(m_kernelIsMain
                      ? m_engine->describeStartFailure(m_kernelStderr)
                      : QStringLiteral("the sandbox kernel did not start: ") + diagnostics);
        return;
    }
    // The kernel died on its own. SIGKILL (137) is the memory limit's OOM kill or the code
    // killing its kernel: the container's cgroup counts OOM kills, so ask it before the
    // container goes. If it cannot be asked, the container (or the daemon) is gone.
    if (m_running && !m_killed && !m_kernelIsMain && !m_containerName.isEmpty()) {
        auto *probe = new QProcess(this);
        const qint64 runId = m_runId;
        connect(probe, &QProcess::finished, this, [this, probe, runId, diagnostics, exitCode] {
            probe->deleteLater();
            if (!m_running || m_runId != runId)
                return; // stopped meanwhile: that already ended the run
            const QByteArray said = probe->readAllStandardError();
            const KernelDeath death
                = deathFromOomProbe(probe->readAllStandardOutput(), said, exitCode, m_oomKillsSeen);
            endKernelRun(exitCode, diagnostics, death, QString::fromUtf8(said));
        });
        startProcess(probe, m_engine->readOomCounters(m_containerName));
        QTimer::singleShot(kKillGraceMs, probe, [probe] { probe->kill(); });
        return;
    }
    endKernelRun(exitCode,
                 diagnostics,
                 exitCode == 137 && m_kernelIsMain ? KernelDeath::OutOfMemory : KernelDeath::Gone);
}

void SandboxSession::endKernelRun(int exitCode,
                                  const QString &diagnostics,
                                  KernelDeath death,
                                  const QString &engineSaid)
{
    const bool wasRunning = m_running;
    removeContainerAsync();
    setState(State::Stopped);
    if (!wasRunning)
        return;
    ExecutionResult result = m_current;
    KernelEnd end;
    end.killedByHost = m_killed;
    end.reason = m_stopReason;
    end.death = death;
    end.exitCode = exitCode;
    end.diagnostics = diagnostics;
    end.memory = m_config.memory;
    end.outputCapBytes = m_config.outputHardCapBytes;
    end.quotaMessage = quotaMessage();
    if (m_sync)
        end.remote = m_engine->describeEndpoint();
    end.engineSaid = engineSaid;
    describeKernelEnd(end, result);
    finishRun(result);
}

void SandboxSession::failStart(const QString &message)
{
    removeContainerAsync();
    setState(State::Stopped);
    Q_EMIT errorOccurred(message);
    if (m_pending) {
        m_pending.reset();
        ExecutionResult result;
        result.status = ExecutionResult::Status::EngineError;
        result.exitCode = 125;
        result.error = message;
        Q_EMIT finished(result);
    }
}

} // namespace Sandcastle
