#pragma once

#include <QByteArray>
#include <QFile>
#include <QList>

namespace Sandcastle::Testing {

// This process's resident set size in KiB (VmRSS), 0 when /proc cannot tell.
inline qint64 residentKiB()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> lines = status.readAll().split('\n');
    for (const QByteArray &line : lines) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong();
    }
    return 0;
}

} // namespace Sandcastle::Testing
