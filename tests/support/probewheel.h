#pragma once

#include <sandbox/containerengine.h>
#include <sandbox/sandboxconfig.h>

#include <QFileInfo>
#include <QString>
#include <QtTest>

namespace Sandcastle::Testing {

// Writes sandcastle_probe-1.0-py3-none-any.whl (tests/support/probewheel.py) into `folder`
// with the sandbox image's own Python: a package no index has, for a wheelhouse. Empty on
// success, else what went wrong.
inline QString makeProbeWheel(const QString &folder)
{
    const SandboxConfig config = SandboxConfig::fromEnvironment();
    const QString script = QFINDTESTDATA("support/probewheel.py");
    if (script.isEmpty())
        return QStringLiteral("support/probewheel.py not found");
    const ContainerEngine engine(config.engine);
    const ContainerEngine::Output out = engine.run({QStringLiteral("run"),
                                                    QStringLiteral("--rm"),
                                                    QStringLiteral("--network"),
                                                    QStringLiteral("none"),
                                                    QStringLiteral("--user"),
                                                    QStringLiteral("0"),
                                                    QStringLiteral("-v"),
                                                    script + QStringLiteral(":/probewheel.py:ro"),
                                                    QStringLiteral("-v"),
                                                    folder + QStringLiteral(":/out"),
                                                    QStringLiteral("--entrypoint"),
                                                    QStringLiteral("python3"),
                                                    config.image,
                                                    QStringLiteral("/probewheel.py"),
                                                    QStringLiteral("/out")},
                                                   120000);
    if (out.exitCode != 0)
        return QString::fromUtf8(out.stderrData);
    if (!QFileInfo::exists(folder + QStringLiteral("/sandcastle_probe-1.0-py3-none-any.whl")))
        return QStringLiteral("no wheel was written");
    return {};
}

} // namespace Sandcastle::Testing
