#pragma once

#include <nlohmann/json.hpp>

#include <QProcess>
#include <QSignalSpy>
#include <QStringList>

namespace Sandcastle::Testing {

// The `sandcastle` executable run as a person or a script would, with its data folder set.
struct CliRun
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

inline QProcessEnvironment cliEnvironment(const QString &dataDir)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SANDCASTLE_DATA_DIR"), dataDir);
    env.remove(QStringLiteral("SANDCASTLE_BASE_URL"));
    return env;
}

// Runs the binary asynchronously (the event loop turns), so that an in-process fake server
// can answer it. A run that does not end in time is killed and returns exit code -1.
inline CliRun runSandcastle(const QStringList &args,
                            const QProcessEnvironment &env,
                            const QByteArray &input = {},
                            int timeoutMs = 120000)
{
    QProcess process;
    process.setProcessEnvironment(env);
    QSignalSpy finished(&process, &QProcess::finished);
    process.start(qEnvironmentVariable("SANDCASTLE_BINARY"), args);
    if (!process.waitForStarted(10000))
        return {};
    process.write(input);
    process.closeWriteChannel();
    if (!finished.wait(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        return {};
    }
    return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
}

// One JSON object per non-empty line.
inline QList<nlohmann::json> jsonLines(const QByteArray &out)
{
    QList<nlohmann::json> events;
    const QList<QByteArray> lines = out.split('\n');
    for (const QByteArray &line : lines) {
        if (!line.isEmpty())
            events << nlohmann::json::parse(line.toStdString(), nullptr, false);
    }
    return events;
}

} // namespace Sandcastle::Testing
