#include "tarstream.h"

#include <cstring>
#include <limits>

namespace Sandcastle {

namespace {

// A header field's text up to its first NUL.
QByteArray fieldText(const QByteArray &block, int offset, int length)
{
    const QByteArray raw = block.mid(offset, length);
    const qsizetype nul = raw.indexOf('\0');
    return nul < 0 ? raw : raw.left(nul);
}

// An octal number field, or base-256 (GNU) when the first byte's high bit is set; -1 if
// neither.
qint64 numberField(const QByteArray &block, int offset, int length)
{
    const auto first = static_cast<unsigned char>(block.at(offset));
    if (first & 0x80) {
        if (first & 0x40)
            return -1; // negative
        qint64 value = first & 0x3f;
        for (int i = 1; i < length; ++i) {
            if (value > (std::numeric_limits<qint64>::max() >> 8))
                return -1;
            value = (value << 8) | static_cast<unsigned char>(block.at(offset + i));
        }
        return value;
    }
    qint64 value = 0;
    bool digits = false;
    for (int i = 0; i < length; ++i) {
        const char c = block.at(offset + i);
        if (c == '\0' || (c == ' ' && digits))
            break;
        if (c == ' ')
            continue;
        if (c < '0' || c > '7' || value > (std::numeric_limits<qint64>::max() >> 3))
            return -1;
        value = value * 8 + (c - '0');
        digits = true;
    }
    return value;
}

bool checksumMatches(const QByteArray &block)
{
    const qint64 stored = numberField(block, 148, 8);
    qint64 unsignedSum = 0;
    qint64 signedSum = 0;
    for (int i = 0; i < Tar::BlockSize; ++i) {
        const char c = (i >= 148 && i < 156) ? ' ' : block.at(i);
        unsignedSum += static_cast<unsigned char>(c);
        signedSum += static_cast<signed char>(c);
    }
    return stored >= 0 && (stored == unsignedSum || stored == signedSum);
}

void putOctal(QByteArray &block, int offset, int length, qint64 value)
{
    const QByteArray digits = QByteArray::number(value, 8).rightJustified(length - 1, '0');
    std::memcpy(block.data() + offset, digits.constData(), size_t(length - 1));
    block[offset + length - 1] = '\0';
}

void putText(QByteArray &block, int offset, int length, const QByteArray &text)
{
    std::memcpy(
        block.data() + offset, text.constData(), size_t(qMin<qsizetype>(length, text.size())));
}

QByteArray ustarBlock(const QByteArray &name,
                      char type,
                      qint64 size,
                      int mode,
                      qint64 mtime,
                      const QByteArray &link = QByteArray())
{
    QByteArray block(Tar::BlockSize, '\0');
    putText(block, 0, 100, name);
    putText(block, 157, 100, link);
    putOctal(block, 100, 8, mode & 07777);
    putOctal(block, 108, 8, 0);
    putOctal(block, 116, 8, 0);
    putOctal(block, 124, 12, size);
    putOctal(block, 136, 12, qMax<qint64>(0, mtime));
    block[156] = type;
    putText(block, 257, 6, QByteArrayLiteral("ustar"));
    putText(block, 263, 2, QByteArrayLiteral("00"));
    std::memset(block.data() + 148, ' ', 8);
    qint64 sum = 0;
    for (const char c : block)
        sum += static_cast<unsigned char>(c);
    putOctal(block, 148, 7, sum);
    block[155] = ' ';
    return block;
}

// One pax record: "<length> key=value\n", the length counting itself.
QByteArray paxRecord(const QByteArray &key, const QByteArray &value)
{
    const QByteArray body = ' ' + key + '=' + value + '\n';
    qsizetype length = body.size() + 1;
    while (QByteArray::number(length).size() + body.size() != length)
        ++length;
    return QByteArray::number(length) + body;
}

} // namespace

namespace Tar {

QByteArray padding(qint64 size)
{
    const qint64 rest = size % BlockSize;
    return rest == 0 ? QByteArray() : QByteArray(BlockSize - rest, '\0');
}

QByteArray end()
{
    return QByteArray(2 * BlockSize, '\0');
}

QByteArray header(const QString &path, EntryType type, qint64 size, int mode, qint64 mtime)
{
    QByteArray name = path.toUtf8();
    if (type == EntryType::Directory && !name.endsWith('/'))
        name += '/';
    const char flag = type == EntryType::Directory ? '5' : '0';
    const qint64 dataSize = type == EntryType::Directory ? 0 : size;
    constexpr qint64 MaxOctalSize = (qint64(1) << 33) - 1;
    QByteArray out;
    if (name.size() > 100 || dataSize > MaxOctalSize) {
        QByteArray records;
        if (name.size() > 100)
            records += paxRecord("path", name);
        if (dataSize > MaxOctalSize)
            records += paxRecord("size", QByteArray::number(dataSize));
        out += ustarBlock(QByteArrayLiteral("././@PaxHeader"), 'x', records.size(), 0644, mtime);
        out += records + padding(records.size());
        name = name.left(100);
    }
    out += ustarBlock(name, flag, qMin(dataSize, MaxOctalSize), mode, mtime);
    return out;
}

QByteArray header(const Entry &entry)
{
    return ustarBlock(entry.path.toUtf8(),
                      entry.typeFlag,
                      entry.size,
                      entry.mode,
                      entry.mtime,
                      entry.linkTarget.toUtf8());
}

} // namespace Tar

Result<bool> TarReader::fail(const QString &reason)
{
    m_state = State::Failed;
    return Result<bool>::failure(reason);
}

Result<bool> TarReader::finish() const
{
    if (m_state == State::Failed)
        return Result<bool>::failure(QStringLiteral("the archive was malformed"));
    if (m_state != State::Done && !(m_state == State::Header && m_zeroBlocks > 0))
        return Result<bool>::failure(QStringLiteral("the archive was cut short"));
    return Result<bool>::ok(true);
}

Result<bool> TarReader::feed(const QByteArray &bytes)
{
    if (m_state == State::Failed)
        return Result<bool>::failure(QStringLiteral("the archive was malformed"));
    qsizetype at = 0;
    while (at < bytes.size() && m_state != State::Done && m_state != State::Failed) {
        if (m_state == State::Data) {
            const qint64 take = qMin<qint64>(m_remaining, bytes.size() - at);
            m_remaining -= take;
            if (onData && take > 0 && !onData(bytes.mid(at, take))) {
                m_state = State::Done;
                return Result<bool>::ok(true);
            }
            at += take;
            if (m_remaining == 0) {
                m_state = m_padding > 0 ? State::Padding : State::Header;
                if (onEntryEnd && !onEntryEnd()) {
                    m_state = State::Done;
                    return Result<bool>::ok(true);
                }
            }
            continue;
        }
        if (m_state == State::Padding || m_state == State::Meta) {
            const qint64 want = m_state == State::Padding ? m_padding : m_remaining;
            const qint64 take = qMin<qint64>(want, bytes.size() - at);
            if (m_state == State::Meta) {
                m_meta += bytes.mid(at, take);
                m_remaining -= take;
                if (m_remaining == 0) {
                    applyMeta();
                    m_state = m_padding > 0 ? State::Padding : State::Header;
                }
            } else {
                m_padding -= take;
                if (m_padding == 0)
                    m_state = State::Header;
            }
            at += take;
            continue;
        }
        const qsizetype need = Tar::BlockSize - m_buffer.size();
        m_buffer += bytes.mid(at, need);
        at += qMin(need, bytes.size() - at);
        if (m_buffer.size() < Tar::BlockSize)
            break;
        const QByteArray block = std::exchange(m_buffer, QByteArray());
        Result<bool> taken = takeHeader(block);
        if (!taken)
            return taken;
    }
    return Result<bool>::ok(true);
}

Result<bool> TarReader::takeHeader(const QByteArray &block)
{
    if (block.count('\0') == Tar::BlockSize) {
        if (++m_zeroBlocks == 2)
            m_state = State::Done;
        return Result<bool>::ok(true);
    }
    if (m_zeroBlocks > 0)
        return fail(QStringLiteral("a header after an end-of-archive block"));
    if (!checksumMatches(block))
        return fail(QStringLiteral("a header whose checksum does not match"));
    const qint64 size = numberField(block, 124, 12);
    if (size < 0)
        return fail(QStringLiteral("a header whose size is not a number"));
    Tar::Entry entry;
    entry.typeFlag = block.at(156);
    entry.size = size;
    entry.mode = int(qMax<qint64>(0, numberField(block, 100, 8)) & 07777);
    entry.mtime = numberField(block, 136, 12);
    QByteArray name = fieldText(block, 0, 100);
    const QByteArray magic = block.mid(257, 5);
    if (magic == "ustar" && block.at(262) == '\0') { // POSIX ustar: a prefix may lead the name
        const QByteArray prefix = fieldText(block, 345, 155);
        if (!prefix.isEmpty())
            name = prefix + '/' + name;
    }
    entry.path = QString::fromUtf8(name);
    entry.linkTarget = QString::fromUtf8(fieldText(block, 157, 100));
    return startEntry(entry);
}

Result<bool> TarReader::startEntry(Tar::Entry entry)
{
    const char flag = entry.typeFlag;
    if (flag == 'L' || flag == 'K' || flag == 'x' || flag == 'g') {
        if (entry.size > MaxMetaBytes)
            return fail(QStringLiteral("a long name or pax header of more than 1 MB"));
        m_metaType = flag;
        m_meta.clear();
        m_remaining = entry.size;
        m_padding = Tar::padding(entry.size).size();
        m_state = entry.size > 0 ? State::Meta : State::Header;
        if (entry.size == 0)
            applyMeta();
        return Result<bool>::ok(true);
    }
    if (!m_longName.isEmpty())
        entry.path = std::exchange(m_longName, QString());
    if (!m_longLink.isEmpty())
        entry.linkTarget = std::exchange(m_longLink, QString());
    if (m_paxSize >= 0)
        entry.size = std::exchange(m_paxSize, -1);
    switch (flag) {
    case '0':
    case '\0':
    case '7':
        entry.type = Tar::EntryType::File;
        break;
    case '5':
        entry.type = Tar::EntryType::Directory;
        break;
    case '2':
        entry.type = Tar::EntryType::Symlink;
        break;
    case '1':
        entry.type = Tar::EntryType::HardLink;
        break;
    default:
        entry.type = Tar::EntryType::Other;
    }
    // Only files carry data (GNU's sparse and others may too: skipped with their data).
    const bool hasData = entry.type == Tar::EntryType::File || entry.type == Tar::EntryType::Other;
    if (!hasData)
        entry.size = 0;
    m_remaining = entry.size;
    m_padding = Tar::padding(entry.size).size();
    if (onEntry && !onEntry(entry)) {
        m_state = State::Done;
        return Result<bool>::ok(true);
    }
    if (entry.size > 0) {
        m_state = State::Data;
        return Result<bool>::ok(true);
    }
    if (onEntryEnd && !onEntryEnd())
        m_state = State::Done;
    return Result<bool>::ok(true);
}

void TarReader::applyMeta()
{
    QByteArray text = m_meta;
    if (m_metaType == 'L' || m_metaType == 'K') {
        const qsizetype nul = text.indexOf('\0');
        if (nul >= 0)
            text.truncate(nul);
        (m_metaType == 'L' ? m_longName : m_longLink) = QString::fromUtf8(text);
        return;
    }
    if (m_metaType != 'x')
        return; // global pax headers say nothing this reader needs
    qsizetype at = 0;
    while (at < text.size()) {
        const qsizetype space = text.indexOf(' ', at);
        if (space < 0)
            break;
        bool ok = false;
        const qsizetype length = text.mid(at, space - at).toLongLong(&ok);
        if (!ok || length <= space - at || at + length > text.size())
            break;
        const QByteArray record = text.mid(space + 1, length - (space - at) - 2);
        const qsizetype equals = record.indexOf('=');
        if (equals > 0) {
            const QByteArray key = record.left(equals);
            const QByteArray value = record.mid(equals + 1);
            if (key == "path")
                m_longName = QString::fromUtf8(value);
            else if (key == "linkpath")
                m_longLink = QString::fromUtf8(value);
            else if (key == "size")
                m_paxSize = value.toLongLong(&ok) >= 0 && ok ? value.toLongLong() : -1;
        }
        at += length;
    }
}

} // namespace Sandcastle
