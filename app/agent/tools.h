#pragma once

#include <base/result.h>
#include <sandbox/executionresult.h>

#include <nlohmann/json.hpp>

#include <QString>

namespace Sandcastle::Tools {

// The tool result JSON every tool answers with (the tools themselves: ToolRegistry).

// The default limit of the output a tool result carries to the model (a setting): stdout is
// cut to this many characters, stderr and the traceback to half of it each, head and tail kept.
inline constexpr int kDefaultOutputLimit = 16 * 1024;

// Keeps the head and the tail of long text with a marker saying how much was left out.
QString clipMiddle(const QString &text, int maxChars);

// The tool message content the model gets back (architecture.md §5).
nlohmann::json resultJson(const ExecutionResult &result, int outputLimit = kDefaultOutputLimit);
nlohmann::json errorJson(const QString &message);
// A host tool's success, before it adds what it found.
nlohmann::json okJson(qint64 durationMs);

} // namespace Sandcastle::Tools
