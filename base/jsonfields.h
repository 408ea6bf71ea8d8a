#pragma once

#include <nlohmann/json.hpp>

#include <QString>

#include <climits>
#include <optional>

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

// obj[key] when obj is an object holding it; a null value otherwise (never throws).
inline const nlohmann::json &jsonField(const nlohmann::json &obj, const char *key)
{
    static const nlohmann::json null;
    if (!obj.is_object())
        return null;
    const auto it = obj.find(key);
    return it == obj.end() ? null : *it;
}

// obj[key] as an int when it is an integer that fits; std::nullopt otherwise.
inline std::optional<int> jsonInt(const nlohmann::json &obj, const char *key)
{
    const nlohmann::json &value = jsonField(obj, key);
    if (!value.is_number_integer())
        return std::nullopt;
    const auto n = value.get<long long>();
    if (n < INT_MIN || n > INT_MAX)
        return std::nullopt;
    return int(n);
}

} // namespace Sandcastle
