#pragma once

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QtTest>

namespace Sandcastle::Testing {

// Writes `bytes` to `path`, its folders made on the way; fails the test when it cannot.
inline void writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY2(file.open(QIODevice::WriteOnly), qPrintable(path));
    QCOMPARE(file.write(bytes), bytes.size());
}

} // namespace Sandcastle::Testing
