#include "builtintools.h"

#include "fileledger.h"
#include "filesearch.h"
#include "filetools.h"
#include "tools.h"

#include <sandbox/pathguard.h>

#include <climits>
#include <cmath>
#include <optional>

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
bool stringArgument(const nlohmann::json &arguments, const char *key, QString *out)
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
        if (!stringArgument(arguments, python ? "code" : "command", &run.code))
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
                        "there are shown to the user. Python's data stack is installed (see "
                        "the system prompt); figures are saved to outputs/. There is no network. "
                        "Print what you want to see."),
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
    using Act = nlohmann::json (*)(const ToolContext &context, const FileArguments &arguments);

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
        done(checked ? m_act(context, checked.value()) : Tools::errorJson(checked.error()));
    }

private:
    ToolSpec m_spec;
    Check m_check;
    Act m_act;
};

// What the model read or wrote is noted: edit_file refuses a file changed since.
nlohmann::json noteIfDone(const ToolContext &context, const QString &path, nlohmann::json result)
{
    if (!context.ledger || result.value("status", std::string()) != "ok")
        return result;
    const Result<QString> relative = PathGuard::checkRelative(path);
    if (relative)
        context.ledger->note(context.workspace, relative.value());
    return result;
}

} // namespace

Result<FileArguments> writeFileArguments(const nlohmann::json &arguments)
{
    FileArguments out;
    if (!stringArgument(arguments, "path", &out.path))
        return missing<FileArguments>("write_file", "path");
    if (!stringArgument(arguments, "content", &out.content))
        return missing<FileArguments>("write_file", "content");
    return Result<FileArguments>::ok(out);
}

Result<FileArguments> readFileArguments(const nlohmann::json &arguments)
{
    FileArguments out;
    if (!stringArgument(arguments, "path", &out.path))
        return missing<FileArguments>("read_file", "path");
    const auto max = arguments.find("max_bytes");
    if (max != arguments.end() && max->is_number_integer())
        out.maxBytes = max->get<qint64>();
    for (const auto &[key, target] :
         {std::pair{"start_line", &out.startLine}, std::pair{"end_line", &out.endLine}}) {
        const auto it = arguments.find(key);
        if (it == arguments.end() || it->is_null())
            continue;
        if (!it->is_number_integer() || it->get<qint64>() < 1 || it->get<qint64>() > INT_MAX)
            return Result<FileArguments>::failure(
                QStringLiteral("read_file: %1 must be a line number from 1")
                    .arg(QLatin1String(key)));
        *target = int(it->get<qint64>());
    }
    if (out.startLine > 0 && out.endLine > 0 && out.endLine < out.startLine)
        return Result<FileArguments>::failure(
            QStringLiteral("read_file: end_line %1 comes before start_line %2")
                .arg(out.endLine)
                .arg(out.startLine));
    return Result<FileArguments>::ok(out);
}

Result<FileArguments> editFileArguments(const nlohmann::json &arguments)
{
    FileArguments out;
    if (!stringArgument(arguments, "path", &out.path))
        return missing<FileArguments>("edit_file", "path");
    if (!stringArgument(arguments, "old_text", &out.oldText))
        return missing<FileArguments>("edit_file", "old_text");
    if (!stringArgument(arguments, "new_text", &out.newText))
        return missing<FileArguments>("edit_file", "new_text");
    return Result<FileArguments>::ok(out);
}

Result<FileArguments> searchFilesArguments(const nlohmann::json &arguments)
{
    FileArguments out;
    if (!stringArgument(arguments, "pattern", &out.pattern))
        return missing<FileArguments>("search_files", "pattern");
    stringArgument(arguments, "glob", &out.glob); // optional: every file
    return Result<FileArguments>::ok(out);
}

Result<FileArguments> listFilesArguments(const nlohmann::json &arguments)
{
    FileArguments out;
    stringArgument(arguments, "path", &out.path); // optional: the whole workspace
    return Result<FileArguments>::ok(out);
}

