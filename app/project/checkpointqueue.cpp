#include "checkpointqueue.h"

#include <QCoreApplication>

namespace Sandcastle {

RecordedStep RecordedStep::of(Checkpoints &checkpoints, Result<Checkpoint> step)
{
    RecordedStep recorded;
    recorded.step = std::move(step);
    if (recorded.step) {
        const Result<QList<CheckpointChange>> changes = checkpoints.changes(recorded.step.value());
        if (changes)
            recorded.changes = changes.value();
    }
    return recorded;
}

CheckpointQueue::CheckpointQueue(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<Sandcastle::Checkpoint>();
    m_pool.setMaxThreadCount(1); // one job after another, in order
    m_pool.setExpiryTimeout(-1);
}

CheckpointQueue::~CheckpointQueue()
{
    m_pool.waitForDone();
}

void CheckpointQueue::setTarget(const QString &dataDir,
                                const QString &workspace,
                                const QString &conversationId,
                                bool readAhead)
{
    m_workspace = workspace;
    m_target = std::make_shared<Checkpoints>(dataDir, workspace, conversationId);
    // A person's folder is read ahead of the first prompt (quietly: a problem shows at begin()).
    if (readAhead)
        submit<Result<bool>>(
            this,
            [](Checkpoints &checkpoints) { return checkpoints.prepare(); },
            [](const auto &) {});
}

void CheckpointQueue::begin(const QString &kind,
                            const QString &label,
                            int turn,
                            std::function<void()> then)
{
    submit<Result<QString>>(
        this,
        [kind, label, turn](Checkpoints &checkpoints) {
            return checkpoints.begin(kind, label, turn);
        },
        [this, then = std::move(then)](const Result<QString> &begun) {
            if (!begun)
                Q_EMIT problem(tr("No checkpoint before this step: %1").arg(begun.error()));
            then();
        });
}

void CheckpointQueue::end()
{
    submit<RecordedStep>(
        this,
        [](Checkpoints &checkpoints) { return RecordedStep::of(checkpoints, checkpoints.end()); },
        [this](const RecordedStep &result) {
            if (result.step)
                Q_EMIT stepRecorded(result.step.value(), result.changes);
            else if (result.step.error() != QLatin1String("no step was begun"))
                Q_EMIT problem(tr("No checkpoint after this step: %1").arg(result.step.error()));
        });
}

void CheckpointQueue::waitForDone()
{
    m_pool.waitForDone();
    QCoreApplication::sendPostedEvents(this);
}

} // namespace Sandcastle
