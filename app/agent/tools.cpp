#include "tools.h"

namespace Sandcastle::Tools {

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
    if (!result.workspaceNote.isEmpty())
        json["workspace_note"] = result.workspaceNote.toStdString();
    if (json["truncated"].get<bool>() && !result.logFile.isEmpty())
        json["full_output"] = result.logFile.toStdString(); // read_file can page through it
    return json;
}

nlohmann::json okJson(qint64 durationMs)
{
    return {{"status", "ok"},
            {"exit_code", 0},
            {"stdout", ""},
            {"stderr", ""},
            {"error", ""},
            {"files", nlohmann::json::array()},
            {"duration_ms", durationMs},
            {"truncated", false}};
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
