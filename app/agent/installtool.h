#pragma once

#include "tool.h"

#include <QStringList>

#include <functional>

namespace Sandcastle {

// install_packages(pip?, apt?, reason): the way the model gets a package the sandbox lacks.
// The installer (the conversation's ProjectEnvironment) always asks the person — whatever the
// ask-first setting — with the packages and the reason, then adds them to the project's
// requirements.txt / apt.txt and rebuilds the environment, the only time the network is used.
class InstallPackagesTool final : public Tool
{
public:
    struct Request
    {
        QStringList pip;
        QStringList apt;
        QString reason;
    };
    // Answers through `done` with the result JSON.
    using Installer = std::function<void(const Request &request, const Done &done)>;

    explicit InstallPackagesTool(Installer installer);

    const ToolSpec &spec() const override { return m_spec; }
    Place place() const override { return Place::Host; }
    // The installer asks, always: the ask-first bar would ask a second time.
    bool needsApproval() const override { return false; }
    void invoke(const nlohmann::json &arguments,
                const ToolContext &context,
                const Done &done) const override;

    static Result<Request> request(const nlohmann::json &arguments);

private:
    ToolSpec m_spec;
    Installer m_installer;
};

} // namespace Sandcastle
