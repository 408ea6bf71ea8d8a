#include "tools.h"

#include <cmath>

namespace Sandcastle::Tools {

nlohmann::json definitions()
{
    return nlohmann::json::array({
        {{"type", "function"},
         {"function",
          {{"name", "run_python"},
           {"description",
            "Run Python 3 code in a sandboxed, stateful kernel (variables persist between calls). "
            "The working directory is /workspace; files written there are shown to the user. "
            "numpy, pandas and matplotlib are installed; there is no network. Print what you "
            "want to see."},
           {"parameters",
            {{"type", "object"},
             {"properties",
              {{"code", {{"type", "string"}, {"description", "The Python code to run."}}},
               {"timeout_s",
                {{"type", "number"},
                 {"description", "Optional time limit in seconds (default 60)."}}}}},
             {"required", nlohmann::json::array({"code"})}}}}}},
    });
}

Result<PythonCall> parsePythonCall(const QString &argumentsJson)
{
    const std::string text = argumentsJson.toStdString();
    const nlohmann::json args = nlohmann::json::parse(text, nullptr, false);
    if (args.is_discarded() || !args.is_object())
        return Result<PythonCall>::failure(
            QStringLiteral("the arguments of run_python are not a JSON object: ")
            + argumentsJson.left(200));
    const auto code = args.find("code");
    if (code == args.end() || !code->is_string())
        return Result<PythonCall>::failure(
            QStringLiteral("run_python needs a string argument \"code\""));
    PythonCall call;
    call.code = QString::fromStdString(code->get<std::string>());
    const auto timeout = args.find("timeout_s");
    if (timeout != args.end() && timeout->is_number()) {
        const double seconds = timeout->get<double>();
        if (std::isfinite(seconds) && seconds > 0)
            call.timeoutMs = int(std::min(seconds, 3600.0) * 1000);
    }
    return Result<PythonCall>::ok(call);
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

nlohmann::json resultJson(const ExecutionResult &result)
{
    const QString out = clipMiddle(result.stdoutText, kMaxOutputCharsToModel);
    const QString err = clipMiddle(result.stderrText, kMaxOutputCharsToModel / 2);
    nlohmann::json files = nlohmann::json::array();
    for (const QString &file : result.files)
        files.push_back(file.toStdString());
    nlohmann::json json = {
        {"status", ExecutionResult::statusName(result.status).toStdString()},
        {"exit_code", result.exitCode},
        {"stdout", out.toStdString()},
        {"stderr", err.toStdString()},
        {"error", clipMiddle(result.error, kMaxOutputCharsToModel / 2).toStdString()},
        {"files", files},
        {"duration_ms", result.durationMs},
        {"truncated",
         result.truncated || out.size() != result.stdoutText.size()
             || err.size() != result.stderrText.size()},
    };
    if (result.stateLost)
        json["state_lost"] = true;
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
