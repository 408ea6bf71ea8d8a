#pragma once

#include <QString>

namespace Sandcastle {

// The value of a top-level string field of a JSON object that may still be arriving, decoded
// as far as it has come: `{"code": "print(\"hi` with key "code" gives `print("hi`. Returns a
// null QString while the field has not started. Lets the editor show code as it streams.
QString partialJsonStringField(const QString &partialJson, const QString &key);

} // namespace Sandcastle
