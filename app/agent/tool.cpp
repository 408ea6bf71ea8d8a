#include "tool.h"

#include "tools.h"

namespace Sandcastle {

QString toolResultStatusName(ToolResultStatus status)
{
    return status == ToolResultStatus::Ok ? QStringLiteral("ok") : QStringLiteral("error");
}

ToolResultStatus toolResultStatusOf(const nlohmann::json &result)
{
    return result.is_object() && result.value("status", std::string()) == "ok"
               ? ToolResultStatus::Ok
               : ToolResultStatus::Error;
}

Result<nlohmann::json> parseToolArguments(const QString &toolName, const QString &argumentsJson)
{
    nlohmann::json arguments = nlohmann::json::parse(argumentsJson.toStdString(), nullptr, false);
    if (arguments.is_discarded() || !arguments.is_object()) {
        return Result<nlohmann::json>::failure(
            QStringLiteral("the arguments of %1 are not a JSON object: %2")
                .arg(toolName, argumentsJson.left(200)));
    }
    return Result<nlohmann::json>::ok(std::move(arguments));
}

QString languageName(SandboxRun::Language language)
{
    return language == SandboxRun::Language::Shell ? QStringLiteral("shell")
                                                   : QStringLiteral("python");
}

Result<SandboxRun> Tool::sandboxRun(const nlohmann::json &) const
{
    return Result<SandboxRun>::failure(
        QStringLiteral("%1 does not run in the sandbox").arg(name()));
}

void Tool::invoke(const nlohmann::json &, const ToolContext &, const Done &done) const
{
    done(Tools::errorJson(QStringLiteral("%1 runs in the sandbox").arg(name())));
}

} // namespace Sandcastle
