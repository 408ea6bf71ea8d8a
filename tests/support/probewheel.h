#pragma once

#include <sandbox/containerengine.h>
#include <sandbox/sandboxconfig.h>

#include <QFileInfo>
#include <QString>
#include <QtTest>

namespace Sandcastle::Testing {

// Runs `python3 ARGS...` as root in a throwaway, networkless container of the sandbox image,
// with `mounts` ("host:container" bind mounts): files a test needs, made by the image's Python.
inline ContainerEngine::Output pythonInImage(const QStringList &mounts, const QStringList &args)
{
    const SandboxConfig config = SandboxConfig::fromEnvironment();
    QStringList command{QStringLiteral("run"),
                        QStringLiteral("--rm"),
                        QStringLiteral("--network"),
                        QStringLiteral("none"),
                        QStringLiteral("--user"),
                        QStringLiteral("0")};
    for (const QString &mount : mounts)
        command << QStringLiteral("-v") << mount;
    command << QStringLiteral("--entrypoint") << QStringLiteral("python3") << config.image;
    return ContainerEngine(config.engine).run(command + args, 120000);
}

// Writes sandcastle_probe-1.0-py3-none-any.whl (tests/support/probewheel.py) into `folder`
// with the sandbox image's own Python: a package no index has, for a wheelhouse. Empty on
// success, else what went wrong.
inline QString makeProbeWheel(const QString &folder)
{
    const QString script = QFINDTESTDATA("support/probewheel.py");
    if (script.isEmpty())
        return QStringLiteral("support/probewheel.py not found");
    const ContainerEngine::Output out = pythonInImage(
        {script + QStringLiteral(":/probewheel.py:ro"), folder + QStringLiteral(":/out")},
        {QStringLiteral("/probewheel.py"), QStringLiteral("/out")});
    if (out.exitCode != 0)
        return QString::fromUtf8(out.stderrData);
    if (!QFileInfo::exists(folder + QStringLiteral("/sandcastle_probe-1.0-py3-none-any.whl")))
        return QStringLiteral("no wheel was written");
    return {};
}

// Removes the project environments a test built: only sandcastle-env images, whatever the list
// holds (a base image must never go with them).
inline void removeEnvironmentImages(const QStringList &tags)
{
    QStringList images;
    for (const QString &tag : tags) {
        if (tag.startsWith(QLatin1String("sandcastle-env:")))
            images << tag;
    }
    if (!images.isEmpty())
        ContainerEngine(SandboxConfig::fromEnvironment().engine)
            .run(QStringList{QStringLiteral("image"), QStringLiteral("rm")} + images, 60000);
}

} // namespace Sandcastle::Testing
