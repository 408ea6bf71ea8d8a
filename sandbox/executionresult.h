#pragma once

#include <QString>
#include <QStringList>

namespace Sandcastle {

enum class OutputStream { Stdout, Stderr };

// What one run of code in the sandbox came to: how it ended, what it printed (bounded), and
// which workspace files it created or changed.
struct ExecutionResult
{
    enum class Status { Ok, Error, Timeout, OutOfMemory, Killed, EngineError };

    Status status = Status::Ok;
    int exitCode = 0;
    qint64 durationMs = 0;
    QString stdoutText;
    QString stderrText;
    QString error; // traceback, or the engine's message
    QStringList files;
    bool truncated = false;
    bool stateLost = false; // the kernel was restarted: variables are gone
    QString logFile;        // the full output, relative to the workspace (empty if none)
    QString workspaceNote;  // what the code should know about /workspace (read-only, why)

    static QString statusName(Status status);
    bool isOk() const { return status == Status::Ok; }
};

} // namespace Sandcastle

#include <QMetaType>
Q_DECLARE_METATYPE(Sandcastle::ExecutionResult)
Q_DECLARE_METATYPE(Sandcastle::OutputStream)
