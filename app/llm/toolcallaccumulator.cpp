#include "toolcallaccumulator.h"

#include "jsonfields.h"

#include <nlohmann/json.hpp>

namespace Sandcastle {

QList<ToolCallAccumulator::Update> ToolCallAccumulator::add(const nlohmann::json &toolCalls)
{
    QList<Update> updates;
    if (!toolCalls.is_array())
        return updates;
    for (const nlohmann::json &delta : toolCalls) {
        if (!delta.is_object())
            continue;
        const QString id = jsonString(delta, "id");
        int index;
        if (delta.contains("index") && delta["index"].is_number_integer()) {
            index = delta["index"].get<int>();
        } else if (!id.isEmpty() && (m_lastIndex < 0 || m_calls.value(m_lastIndex).id != id)) {
            index = m_lastIndex + 1; // no index, new id: a new call
        } else {
            index = qMax(m_lastIndex, 0);
        }
        if (index < 0 || index > 1024)
            continue;
        m_lastIndex = qMax(m_lastIndex, index);
        const bool isNew = !m_calls.contains(index);
        ToolCall &call = m_calls[index];
        if (!id.isEmpty())
            call.id = id;
        QString argumentsDelta;
        if (delta.contains("function") && delta["function"].is_object()) {
            const nlohmann::json &fn = delta["function"];
            const QString name = jsonString(fn, "name");
            if (!name.isEmpty())
                call.name = name;
            if (fn.contains("arguments")) {
                const nlohmann::json &args = fn["arguments"];
                // A few servers send the arguments as an object rather than as text.
                argumentsDelta = args.is_string() ? QString::fromStdString(args.get<std::string>())
                                 : args.is_null() ? QString()
                                                  : QString::fromStdString(args.dump());
                call.arguments += argumentsDelta;
            }
        }
        updates.append({index, isNew, argumentsDelta});
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
