// The window's part in the folder's environment: the bar where the person approves a build
// (or the agent's install_packages), the build's log in the console, and what the chat says
// when the sandbox moves to a new environment. (Split from mainwindow.cpp.)
#include "mainwindow.h"

#include "chat/chatpane.h"
#include "console/consolepane.h"
#include "environment/environmentbar.h"

#include <app/controller/conversationcontroller.h>
#include <app/project/projectenvironment.h>

namespace Sandcastle {

void MainWindow::bindEnvironment()
{
    ProjectEnvironment *environment = m_controller->environment();
    environment->setCanAsk(true); // the bar asks the person
    m_environmentBar->setEnvironment(environment);
    connect(environment,
            &ProjectEnvironment::stateChanged,
            this,
            [this](ProjectEnvironment::State state) {
                if (state == ProjectEnvironment::State::Building && !m_buildInConsole) {
                    m_buildInConsole = true;
                    m_buildClock.start();
                    m_console->beginRun(tr("Building the environment"));
                }
            });
    connect(environment, &ProjectEnvironment::buildOutput, this, [this](const QString &text) {
        if (m_buildInConsole)
            m_console->appendOutput(OutputStream::Stdout, text);
    });
    connect(environment,
            &ProjectEnvironment::buildFinished,
            this,
            [this](bool ok, const QString &message) {
                if (std::exchange(m_buildInConsole, false)) {
                    ExecutionResult result;
                    result.status
                        = ok ? ExecutionResult::Status::Ok : ExecutionResult::Status::Error;
                    result.exitCode = ok ? 0 : 1;
                    result.error = ok ? QString() : message;
                    result.durationMs = m_buildClock.elapsed();
                    m_console->endRun(result);
                }
                if (!ok)
                    m_chat->addNotice(tr("The environment was not built: %1")
                                          .arg(message.section(QLatin1Char('\n'), 0, 0)));
            });
    connect(m_controller,
            &ConversationController::environmentRestarted,
            this,
            [this](const QString &image, bool rebuilt) {
                if (rebuilt)
                    m_chat->addNotice(tr("The sandbox now runs on the environment %1; the "
                                         "Python session restarted, so variables from before "
                                         "are gone.")
                                          .arg(image));
            });
    connect(m_controller, &ConversationController::sandboxIdleStopped, this, [this](int idleS) {
        m_chat->addNotice(tr("The sandbox was stopped after %n minute(s) unused, to free its "
                             "memory: variables from earlier runs are gone. The next run starts "
                             "a new one; the files are kept.",
                             nullptr,
                             std::max(1, (idleS + 59) / 60)));
    });
}

} // namespace Sandcastle
