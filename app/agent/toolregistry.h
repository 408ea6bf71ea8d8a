#pragma once

#include "tool.h"

#include <QList>
#include <QStringList>

#include <functional>
#include <memory>

namespace Sandcastle {

// The tools the agent offers the model, by name: the built-ins (run_python, run_shell,
// write_file, read_file, list_files), registered once, and whatever is added later (MCP
// tools), never under a name that is taken. The agent dispatches every call through it.
class ToolRegistry
{
public:
    ToolRegistry() = default;
    // A registry holding the built-in tools, in the order the model is told of them.
    static ToolRegistry withBuiltIns();

    // Refused (with the reason) for a name already taken or one a model cannot call
    // (1 to 64 of a-z, A-Z, 0-9, '_' and '-').
    Result<bool> add(std::shared_ptr<const Tool> tool);

    // Takes out the tools `which` picks (MCP tools before their servers' new lists go in).
    // Those taken out stay alive with the registry: a call of one may still be waiting.
    void removeIf(const std::function<bool(const Tool &tool)> &which);

    const Tool *find(const QString &name) const;
    // The tool, or the error result's message naming the tools there are.
    Result<const Tool *> lookup(const QString &name) const;
    QStringList names() const;
    QList<ToolSpec> specs() const;
    qsizetype size() const { return m_tools.size(); }

private:
    QList<std::shared_ptr<const Tool>> m_tools;
    QList<std::shared_ptr<const Tool>> m_retired;
};

} // namespace Sandcastle
