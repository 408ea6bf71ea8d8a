#pragma once

#include <QString>
#include <QStringList>

namespace Sandcastle {

struct StoredRun
{
    qint64 id = 0;
    QString conversationId;
    QString toolCallId; // empty for the person's runs
    QString code;
    QString language = QStringLiteral("python"); // or "shell"
    QString origin = QStringLiteral("agent");    // or "person"
    QString status = QStringLiteral("running");  // a result status, or "interrupted"
    int exitCode = 0;
    qint64 durationMs = 0;
    QString outputTail; // at most OutputTailChars of the end of its output
    static constexpr int OutputTailChars = 4000;
    QString logFile; // relative to the workspace
    QStringList files;
    qint64 startedMs = 0;
    qint64 finishedMs = 0;
};

} // namespace Sandcastle
