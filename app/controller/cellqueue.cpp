#include "cellqueue.h"

#include "conversationcontroller.h"

#include <QTimer>

namespace Sandcastle {

CellQueue::CellQueue(ConversationController *controller, QObject *parent)
    : QObject(parent)
    , m_controller(controller)
{
    connect(
        controller, &ConversationController::personRunFinished, this, &CellQueue::onRunFinished);
}

bool CellQueue::start(const QList<Cell> &cells, bool tellAgent)
{
    if (isRunning() || cells.isEmpty() || m_controller->isBusy())
        return false;
    m_cells = cells;
    m_tellAgent = tellAgent;
    m_next = 0;
    runNext();
    return true;
}

void CellQueue::runNext()
{
    if (m_next >= m_cells.size()) {
        end(true, int(m_cells.size()) - 1, tr("All %n cell(s) ran.", nullptr, int(m_cells.size())));
        return;
    }
    const Cell &cell = m_cells[m_next];
    m_waiting = m_controller->runPersonCode(cell.code,
                                            cell.shell ? ConversationController::Language::Shell
                                                       : ConversationController::Language::Python,
                                            m_tellAgent);
    if (!m_waiting) {
        end(false,
            m_next,
            tr("%1 could not start: the agent or another run is busy.").arg(cell.name));
        return;
    }
    Q_EMIT cellStarted(m_next);
}

void CellQueue::onRunFinished(const ExecutionResult &result)
{
    if (!m_waiting)
        return; // a run that is not the queue's
    m_waiting = false;
    const int index = m_next;
    if (!result.isOk()) {
        end(false,
            index,
            tr("%1 failed (%2); the cells after it were not run.")
                .arg(m_cells[index].name, ExecutionResult::statusName(result.status)));
        return;
    }
    ++m_next;
    // The next run starts after the controller has finished with this one.
    QTimer::singleShot(0, this, [this] {
        if (isRunning())
            runNext();
    });
}

void CellQueue::end(bool ok, int index, const QString &message)
{
    m_next = -1;
    m_waiting = false;
    m_cells.clear();
    Q_EMIT finished(ok, index, message);
}

} // namespace Sandcastle
