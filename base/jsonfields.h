#pragma once

#include <nlohmann/json.hpp>

#include <QString>

namespace Sandcastle {

// obj[key] as a QString when obj is an object and the field is a string; empty otherwise.
inline QString jsonString(const nlohmann::json &obj, const char *key)
{
    if (!obj.is_object())
        return {};
    const auto it = obj.find(key);
    if (it == obj.end() || !it->is_string())
        return {};
    return QString::fromStdString(it->get<std::string>());
}

} // namespace Sandcastle
