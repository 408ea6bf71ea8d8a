#pragma once

#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <QtTest>

namespace Sandcastle::Testing {

// A Python that has nbformat (Debian's python3-nbformat), or empty. /usr/bin/python3 first: a
// python3 earlier on PATH (pyenv) may lack the system's packages.
inline QString pythonWithNbformat()
{
    for (const QString &candidate : {QStringLiteral("/usr/bin/python3"),
                                     QStandardPaths::findExecutable(QStringLiteral("python3"))}) {
        if (candidate.isEmpty() || !QFileInfo(candidate).isExecutable())
            continue;
        QProcess probe;
        probe.start(candidate, {QStringLiteral("-c"), QStringLiteral("import nbformat")});
        if (probe.waitForFinished(30000) && probe.exitCode() == 0)
            return candidate;
    }
    return {};
}

// nbformat's own validator on a notebook file: empty when it accepts it, otherwise why not.
inline QString nbformatProblem(const QString &path)
{
    const QString python = pythonWithNbformat();
    if (python.isEmpty())
        return QStringLiteral("no python3 with nbformat (apt-get install python3-nbformat)");
    QProcess process;
    process.start(python,
                  {QStringLiteral("-c"),
                   QStringLiteral("import nbformat, sys; "
                                  "nbformat.validate(nbformat.read(sys.argv[1], as_version=4))"),
                   path});
    if (!process.waitForFinished(60000))
        return QStringLiteral("the validator did not finish");
    return process.exitCode() == 0 ? QString() : QString::fromUtf8(process.readAllStandardError());
}

} // namespace Sandcastle::Testing

// The validator skips on a developer machine without python3-nbformat, and fails in CI.
#define SANDCASTLE_REQUIRE_NBFORMAT()                                                              \
    do {                                                                                           \
        if (Sandcastle::Testing::pythonWithNbformat().isEmpty()) {                                 \
            if (qEnvironmentVariableIsSet("CI"))                                                   \
                QFAIL("python3-nbformat is required in CI (scripts/common.sh installs it)");       \
            QSKIP("python3-nbformat is not installed");                                            \
        }                                                                                          \
    } while (false)
