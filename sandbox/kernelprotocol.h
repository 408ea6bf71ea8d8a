#pragma once

#include "executionresult.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace Sandcastle {

// One message from the in-container kernel (sandbox/image/kernel.py).
struct KernelEvent
{
    enum class Type { Ready, Output, Done, ProtocolError, Invalid };
    Type type = Type::Invalid;
    qint64 id = 0;
    OutputStream stream = OutputStream::Stdout;
    QString text;     // Output: the text; ProtocolError/Invalid: what was wrong
    QString status;   // Done: "ok" or "error"
    QString error;    // Done: the traceback
    int exitCode = 0; // Done: 0, 1 for an exception, or the code given to SystemExit
};

// The host side of the kernel's line-framed JSON protocol: encodes requests and splits the
// kernel's stdout into events, keeping a partial trailing line for the next read.
class KernelProtocol
{
public:
    static QByteArray encodeRun(qint64 id, const QString &code);
    static QByteArray encodeShell(qint64 id, const QString &command);
    static QByteArray encodeInterrupt();

    QList<KernelEvent> feed(const QByteArray &bytes);
    bool hasPartialLine() const { return !m_pending.isEmpty(); }

    static KernelEvent parseLine(const QByteArray &line);

private:
    QByteArray m_pending;
};

} // namespace Sandcastle
