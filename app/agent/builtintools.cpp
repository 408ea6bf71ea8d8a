#include "builtintools.h"

#include "filetools.h"
#include "tools.h"

#include <cmath>

namespace Sandcastle::BuiltinTools {

namespace {

nlohmann::json objectSchema(nlohmann::json properties, nlohmann::json required)
{
    return {{"type", "object"}, {"properties", properties}, {"required", required}};
}

nlohmann::json stringProperty(const char *description)
{
    return {{"type", "string"}, {"description", description}};
}

const nlohmann::json &timeoutProperty()
{
    static const nlohmann::json property
        = {{"type", "number"}, {"description", "Optional time limit in seconds (default 60)."}};
    return property;
}

// arguments[key] when it is a string.
bool text(const nlohmann::json &arguments, const char *key, QString *out)
{
    const auto it = arguments.find(key);
    if (it == arguments.end() || !it->is_string())
        return false;
    *out = QString::fromStdString(it->get<std::string>());
    return true;
}

template<typename T>
Result<T> missing(const char *tool, const char *key)
{
    return Result<T>::failure(QStringLiteral("%1 needs a string argument \"%2\"")
                                  .arg(QLatin1String(tool), QLatin1String(key)));
}

// Runs code in the sandbox: run_python (argument "code") and run_shell ("command").
class RunCodeTool : public Tool
{
public:
    explicit RunCodeTool(SandboxRun::Language language)
        : m_language(language)
        , m_spec(specFor(language))
    {}

    const ToolSpec &spec() const override { return m_spec; }
    Place place() const override { return Place::Sandbox; }
    bool needsApproval() const override { return true; }

    Result<SandboxRun> sandboxRun(const nlohmann::json &arguments) const override
    {
        const bool python = m_language == SandboxRun::Language::Python;
        SandboxRun run;
        run.language = m_language;
        if (!text(arguments, python ? "code" : "command", &run.code))
            return missing<SandboxRun>(python ? "run_python" : "run_shell",
                                       python ? "code" : "command");
        const auto timeout = arguments.find("timeout_s");
        if (timeout != arguments.end() && timeout->is_number()) {
            const double seconds = timeout->get<double>();
            if (std::isfinite(seconds) && seconds > 0)
                run.timeoutMs = int(std::min(seconds, 3600.0) * 1000);
        }
        return Result<SandboxRun>::ok(run);
    }

private:
    static ToolSpec specFor(SandboxRun::Language language)
    {
        if (language == SandboxRun::Language::Python) {
            return {QStringLiteral("run_python"),
                    QStringLiteral(
                        "Run Python 3 code in a sandboxed, stateful kernel (variables persist "
                        "between calls). The working directory is /workspace; files written "
                        "there are shown to the user. numpy, pandas and matplotlib are "
                        "installed; figures are saved to outputs/. There is no network. Print "
                        "what you want to see."),
                    objectSchema({{"code", stringProperty("The Python code to run.")},
                                  {"timeout_s", timeoutProperty()}},
                                 {"code"})};
        }
        return {
            QStringLiteral("run_shell"),
            QStringLiteral("Run a bash command in the same sandbox, in /workspace (no network)."),
            objectSchema({{"command", stringProperty("The command, run with bash -lc.")},
                          {"timeout_s", timeoutProperty()}},
                         {"command"})};
    }

    SandboxRun::Language m_language;
    ToolSpec m_spec;
};

// A host tool on the workspace: checks its arguments, then calls FileTools.
class FileTool : public Tool
{
public:
    using Check = Result<FileArguments> (*)(const nlohmann::json &);
    using Act = nlohmann::json (*)(const QString &workspace, const FileArguments &arguments);

    FileTool(ToolSpec spec, Check check, Act act)
        : m_spec(std::move(spec))
        , m_check(check)
        , m_act(act)
    {}

    const ToolSpec &spec() const override { return m_spec; }
    Place place() const override { return Place::Host; }
    bool needsApproval() const override { return false; }

    void invoke(const nlohmann::json &arguments,
                const ToolContext &context,
                const Done &done) const override
    {
        const Result<FileArguments> checked = m_check(arguments);
        done(checked ? m_act(context.workspace, checked.value())
                     : Tools::errorJson(checked.error()));
    }

private:
    ToolSpec m_spec;
    Check m_check;
    Act m_act;
};

} // namespace

Result<FileArguments> writeFileArguments(const nlohmann::json &arguments)
{
    FileArguments out;
    if (!text(arguments, "path", &out.path))
        return missing<FileArguments>("write_file", "path");
    if (!text(arguments, "content", &out.content))
        return missing<FileArguments>("write_file", "content");
    return Result<FileArguments>::ok(out);
}

Result<FileArguments> readFileArguments(const nlohmann::json &arguments)
{
    FileArguments out;
    if (!text(arguments, "path", &out.path))
        return missing<FileArguments>("read_file", "path");
    const auto max = arguments.find("max_bytes");
    if (max != arguments.end() && max->is_number_integer())
        out.maxBytes = max->get<qint64>();
    return Result<FileArguments>::ok(out);
}

Result<FileArguments> listFilesArguments(const nlohmann::json &arguments)
{
    FileArguments out;
    text(arguments, "path", &out.path); // optional: the whole workspace
    return Result<FileArguments>::ok(out);
}

QList<std::shared_ptr<const Tool>> all()
{
    const nlohmann::json path = stringProperty("Path relative to the workspace.");
    const ToolSpec write{
        QStringLiteral("write_file"),
        QStringLiteral("Write a text file in the workspace (folders are created)."),
        objectSchema({{"path", path}, {"content", stringProperty("The whole new content.")}},
                     {"path", "content"})};
    const ToolSpec read{
        QStringLiteral("read_file"),
        QStringLiteral("Read a text file from the workspace."),
        objectSchema(
            {{"path", path},
             {"max_bytes",
              {{"type", "integer"}, {"description", "Read at most this much (default 65536)."}}}},
            {"path"})};
    const ToolSpec list{
        QStringLiteral("list_files"),
        QStringLiteral("List the files in the workspace, or in one folder of it."),
        objectSchema({{"path", stringProperty("Folder relative to the workspace (default: all).")}},
                     nlohmann::json::array())};
    return {
        std::make_shared<RunCodeTool>(SandboxRun::Language::Python),
        std::make_shared<RunCodeTool>(SandboxRun::Language::Shell),
        std::make_shared<FileTool>(write,
                                   &writeFileArguments,
                                   [](const QString &workspace, const FileArguments &a) {
                                       return FileTools::writeFile(workspace, a.path, a.content);
                                   }),
        std::make_shared<FileTool>(read,
                                   &readFileArguments,
                                   [](const QString &workspace, const FileArguments &a) {
                                       return FileTools::readFile(workspace, a.path, a.maxBytes);
                                   }),
        std::make_shared<FileTool>(list,
                                   &listFilesArguments,
                                   [](const QString &workspace, const FileArguments &a) {
                                       return FileTools::listFiles(workspace, a.path);
                                   }),
    };
}

} // namespace Sandcastle::BuiltinTools
