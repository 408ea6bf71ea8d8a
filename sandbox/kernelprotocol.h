#pragma once

#include "executionresult.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace Sandcastle {

// One entry of a kernel's file report: what a run left at a path of /workspace.
struct ReportedFile
{
    QString path;
    char type = 'f'; // f file, d folder, l link, o anything else
    qint64 size = 0;
    qint64 mtime = 0; // seconds
};

// One message from the in-container kernel (sandbox/image/kernel.py).
struct KernelEvent
{
    enum class Type { Ready, Output, Done, Files, Quota, Preimported, ProtocolError, Invalid };
    Type type = Type::Invalid;
    qint64 id = 0;
    OutputStream stream = OutputStream::Stdout;
    QString text;     // Output: the text; ProtocolError/Invalid: what was wrong
    QString status;   // Done: "ok" or "error"
    QString error;    // Done: the traceback
    int exitCode = 0; // Done: 0, 1 for an exception, or the code given to SystemExit
    // Files: what the run changed and removed in /workspace since the kernel last looked;
    // overflow when it was too much to list (the host then lists the volume itself).
    QList<ReportedFile> changed;
    QStringList removed;
    bool overflow = false;
    // Quota: what /workspace holds, past the quota the run was sent with.
    qint64 bytes = 0;
    // Preimported: the modules the kernel imported in the background (--preimport), those it
    // could not, and how long that took.
    QStringList imported;
    QStringList failed;
    qint64 ms = 0;
};

// Copy mode: reportFiles asks for a Files event before Done; quotaBytes > 0 for a Quota event
// as soon as /workspace holds more (the host cannot watch the volume itself).
struct KernelCopyMode
{
    bool reportFiles = false;
    qint64 quotaBytes = 0;
};

// The host side of the kernel's protocol: encodes requests (JSON lines) and splits the
// kernel's stdout into events, keeping a partial message for the next read. The kernel sends
// JSON lines (ready, done, protocol errors) and output as binary frames, a header line
// "#out ID STREAM LENGTH" and then LENGTH raw bytes of what the code wrote: nothing to escape
// or parse in the bulk of the data. Output bytes are decoded as UTF-8 per stream (invalid
// bytes become U+FFFD; a character split across frames is joined), and what a run left
// undecodable is flushed before its done event.
class KernelProtocol
{
public:
    static constexpr qint64 kMaxFrameBytes = 64LL * 1024 * 1024;

    using CopyMode = KernelCopyMode;
    static QByteArray encodeRun(qint64 id, const QString &code, CopyMode copy = {});
    static QByteArray encodeShell(qint64 id, const QString &command, CopyMode copy = {});
    static QByteArray encodeInterrupt();
    // What the kernel sends for output (kernel.py does the same), for tests.
    static QByteArray encodeOutput(qint64 id, OutputStream stream, const QByteArray &bytes);

    QList<KernelEvent> feed(const QByteArray &bytes);
    bool hasPartialLine() const { return m_pending.size() > m_offset; }

    static KernelEvent parseLine(const QByteArray &line);

private:
    // Decodes a frame's bytes after what the stream's last frame left of a character.
    QString decode(OutputStream stream, const QByteArray &bytes);
    // What a run's output left undecodable, as U+FFFD, before its done event.
    void flushStreams(qint64 id, QList<KernelEvent> &events);

    QByteArray m_pending;
    qsizetype m_offset = 0; // m_pending before this is consumed
    QByteArray m_tails[2];  // stdout, stderr: the start of a character cut by a frame
};

} // namespace Sandcastle
