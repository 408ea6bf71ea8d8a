#pragma once

#include <sandbox/executionresult.h>
#include <sandbox/result.h>

#include <nlohmann/json.hpp>

#include <QString>

namespace Sandcastle::Tools {

inline constexpr int kMaxOutputCharsToModel = 12000;

// The `tools` array of a Chat Completions request.
nlohmann::json definitions();

// What the model passed to run_python: the code and an optional timeout in ms (-1 if none).
struct PythonCall
{
    QString code;
    int timeoutMs = -1;
};
Result<PythonCall> parsePythonCall(const QString &argumentsJson);

// Keeps the head and the tail of long text with a marker saying how much was left out.
QString clipMiddle(const QString &text, int maxChars);

// The tool message content the model gets back (DESIGN.md §3).
nlohmann::json resultJson(const ExecutionResult &result);
nlohmann::json errorJson(const QString &message);

} // namespace Sandcastle::Tools
