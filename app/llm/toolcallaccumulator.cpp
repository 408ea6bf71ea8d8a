#include "toolcallaccumulator.h"

#include <base/jsonfields.h>

#include <nlohmann/json.hpp>

namespace Sandcastle {

QList<ToolCallDelta> ToolCallAccumulator::deltasFromJson(const nlohmann::json &toolCalls)
{
    QList<ToolCallDelta> deltas;
    if (!toolCalls.is_array())
        return deltas;
    for (const nlohmann::json &item : toolCalls) {
        if (!item.is_object())
            continue;
        ToolCallDelta delta;
        const auto index = item.find("index");
        if (index != item.end() && index->is_number_integer())
            delta.index = index->get<qint64>();
        delta.id = jsonString(item, "id");
        const auto fn = item.find("function");
        if (fn != item.end() && fn->is_object()) {
            delta.name = jsonString(*fn, "name");
            const auto args = fn->find("arguments");
            if (args != fn->end()) {
                delta.hasArguments = true;
                // A few servers send the arguments as an object rather than as text.
                delta.arguments = args->is_string()
                                      ? QString::fromStdString(args->get<std::string>())
                                  : args->is_null() ? QString()
                                                    : QString::fromStdString(args->dump());
            }
        }
        deltas.append(delta);
    }
    return deltas;
}

QList<ToolCallAccumulator::Update> ToolCallAccumulator::add(const nlohmann::json &toolCalls)
{
    return add(deltasFromJson(toolCalls));
}

QList<ToolCallAccumulator::Update> ToolCallAccumulator::add(const QList<ToolCallDelta> &deltas)
{
    QList<Update> updates;
    for (const ToolCallDelta &delta : deltas) {
        qint64 index;
        if (delta.index) {
            index = *delta.index;
        } else if (!delta.id.isEmpty()
                   && (m_lastIndex < 0 || m_calls.value(m_lastIndex).id != delta.id)) {
            index = m_lastIndex + 1; // no index, new id: a new call
        } else {
            index = qMax(m_lastIndex, 0);
        }
        if (index < 0 || index > 1024)
            continue;
        m_lastIndex = qMax(m_lastIndex, int(index));
        const bool isNew = !m_calls.contains(int(index));
        ToolCall &call = m_calls[int(index)];
        if (!delta.id.isEmpty())
            call.id = delta.id;
        if (!delta.name.isEmpty())
            call.name = delta.name;
        if (delta.hasArguments)
            call.arguments += delta.arguments;
        updates.append({int(index), isNew, delta.arguments});
    }
    return updates;
}

QList<ToolCall> ToolCallAccumulator::calls() const
{
    QList<ToolCall> result;
    for (auto it = m_calls.cbegin(); it != m_calls.cend(); ++it) {
        ToolCall call = it.value();
        if (call.id.isEmpty())
            call.id = QStringLiteral("call_%1").arg(it.key());
        result.append(call);
    }
    return result;
}

} // namespace Sandcastle
