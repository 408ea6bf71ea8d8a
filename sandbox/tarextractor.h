#pragma once

#include "tarstream.h"

#include <QSet>
#include <QStringList>

#include <optional>
#include <utility>

namespace Sandcastle {

// Writes what a tar stream from a remote engine holds into the workspace on this machine, as
// the only way files come back from a volume: every path through PathGuard (no absolute path,
// no "..", no component that is a link), regular files and folders only (a symlink, hard link,
// fifo or device is refused and named), and the bytes counted against the quota — past it the
// stream is refused and the file being written removed. What the remote sends can never
// write outside the workspace or fill the disk.
class TarExtractor
{
public:
    TarExtractor(QString root,
                 qint64 quotaBytes,
                 std::optional<std::pair<unsigned, unsigned>> owner = std::nullopt);
    ~TarExtractor();
    TarExtractor(const TarExtractor &) = delete;
    TarExtractor &operator=(const TarExtractor &) = delete;

    // Only these workspace-relative files (and folders on their way) are written; anything
    // else the stream holds is refused as not asked for. Unset: every regular file may come.
    void onlyThese(const QStringList &paths);

    Result<bool> feed(const QByteArray &bytes);
    Result<bool> finish();

    // Workspace-relative paths of the regular files written, in order.
    const QStringList &written() const { return m_written; }
    // "path: why" for each entry not written.
    const QStringList &refused() const { return m_refused; }
    qint64 bytesWritten() const { return m_bytes; }

private:
    bool onEntry(const Tar::Entry &entry);
    bool onData(const QByteArray &data);
    bool onEntryEnd();
    void closeCurrent(bool keep);

    QString m_root;
    qint64 m_quota;
    std::optional<std::pair<unsigned, unsigned>> m_owner;
    TarReader m_reader;
    int m_fd = -1;
    QString m_current;
    qint64 m_mtime = -1; // the current file's, set when it is complete
    bool m_skipping = false;
    qint64 m_bytes = 0;
    QString m_error; // why the stream was stopped
    QStringList m_written;
    QStringList m_refused;
    std::optional<QSet<QString>> m_asked; // onlyThese()
    QSet<QString> m_askedFolders;
};

} // namespace Sandcastle
