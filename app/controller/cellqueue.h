#pragma once

#include <sandbox/executionresult.h>

#include <QList>
#include <QObject>
#include <QString>

namespace Sandcastle {

class ConversationController;

// Runs a notebook's cells one after another as the person's runs in the conversation's
// kernel (so variables carry from cell to cell): the next starts when the one before has
// finished, and the first that fails (an error, a timeout, a stop) ends the queue.
class CellQueue : public QObject
{
    Q_OBJECT
public:
    struct Cell
    {
        QString code;
        bool shell = false;
        QString name; // "Cell 3", for the messages
    };

    explicit CellQueue(ConversationController *controller, QObject *parent = nullptr);

    // False (and nothing starts) while the conversation is busy or when there is nothing to
    // run. `tellAgent`: the agent hears of each run with the next message.
    bool start(const QList<Cell> &cells, bool tellAgent);
    bool isRunning() const { return m_next >= 0; }

Q_SIGNALS:
    void cellStarted(int index);
    // `ok`: every cell ran without an error; otherwise `index` is the cell that failed (or
    // could not start) and `message` says so.
    void finished(bool ok, int index, const QString &message);

private:
    void runNext();
    void onRunFinished(const Sandcastle::ExecutionResult &result);
    void end(bool ok, int index, const QString &message);

    ConversationController *m_controller;
    QList<Cell> m_cells;
    bool m_tellAgent = true;
    int m_next = -1;        // the cell to start next; -1 when not running
    bool m_waiting = false; // one of ours is running
};

} // namespace Sandcastle
