#pragma once

#include "checkpoints.h"

#include <QCoreApplication>
#include <QObject>
#include <QPointer>
#include <QThreadPool>

#include <functional>
#include <memory>

namespace Sandcastle {

// A step just recorded and the files it changed.
struct RecordedStep
{
    Result<Checkpoint> step = Result<Checkpoint>::failure(QString());
    QList<CheckpointChange> changes;

    // `step` with its changes read from `checkpoints` (on the queue's thread).
    static RecordedStep of(Checkpoints &checkpoints, Result<Checkpoint> step);
};

// The checkpoints of the current conversation, taken on a thread of their own, one job after
// another in the order asked (a step's end before the next one's begin), so that the window
// never waits for git. Each job's answer comes back on this object's thread.
class CheckpointQueue : public QObject
{
    Q_OBJECT
public:
    explicit CheckpointQueue(QObject *parent = nullptr);
    ~CheckpointQueue() override;

    // The folder and conversation the next jobs are about (a conversation switch); `readAhead`:
    // read the folder into the repository now, so that the first checkpoint is quick.
    void setTarget(const QString &dataDir,
                   const QString &workspace,
                   const QString &conversationId,
                   bool readAhead = false);
    QString workspace() const { return m_workspace; }

    // Records the state before a step, then calls `then` (whether or not it could: a failure
    // is told as problem(), and the step goes on without its checkpoint).
    void begin(const QString &kind, const QString &label, int turn, std::function<void()> then);
    // Records the state after it: stepRecorded() with what changed.
    void end();

    // Any job on the checkpoints, answered on this thread (`context` gone: not answered).
    template<typename T>
    void submit(QObject *context,
                std::function<T(Checkpoints &)> job,
                std::function<void(const T &)> answer)
    {
        std::shared_ptr<Checkpoints> target = m_target;
        QPointer<QObject> guard(context);
        m_pool.start([target, guard, job = std::move(job), answer = std::move(answer)] {
            T value = job(*target);
            QMetaObject::invokeMethod(
                guard.data() ? guard.data() : QCoreApplication::instance(),
                [guard, value = std::move(value), answer] {
                    if (guard)
                        answer(value);
                },
                Qt::QueuedConnection);
        });
    }

    // Waits for every job asked for (the command line, before it exits).
    void waitForDone();

Q_SIGNALS:
    void stepRecorded(const Sandcastle::Checkpoint &step,
                      const QList<Sandcastle::CheckpointChange> &changes);
    // A checkpoint could not be taken (git missing, the folder gone, a disk error).
    void problem(const QString &message);

private:
    QThreadPool m_pool;
    std::shared_ptr<Checkpoints> m_target;
    QString m_workspace;
};

} // namespace Sandcastle
