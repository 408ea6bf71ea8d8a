#pragma once

#include <base/result.h>

#include <QByteArray>
#include <QString>

#include <functional>

namespace Sandcastle {

// The tar streams that carry a workspace to a remote engine's volume and its changed files
// back (`tar -x` / `tar -c` inside the container). Pure: bytes in, entries out.
namespace Tar {

constexpr qsizetype BlockSize = 512;

enum class EntryType { File, Directory, Symlink, HardLink, Other };

struct Entry
{
    QString path; // as the archive names it (checked by whoever writes it)
    EntryType type = EntryType::Other;
    char typeFlag = 0;
    qint64 size = 0; // of the data that follows (files)
    int mode = 0644;
    qint64 mtime = 0;
    QString linkTarget;
};

// One entry's header blocks (a pax header first when the name or size does not fit ustar),
// for a file of `size` bytes (its data follows, padded by padding()) or a folder.
QByteArray header(const QString &path, EntryType type, qint64 size, int mode, qint64 mtime);
// The header of any entry, links and special files too (what a hostile archive may hold).
QByteArray header(const Entry &entry);
// The zero bytes after `size` bytes of data that fill the last block.
QByteArray padding(qint64 size);
// Two zero blocks: the end of the archive.
QByteArray end();

} // namespace Tar

// Reads a tar stream as it arrives, in pieces of any size: ustar, GNU (long names in 'L'
// entries, base-256 sizes) and pax ('x' records for path, linkpath and size; 'g' ignored). It
// reports entries and their data; it never touches a file. A malformed header (a bad checksum,
// a size that is not a number) is an error and the stream is over.
class TarReader
{
public:
    // Return false to stop reading (the stream is then over, without an error).
    std::function<bool(const Tar::Entry &entry)> onEntry;
    std::function<bool(const QByteArray &data)> onData; // the current file's data, in order
    std::function<bool()> onEntryEnd;                   // after its last byte

    Result<bool> feed(const QByteArray &bytes);
    // True once the end-of-archive blocks (or a callback's stop) came.
    bool isFinished() const { return m_state == State::Done; }
    // A stream that ended without its end blocks is cut short: an error.
    Result<bool> finish() const;

    static constexpr qint64 MaxMetaBytes = 1 << 20; // a long name or pax record

private:
    enum class State { Header, Data, Padding, Meta, Done, Failed };
    Result<bool> takeHeader(const QByteArray &block);
    Result<bool> startEntry(Tar::Entry entry);
    Result<bool> fail(const QString &reason);
    void applyMeta();

    State m_state = State::Header;
    QByteArray m_buffer;
    qint64 m_remaining = 0; // data bytes of the current entry still to come
    qint64 m_padding = 0;
    int m_zeroBlocks = 0;
    char m_metaType = 0;
    QByteArray m_meta;
    QString m_longName;
    QString m_longLink;
    qint64 m_paxSize = -1;
};

} // namespace Sandcastle
