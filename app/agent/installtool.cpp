#include "installtool.h"

#include "tools.h"

namespace Sandcastle {

namespace {

nlohmann::json listProperty(const char *description)
{
    return {{"type", "array"}, {"items", {{"type", "string"}}}, {"description", description}};
}

Result<QStringList> names(const nlohmann::json &arguments, const char *key)
{
    QStringList out;
    const auto it = arguments.find(key);
    if (it == arguments.end() || it->is_null())
        return Result<QStringList>::ok(out);
    if (!it->is_array())
        return Result<QStringList>::failure(
            QStringLiteral("install_packages: \"%1\" must be a list of package names")
                .arg(QLatin1String(key)));
    for (const nlohmann::json &name : *it) {
        if (!name.is_string() || name.get<std::string>().empty())
            return Result<QStringList>::failure(
                QStringLiteral("install_packages: \"%1\" must hold package names as strings")
                    .arg(QLatin1String(key)));
        out << QString::fromStdString(name.get<std::string>()).trimmed();
    }
    return Result<QStringList>::ok(out);
}

} // namespace

InstallPackagesTool::InstallPackagesTool(Installer installer)
    : m_installer(std::move(installer))
{
    m_spec.name = QStringLiteral("install_packages");
    m_spec.description = QStringLiteral(
        "Ask the person to install packages the sandbox lacks (pip install inside a run cannot "
        "work: runs have no network). The person approves or declines; when approved, the "
        "packages are added to the project's requirements.txt (pip) or apt.txt (Debian) and "
        "the environment is rebuilt, which restarts the Python session (variables are lost). "
        "Check the installed list in the system prompt first.");
    m_spec.parameters
        = {{"type", "object"},
           {"properties",
            {{"pip",
              listProperty("Python packages, as pip names with optional versions (\"rich\", "
                           "\"polars>=0.20\").")},
             {"apt", listProperty("Debian packages (\"graphviz\").")},
             {"reason",
              {{"type", "string"}, {"description", "Why they are needed, shown to the person."}}}}},
           {"required", nlohmann::json::array({"reason"})}};
}

Result<InstallPackagesTool::Request> InstallPackagesTool::request(const nlohmann::json &arguments)
{
    Request r;
    const Result<QStringList> pip = names(arguments, "pip");
    if (!pip)
        return Result<Request>::failure(pip.error());
    const Result<QStringList> apt = names(arguments, "apt");
    if (!apt)
        return Result<Request>::failure(apt.error());
    r.pip = pip.value();
    r.apt = apt.value();
    const auto reason = arguments.find("reason");
    if (reason == arguments.end() || !reason->is_string() || reason->get<std::string>().empty())
        return Result<Request>::failure(
            QStringLiteral("install_packages needs a \"reason\" to show the person"));
    r.reason = QString::fromStdString(reason->get<std::string>()).trimmed();
    if (r.pip.isEmpty() && r.apt.isEmpty())
        return Result<Request>::failure(
            QStringLiteral("install_packages needs at least one package in \"pip\" or \"apt\""));
    return Result<Request>::ok(r);
}

void InstallPackagesTool::invoke(const nlohmann::json &arguments,
                                 const ToolContext &context,
                                 const Done &done) const
{
    const Result<Request> r = request(arguments);
    if (!r) {
        done(Tools::errorJson(r.error()));
        return;
    }
    if (!context.readOnly.isEmpty()) {
        done(Tools::errorJson(
            QStringLiteral("the project folder is read-only, so requirements.txt and "
                           "apt.txt cannot be changed: ")
            + context.readOnly));
        return;
    }
    if (!m_installer) {
        done(Tools::errorJson(QStringLiteral("installing packages is not available here")));
        return;
    }
    m_installer(r.value(), done);
}

} // namespace Sandcastle
