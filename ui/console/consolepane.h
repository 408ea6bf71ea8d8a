#pragma once

#include <sandbox/executionresult.h>

#include <QPlainTextEdit>

namespace Sandcastle {

// The console: what the sandboxed code prints, stdout in the normal colour and stderr in
// red, with a header per run and a footer with its outcome. Bounded: old lines scroll away.
class ConsolePane : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit ConsolePane(QWidget *parent = nullptr);

    void beginRun(const QString &title);
    void appendOutput(Sandcastle::OutputStream stream, const QString &text);
    void endRun(const Sandcastle::ExecutionResult &result);

private:
    void insert(const QString &text, const QTextCharFormat &format);
    bool m_atLineStart = true;
};

} // namespace Sandcastle
