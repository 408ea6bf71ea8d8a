#include "sandboxsession.h"

#include <QProcess>

namespace Sandcastle {

// Copy mode (a remote engine): the workspace goes up before each run and what the run changed
// comes back before the run is said to have ended.

void SandboxSession::dispatch(const PendingRun &run)
{
    if (!m_sync) {
        sendRun(run);
        return;
    }
    // What the person changed here since the last run goes up first.
    m_running = true;
    setState(State::Running);
    const QString container = m_containerName;
    m_sync->pushChanges([this, run, container](const Result<bool> &sent) {
        if (m_containerName != container || m_state != State::Running)
            return;
        if (sent) {
            sendRun(run);
            return;
        }
        // The engine is not answering as it did: this container is given up, and the next run
        // starts another (which sends the folder again, and brings back what this one left).
        m_running = false;
        release();
        ExecutionResult failed;
        failed.status = ExecutionResult::Status::EngineError;
        failed.exitCode = 125;
        failed.error = QStringLiteral("could not send your changes to %1: %2")
                           .arg(m_engine->describeEndpoint(), sent.error());
        Q_EMIT finished(failed);
    });
}

void SandboxSession::pullThenComplete(ExecutionResult result)
{
    const std::optional<KernelEvent> report = std::exchange(m_report, std::nullopt);
    if (m_containerName.isEmpty()) {
        // The container went with the run (killed, the engine gone): what the run made there
        // comes back when the next container starts on the same volume.
        result.workspaceNote += (result.workspaceNote.isEmpty() ? QString() : QStringLiteral("\n"))
                                + QStringLiteral("the files this run changed stay in %1 until the "
                                                 "sandbox starts again; they come back then")
                                      .arg(m_engine->describeEndpoint());
        completeRun(result);
        return;
    }
    m_running = true; // until the files are back
    const qint64 runId = m_runId;
    m_sync->pull(report, [this, result, runId](const VolumeSteps::Pulled &pulled) mutable {
        if (!m_running || m_runId != runId)
            return; // stopped meanwhile: that ended the run
        result.files = pulled.files;
        QStringList notes;
        if (!result.workspaceNote.isEmpty())
            notes << result.workspaceNote;
        if (!pulled.error.isEmpty())
            notes << QStringLiteral("not every file came back from %1: %2")
                         .arg(m_engine->describeEndpoint(), pulled.error);
        if (!pulled.refused.isEmpty())
            notes << QStringLiteral("left in the sandbox, not copied here: ")
                         + pulled.refused.mid(0, 20).join(QStringLiteral("; "))
                         + (pulled.refused.size() > 20
                                ? QStringLiteral(" … (%1 in all)").arg(pulled.refused.size())
                                : QString());
        result.workspaceNote = notes.join(QLatin1Char('\n'));
        if (m_config.fresh)
            retireFreshContainer();
        completeRun(result);
    });
}

void SandboxSession::completeRun(const ExecutionResult &result)
{
    m_running = false;
    if (m_state == State::Running)
        setState(State::Ready);
    Q_EMIT finished(result);
}

void SandboxSession::retireFreshContainer()
{
    // stdin closed, the kernel exits (and --rm removes its container, or removal does).
    QProcess *kernel = m_kernel;
    m_kernel = nullptr;
    if (kernel) {
        kernel->disconnect(this);
        kernel->closeWriteChannel();
        connect(kernel, &QProcess::finished, kernel, &QObject::deleteLater);
    }
    removeContainerAsync();
    setState(State::Stopped);
}

} // namespace Sandcastle
