#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

class QLabel;
class QStatusBar;

namespace Sandcastle {

class ConversationController;

// The window's status bar: the sandbox's state and limits (with the engine's last error until
// the sandbox is up again), the conversation's tokens and cost (and the turn while the agent
// works), the model, and how many sandboxes of the data folder run with their memory (asked of
// the engine every half minute, on a worker thread). It follows the controller by itself; refresh()
// after an action that changes what it shows without a signal.
class StatusLine : public QObject
{
public:
    StatusLine(ConversationController *controller, QStatusBar *bar);

    void refresh();
    QString usageText() const;

private:
    void refreshUsage();
    void askSandboxUsage();

    ConversationController *m_controller;
    QLabel *m_sandbox;
    QLabel *m_usage;
    QLabel *m_model;
    QLabel *m_sandboxes;
    QTimer m_usageTimer;
    bool m_asking = false;
    QString m_sandboxError;
};

} // namespace Sandcastle
