#pragma once

#include <QString>

#include <optional>
#include <utility>

namespace Sandcastle {

// A value or an error message. Errors are values here: nothing throws across the event loop.
template<typename T>
class Result
{
public:
    static Result ok(T value) { return Result(std::move(value), {}); }
    static Result failure(QString error) { return Result(std::nullopt, std::move(error)); }

    bool isOk() const { return m_value.has_value(); }
    explicit operator bool() const { return isOk(); }
    const T &value() const { return *m_value; }
    T &value() { return *m_value; }
    const QString &error() const { return m_error; }

private:
    Result(std::optional<T> value, QString error)
        : m_value(std::move(value))
        , m_error(std::move(error))
    {}
    std::optional<T> m_value;
    QString m_error;
};

} // namespace Sandcastle
