#pragma once

#include <QObject>
#include <QString>

class QLabel;
class QStatusBar;

namespace Sandcastle {

class ConversationController;

// The window's status bar: the sandbox's state and limits (with the engine's last error until
// the sandbox is up again), the conversation's tokens and cost (and the turn while the agent
// works), and the model. It follows the controller by itself; refresh() after an action that
// changes what it shows without a signal.
class StatusLine : public QObject
{
public:
    StatusLine(ConversationController *controller, QStatusBar *bar);

    void refresh();
    QString usageText() const;

private:
    void refreshUsage();

    ConversationController *m_controller;
    QLabel *m_sandbox;
    QLabel *m_usage;
    QLabel *m_model;
    QString m_sandboxError;
};

} // namespace Sandcastle
