// The window's part in checkpoints: a badge in the chat for each step that changed files,
// the review it opens, and what an undo or restore says. (Split from mainwindow.cpp.)
#include "mainwindow.h"

#include "chat/chatpane.h"
#include "files/filespane.h"
#include "review/checkpointreview.h"

#include <app/controller/conversationcontroller.h>
#include <app/project/checkpointqueue.h>

#include <QStatusBar>

namespace Sandcastle {

void MainWindow::bindCheckpoints()
{
    connect(m_controller,
            &ConversationController::checkpointRecorded,
            this,
            [this](const Checkpoint &step, const QList<CheckpointChange> &changes) {
                if (!changes.isEmpty())
                    m_chat->addCheckpoint(
                        step.number, -1, CheckpointReview::summary(step, changes));
                if (step.kind != QLatin1String("turn"))
                    return;
                // The files the turn changed are marked in the tree until the next turn.
                QStringList paths;
                for (const CheckpointChange &change : changes) {
                    if (change.status != 'D')
                        paths << change.path;
                }
                m_files->markTurnChanges(paths);
            });
    connect(m_controller,
            &ConversationController::checkpointProblem,
            this,
            [this](const QString &message) { statusBar()->showMessage(message, 15000); });
    connect(m_controller,
            &ConversationController::checkpointActionFinished,
            this,
            [this](bool ok, const QString &message) {
                if (ok)
                    m_chat->addNotice(message);
                else
                    m_chat->addError(message);
            });
    connect(m_chat, &ChatPane::checkpointActivated, this, &MainWindow::openCheckpointReview);
    // A conversation opened: the badges of its turns, after each turn.
    connect(m_controller, &ConversationController::conversationSwitched, this, [this] {
        m_controller->checkpoints()->submit<QList<RecordedStep>>(
            this,
            [](Checkpoints &checkpoints) {
                QList<RecordedStep> steps;
                const Result<QList<Checkpoint>> all = checkpoints.list();
                for (const Checkpoint &step : all ? all.value() : QList<Checkpoint>()) {
                    if (step.kind != QLatin1String("turn"))
                        continue;
                    RecordedStep recorded
                        = RecordedStep::of(checkpoints, Result<Checkpoint>::ok(step));
                    if (!recorded.changes.isEmpty())
                        steps.append(std::move(recorded));
                }
                return steps;
            },
            [this, id = m_controller->conversationId()](const QList<RecordedStep> &steps) {
                if (id != m_controller->conversationId())
                    return; // switched again meanwhile
                for (const RecordedStep &s : steps)
                    m_chat->addCheckpoint(s.step.value().number,
                                          s.step.value().turn,
                                          CheckpointReview::summary(s.step.value(), s.changes));
            });
    });
}

void MainWindow::openCheckpointReview(int number)
{
    m_controller->checkpoints()->submit<RecordedStep>(
        this,
        [number](Checkpoints &checkpoints) {
            return RecordedStep::of(checkpoints, checkpoints.find(QString::number(number)));
        },
        [this](const RecordedStep &found) {
            if (!found.step) {
                statusBar()->showMessage(found.step.error(), 10000);
                return;
            }
            auto *review
                = new CheckpointReview(m_controller, found.step.value(), found.changes, this);
            review->show();
        });
}

void MainWindow::reviewLastChanges()
{
    m_controller->checkpoints()->submit<int>(
        this,
        [](Checkpoints &checkpoints) {
            const Result<QList<Checkpoint>> all = checkpoints.list();
            const QList<Checkpoint> steps = all ? all.value() : QList<Checkpoint>();
            for (auto it = steps.crbegin(); it != steps.crend(); ++it) {
                const Result<QList<CheckpointChange>> changes = checkpoints.changes(*it);
                if (changes && !changes.value().isEmpty())
                    return it->number;
            }
            return 0;
        },
        [this](const int &number) {
            if (number > 0)
                openCheckpointReview(number);
            else
                statusBar()->showMessage(tr("No changes recorded in this conversation yet."), 8000);
        });
}

} // namespace Sandcastle