namespace {

// The file tools' names, descriptions and argument schemas, as the model reads them.
struct FileSpecs
{
    ToolSpec write, read, list, edit, search;
};

FileSpecs fileSpecs()
{
    const nlohmann::json path = stringProperty("Path relative to the workspace.");
    const ToolSpec write{
        QStringLiteral("write_file"),
        QStringLiteral("Write a text file in the workspace (folders are created)."),
        objectSchema({{"path", path}, {"content", stringProperty("The whole new content.")}},
                     {"path", "content"})};
    const ToolSpec read{
        QStringLiteral("read_file"),
        QStringLiteral("Read a text file from the workspace. With start_line or end_line, the "
                       "lines of that range come numbered (\"12<TAB>text\") and `lines` says how "
                       "many the file has: read long files a range at a time."),
        objectSchema(
            {{"path", path},
             {"max_bytes",
              {{"type", "integer"}, {"description", "Read at most this much (default 65536)."}}},
             {"start_line",
              {{"type", "integer"}, {"description", "Optional: the first line to read, from 1."}}},
             {"end_line",
              {{"type", "integer"},
               {"description", "Optional: the last line to read (default: the end)."}}}},
            {"path"})};
    const ToolSpec list{
        QStringLiteral("list_files"),
        QStringLiteral("List the files in the workspace, or in one folder of it."),
        objectSchema({{"path", stringProperty("Folder relative to the workspace (default: all).")}},
                     nlohmann::json::array())};
    const ToolSpec edit{
        QStringLiteral("edit_file"),
        QStringLiteral("Change a text file in the workspace: replace the one exact occurrence of "
                       "old_text with new_text. old_text must match the file exactly (spaces, "
                       "line ends) and occur once: include a few lines around the change. Read "
                       "the file first; a file changed since you read it is refused."),
        objectSchema({{"path", path},
                      {"old_text", stringProperty("The exact text to replace, once in the file.")},
                      {"new_text", stringProperty("What replaces it (may be empty).")}},
                     {"path", "old_text", "new_text"})};
    const ToolSpec search{
        QStringLiteral("search_files"),
        QStringLiteral("Search the workspace's files for a regular expression, line by line "
                       "(.gitignore honoured). Answers path:line: text, at most 100 lines."),
        objectSchema({{"pattern", stringProperty("A regular expression (PCRE).")},
                      {"glob",
                       stringProperty("Optional: which files, as a .gitignore pattern "
                                      "(\"*.py\", \"src/**/*.ts\").")}},
                     {"pattern"})};
    return {write, read, list, edit, search};
}

// A tool that writes, in a workspace that is read-only: what it answers instead.
std::optional<nlohmann::json> refusedReadOnly(const ToolContext &c, const char *tool)
{
    if (c.readOnly.isEmpty())
        return std::nullopt;
    return Tools::errorJson(
        QStringLiteral("%1: the workspace is read-only (%2); nothing was written")
            .arg(QLatin1String(tool), c.readOnly));
}

// edit_file: refused when the file changed on disk since the model last read it.
nlohmann::json editChecked(const ToolContext &c, const FileArguments &a)
{
    if (const auto refused = refusedReadOnly(c, "edit_file"))
        return *refused;
    if (c.ledger) {
        const Result<QString> rel = PathGuard::checkRelative(a.path);
        const QString changed = rel ? c.ledger->changedSince(c.workspace, rel.value()) : QString();
        if (!changed.isEmpty())
            return Tools::errorJson(QStringLiteral("edit_file: ") + changed
                                    + QStringLiteral("; nothing was changed"));
    }
    return noteIfDone(c, a.path, FileTools::editFile(c.workspace, a.path, a.oldText, a.newText));
}

} // namespace

QList<std::shared_ptr<const Tool>> all()
{
    const FileSpecs specs = fileSpecs();
    return {
        std::make_shared<RunCodeTool>(SandboxRun::Language::Python),
        std::make_shared<RunCodeTool>(SandboxRun::Language::Shell),
        std::make_shared<FileTool>(
            specs.write,
            &writeFileArguments,
            [](const ToolContext &c, const FileArguments &a) {
                if (const auto refused = refusedReadOnly(c, "write_file"))
                    return *refused;
                return noteIfDone(c, a.path, FileTools::writeFile(c.workspace, a.path, a.content));
            }),
        std::make_shared<FileTool>(
            specs.read,
            &readFileArguments,
            [](const ToolContext &c, const FileArguments &a) {
                return noteIfDone(c,
                                  a.path,
                                  a.startLine > 0 || a.endLine > 0
                                      ? FileTools::readLines(
                                          c.workspace, a.path, a.startLine, a.endLine, a.maxBytes)
                                      : FileTools::readFile(c.workspace, a.path, a.maxBytes));
            }),
        std::make_shared<FileTool>(specs.list,
                                   &listFilesArguments,
                                   [](const ToolContext &c, const FileArguments &a) {
                                       return FileTools::listFiles(c.workspace, a.path);
                                   }),
        std::make_shared<FileTool>(specs.edit, &editFileArguments, &editChecked),
        std::make_shared<FileTool>(specs.search,
                                   &searchFilesArguments,
                                   [](const ToolContext &c, const FileArguments &a) {
                                       return FileSearch::searchFiles(
                                           c.workspace, a.pattern, a.glob);
                                   }),
    };
}

} // namespace Sandcastle::BuiltinTools
