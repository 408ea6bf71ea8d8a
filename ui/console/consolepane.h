#pragma once

#include "ansiparser.h"

#include <sandbox/executionresult.h>

#include <QPlainTextEdit>

namespace Sandcastle {

// The console: what the sandboxed code prints, stdout in the normal colour and stderr in
// red, terminal colours and carriage-return progress lines honoured (AnsiParser), with a
// header per run and a footer with its outcome. Bounded: old lines scroll away.
class ConsolePane : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit ConsolePane(QWidget *parent = nullptr);

    void beginRun(const QString &title);
    void appendOutput(Sandcastle::OutputStream stream, const QString &text);
    void endRun(const Sandcastle::ExecutionResult &result);

private:
    void insert(const QString &text, const QTextCharFormat &format, bool returnToLineStart = false);
    bool m_atLineStart = true;
    AnsiParser m_stdoutParser;
    AnsiParser m_stderrParser;
};

} // namespace Sandcastle
