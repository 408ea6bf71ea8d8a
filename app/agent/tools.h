#pragma once

#include <sandbox/executionresult.h>
#include <sandbox/result.h>

#include <nlohmann/json.hpp>

#include <QString>

namespace Sandcastle::Tools {

// The default limit of the output a tool result carries to the model (a setting): stdout is
// cut to this many characters, stderr and the traceback to half of it each, head and tail kept.
inline constexpr int kDefaultOutputLimit = 16 * 1024;

// The `tools` array of a Chat Completions request.
nlohmann::json definitions();

// Any of the five tools' arguments, checked: a missing or mistyped field is an error the
// model gets back to recover from.
struct Call
{
    enum class Kind { Python, Shell, WriteFile, ReadFile, ListFiles };
    Kind kind = Kind::Python;
    QString code; // run_python: code; run_shell: command
    QString path;
    QString content;
    qint64 maxBytes = -1;
    int timeoutMs = -1;
};
Result<Call> parseCall(const QString &name, const QString &argumentsJson);
QStringList toolNames();

// Keeps the head and the tail of long text with a marker saying how much was left out.
QString clipMiddle(const QString &text, int maxChars);

// The tool message content the model gets back (DESIGN.md §3).
nlohmann::json resultJson(const ExecutionResult &result, int outputLimit = kDefaultOutputLimit);
nlohmann::json errorJson(const QString &message);

} // namespace Sandcastle::Tools
