#include "toolregistry.h"

#include "builtintools.h"

#include <QRegularExpression>

namespace Sandcastle {

ToolRegistry ToolRegistry::withBuiltIns()
{
    // The built-ins are the same for every conversation: made once, shared by every registry.
    static const QList<std::shared_ptr<const Tool>> builtIns = BuiltinTools::all();
    ToolRegistry registry;
    registry.m_tools = builtIns;
    return registry;
}

Result<bool> ToolRegistry::add(std::shared_ptr<const Tool> tool)
{
    if (!tool)
        return Result<bool>::failure(QStringLiteral("no tool"));
    static const QRegularExpression callable(QStringLiteral("^[A-Za-z0-9_-]{1,64}$"));
    const QString &name = tool->name();
    if (!callable.match(name).hasMatch())
        return Result<bool>::failure(
            QStringLiteral("'%1' is not a name a model can call (1 to 64 letters, digits, '_' "
                           "or '-')")
                .arg(name));
    if (find(name))
        return Result<bool>::failure(
            QStringLiteral("a tool named '%1' is already there").arg(name));
    m_tools.append(std::move(tool));
    return Result<bool>::ok(true);
}

void ToolRegistry::removeIf(const std::function<bool(const Tool &tool)> &which)
{
    for (qsizetype i = m_tools.size() - 1; i >= 0; --i) {
        if (which(*m_tools.at(i)))
            m_retired << m_tools.takeAt(i);
    }
    // A bound on what is kept: the oldest retired go once nothing can wait on them any more.
    constexpr qsizetype MaxRetired = 1024;
    if (m_retired.size() > MaxRetired)
        m_retired.remove(0, m_retired.size() - MaxRetired);
}

const Tool *ToolRegistry::find(const QString &name) const
{
    for (const auto &tool : m_tools) {
        if (tool->name() == name)
            return tool.get();
    }
    return nullptr;
}

Result<const Tool *> ToolRegistry::lookup(const QString &name) const
{
    if (const Tool *tool = find(name))
        return Result<const Tool *>::ok(tool);
    return Result<const Tool *>::failure(QStringLiteral("unknown tool '%1'; the tools are: %2")
                                             .arg(name, names().join(QStringLiteral(", "))));
}

QStringList ToolRegistry::names() const
{
    QStringList out;
    out.reserve(m_tools.size());
    for (const auto &tool : m_tools)
        out << tool->name();
    return out;
}

QList<ToolSpec> ToolRegistry::specs() const
{
    QList<ToolSpec> out;
    out.reserve(m_tools.size());
    for (const auto &tool : m_tools)
        out << tool->spec();
    return out;
}

} // namespace Sandcastle
