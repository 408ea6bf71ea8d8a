// The conversation controller's part in the folder's environment: the image its sandbox runs
// on, the move to a new one after a build, and the install_packages tool.
#include "conversationcontroller.h"

#include <app/agent/agent.h>
#include <app/agent/installtool.h>
#include <app/agent/tools.h>
#include <app/project/projectenvironment.h>
#include <sandbox/sandboxsession.h>

#include <QPointer>

namespace Sandcastle {

SandboxConfig ConversationController::sandboxConfig() const
{
    SandboxConfig config
        = m_settings.sandboxConfig(m_conversationId, m_workspace, !m_ownsWorkspace);
    config.image = m_environment->image();
    return config;
}

void ConversationController::bindEnvironment()
{
    connect(m_environment,
            &ProjectEnvironment::imageChanged,
            this,
            &ConversationController::onEnvironmentImage);
    m_agent->setInstalledPackages(m_environment->packages());
    QPointer<ProjectEnvironment> environment(m_environment);
    m_agent->tools().add(std::make_shared<InstallPackagesTool>(
        [environment](const InstallPackagesTool::Request &request, const Tool::Done &done) {
            if (!environment) {
                done(Tools::errorJson(QStringLiteral("the conversation was closed")));
                return;
            }
            environment->install(
                request.pip, request.apt, request.reason, [done](const Result<QString> &packages) {
                    if (!packages) {
                        done(Tools::errorJson(packages.error()));
                        return;
                    }
                    nlohmann::json result = Tools::okJson(0);
                    result["packages"] = packages.value().toStdString();
                    result["note"] = "The environment was rebuilt with them and the Python "
                                     "session restarted on it: variables from before are gone, "
                                     "so import and load again what you need.";
                    done(result);
                });
        }));
}

void ConversationController::onEnvironmentImage(const QString &image,
                                                const QString &packages,
                                                bool rebuilt)
{
    m_agent->setInstalledPackages(packages);
    if (m_session->config().image == image)
        return;
    SandboxConfig config = m_session->config();
    config.image = image;
    m_session->setConfig(config);
    m_restartWhenIdle = true;
    m_restartRebuilt = m_restartRebuilt || rebuilt;
    // Code that is running finishes on the image it started on, and an agent's turn keeps its
    // variables: the move waits for their end. An agent waiting for install_packages moves
    // now, before the tool answers.
    const bool codeRuns = m_session->state() == SandboxSession::State::Running || m_personRunning;
    if (!codeRuns && (!m_agent->isRunning() || m_environment->isInstalling()))
        restartOnEnvironment();
}

void ConversationController::restartOnEnvironment()
{
    if (!std::exchange(m_restartWhenIdle, false))
        return;
    const bool rebuilt = std::exchange(m_restartRebuilt, false);
    const bool hadSession = m_session->state() != SandboxSession::State::Stopped;
    m_session->release();
    if (hadSession)
        warmUp();
    if (rebuilt && hadSession && !m_agent->isRunning())
        m_agent->noteForNextMessage(
            QStringLiteral("[The project's environment was rebuilt and the Python session "
                           "restarted on it: variables from before are gone.]"));
    Q_EMIT environmentRestarted(m_session->config().image, rebuilt && hadSession);
}

} // namespace Sandcastle
