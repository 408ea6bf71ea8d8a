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
        struct Step
        {
            Checkpoint step;
            QList<CheckpointChange> changes;
        };
        m_controller->checkpoints()->submit<QList<Step>>(
            this,
            [](Checkpoints &checkpoints) {
                QList<Step> steps;
                const Result<QList<Checkpoint>> all = checkpoints.list();
                for (const Checkpoint &step : all ? all.value() : QList<Checkpoint>()) {
                    const Result<QList<CheckpointChange>> changes = checkpoints.changes(step);
                    if (step.kind == QLatin1String("turn") && changes && !changes.value().isEmpty())
                        steps.append({step, changes.value()});
                }
                return steps;
            },
            [this, id = m_controller->conversationId()](const QList<Step> &steps) {
                if (id != m_controller->conversationId())
                    return; // switched again meanwhile
                for (const Step &s : steps)
                    m_chat->addCheckpoint(
                        s.step.number, s.step.turn, CheckpointReview::summary(s.step, s.changes));
            });
    });
}

void MainWindow::openCheckpointReview(int number)
{
    struct Found
    {
        Result<Checkpoint> step = Result<Checkpoint>::failure(QString());
        QList<CheckpointChange> changes;
    };
    m_controller->checkpoints()->submit<Found>(
        this,
        [number](Checkpoints &checkpoints) {
            Found found;
            found.step = checkpoints.find(QString::number(number));
            if (found.step) {
                const Result<QList<CheckpointChange>> changes
                    = checkpoints.changes(found.step.value());
                if (changes)
                    found.changes = changes.value();
            }
            return found;
        },
        [this](const Found &found) {
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
