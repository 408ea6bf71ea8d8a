#pragma once

#include <app/llm/message.h>

#include <QStringList>

#include <optional>

namespace Sandcastle {

// For models that cannot make structured tool calls: the ```python fenced blocks of an answer,
// in order (```py and ```python3 count too; other languages do not).
QStringList extractPythonBlocks(const QString &text);
// Code-block mode: the blocks of an answer as run_python calls, named block_<turn>_<n>.
QList<ToolCall> pythonBlockCalls(const QString &text, int turn);

// A tool call that a model printed as JSON text instead of making it, e.g.
// {"name": "run_python", "arguments": {"code": "..."}} (also "parameters", an OpenAI-style
// {"function": {...}} wrapper, and ```json fences). Only names in knownTools are accepted.
std::optional<ToolCall> toolCallFromText(const QString &text, const QStringList &knownTools);

} // namespace Sandcastle
