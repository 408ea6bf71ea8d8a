#pragma once

#include <QByteArray>

namespace Sandcastle {

// Writes all of `bytes` to a file descriptor, going on after short writes; false on an error
// (errno says which).
bool writeAll(int fd, const QByteArray &bytes);

} // namespace Sandcastle
