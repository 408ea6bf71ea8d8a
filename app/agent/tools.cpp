#include "tools.h"

#include <cmath>

namespace Sandcastle::Tools {

namespace {
nlohmann::json function(const char *name,
                        const char *description,
                        nlohmann::json properties,
                        nlohmann::json required)
{
    return {{"type", "function"},
            {"function",
             {{"name", name},
              {"description", description},
              {"parameters",
               {{"type", "object"}, {"properties", properties}, {"required", required}}}}}};
}

const nlohmann::json timeoutProperty
    = {{"type", "number"}, {"description", "Optional time limit in seconds (default 60)."}};
} // namespace

QStringList toolNames()
{
    return {QStringLiteral("run_python"),
            QStringLiteral("run_shell"),
            QStringLiteral("write_file"),
            QStringLiteral("read_file"),
            QStringLiteral("list_files")};
}

nlohmann::json definitions()
{
    // The same for every request of every run: built once.
    static const nlohmann::json tools = nlohmann::json::array({
        function(
            "run_python",
            "Run Python 3 code in a sandboxed, stateful kernel (variables persist between calls). "
            "The working directory is /workspace; files written there are shown to the user. "
            "numpy, pandas and matplotlib are installed; figures are saved to outputs/. There is "
            "no network. Print what you want to see.",
            {{"code", {{"type", "string"}, {"description", "The Python code to run."}}},
             {"timeout_s", timeoutProperty}},
            {"code"}),
        function(
            "run_shell",
            "Run a bash command in the same sandbox, in /workspace (no network).",
            {{"command", {{"type", "string"}, {"description", "The command, run with bash -lc."}}},
             {"timeout_s", timeoutProperty}},
            {"command"}),
        function(
            "write_file",
            "Write a text file in the workspace (folders are created).",
            {{"path", {{"type", "string"}, {"description", "Path relative to the workspace."}}},
             {"content", {{"type", "string"}, {"description", "The whole new content."}}}},
            {"path", "content"}),
        function(
            "read_file",
            "Read a text file from the workspace.",
            {{"path", {{"type", "string"}, {"description", "Path relative to the workspace."}}},
             {"max_bytes",
              {{"type", "integer"}, {"description", "Read at most this much (default 65536)."}}}},
            {"path"}),
        function("list_files",
                 "List the files in the workspace, or in one folder of it.",
                 {{"path",
                   {{"type", "string"},
                    {"description", "Folder relative to the workspace (default: all)."}}}},
                 nlohmann::json::array()),
    });
    return tools;
}

Result<Call> parseCall(const QString &name, const QString &argumentsJson)
{
    const nlohmann::json args = nlohmann::json::parse(argumentsJson.toStdString(), nullptr, false);
    if (args.is_discarded() || !args.is_object()) {
        return Result<Call>::failure(QStringLiteral("the arguments of %1 are not a JSON object: %2")
                                         .arg(name, argumentsJson.left(200)));
    }
    const auto text = [&args](const char *key, QString *out) {
        const auto it = args.find(key);
        if (it == args.end() || !it->is_string())
            return false;
        *out = QString::fromStdString(it->get<std::string>());
        return true;
    };
    const auto missing = [&name](const char *key) {
        return Result<Call>::failure(
            QStringLiteral("%1 needs a string argument \"%2\"").arg(name, QLatin1String(key)));
    };
    Call call;
    const auto timeout = args.find("timeout_s");
    if (timeout != args.end() && timeout->is_number()) {
        const double seconds = timeout->get<double>();
        if (std::isfinite(seconds) && seconds > 0)
            call.timeoutMs = int(std::min(seconds, 3600.0) * 1000);
    }
    if (name == QLatin1String("run_python")) {
        call.kind = Call::Kind::Python;
        if (!text("code", &call.code))
            return missing("code");
    } else if (name == QLatin1String("run_shell")) {
        call.kind = Call::Kind::Shell;
        if (!text("command", &call.code))
            return missing("command");
    } else if (name == QLatin1String("write_file")) {
        call.kind = Call::Kind::WriteFile;
        if (!text("path", &call.path))
            return missing("path");
        if (!text("content", &call.content))
            return missing("content");
    } else if (name == QLatin1String("read_file")) {
        call.kind = Call::Kind::ReadFile;
        if (!text("path", &call.path))
            return missing("path");
        const auto max = args.find("max_bytes");
        if (max != args.end() && max->is_number_integer())
            call.maxBytes = max->get<qint64>();
    } else if (name == QLatin1String("list_files")) {
        call.kind = Call::Kind::ListFiles;
        text("path", &call.path);
    } else {
        return Result<Call>::failure(QStringLiteral("unknown tool '%1'; the tools are: %2")
                                         .arg(name, toolNames().join(QStringLiteral(", "))));
    }
    return Result<Call>::ok(call);
}

QString clipMiddle(const QString &text, int maxChars)
{
    if (text.size() <= maxChars)
        return text;
    const int keep = maxChars / 2;
    const qsizetype omitted = text.size() - 2 * keep;
    return text.left(keep) + QStringLiteral("\n[... %1 characters left out ...]\n").arg(omitted)
           + text.right(keep);
}

nlohmann::json resultJson(const ExecutionResult &result, int outputLimit)
{
    const int limit = qMax(256, outputLimit);
    const QString out = clipMiddle(result.stdoutText, limit);
    const QString err = clipMiddle(result.stderrText, limit / 2);
    nlohmann::json files = nlohmann::json::array();
    for (const QString &file : result.files)
        files.push_back(file.toStdString());
    nlohmann::json json = {
        {"status", ExecutionResult::statusName(result.status).toStdString()},
        {"exit_code", result.exitCode},
        {"stdout", out.toStdString()},
        {"stderr", err.toStdString()},
        {"error", clipMiddle(result.error, limit / 2).toStdString()},
        {"files", files},
        {"duration_ms", result.durationMs},
        {"truncated",
         result.truncated || out.size() != result.stdoutText.size()
             || err.size() != result.stderrText.size()},
    };
    if (result.stateLost)
        json["state_lost"] = true;
    if (json["truncated"].get<bool>() && !result.logFile.isEmpty())
        json["full_output"] = result.logFile.toStdString(); // read_file can page through it
    return json;
}

nlohmann::json errorJson(const QString &message)
{
    return {{"status", "error"},
            {"exit_code", -1},
            {"stdout", ""},
            {"stderr", ""},
            {"error", message.toStdString()},
            {"files", nlohmann::json::array()},
            {"duration_ms", 0},
            {"truncated", false}};
}

} // namespace Sandcastle::Tools
