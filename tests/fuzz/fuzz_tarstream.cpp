// libFuzzer target for the tar streams a remote engine sends back. The reader must see the
// same entries and data however the stream is cut; the extractor, writing into a fresh
// workspace beside a folder "outside" and a link planted to it, must never create anything
// outside the workspace, never make a link, a fifo or a device, and never write more bytes
// than its quota.
#include "fuzzing.h"

#include <sandbox/tarextractor.h>
#include <sandbox/tarstream.h>

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>

using namespace Sandcastle;
using namespace Sandcastle::Fuzzing;

namespace {

// What a reader saw: each entry's type, path and link, and its data, in order.
QByteArray readAll(const QList<QByteArray> &pieces, bool *ok)
{
    QByteArray seen;
    TarReader reader;
    reader.onEntry = [&seen](const Tar::Entry &entry) {
        seen += QByteArray::number(int(entry.type)) + ' ' + entry.path.toUtf8() + '>'
                + entry.linkTarget.toUtf8() + '\n';
        return true;
    };
    reader.onData = [&seen](const QByteArray &data) {
        seen += data;
        return true;
    };
    *ok = true;
    for (const QByteArray &piece : pieces) {
        if (!reader.feed(piece)) {
            *ok = false;
            break;
        }
    }
    return seen;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input = bytesOf(data, size);
    bool firstOk = false;
    QByteArray first;
    bool firstSet = false;
    for (const QList<QByteArray> &pieces : cuttings(input)) {
        bool ok = false;
        const QByteArray seen = readAll(pieces, &ok);
        if (!firstSet) {
            first = seen;
            firstOk = ok;
            firstSet = true;
            continue;
        }
        require(ok == firstOk);
        require(seen == first);
    }
    static QTemporaryDir scratch(QDir::tempPath() + QStringLiteral("/tar-XXXXXX"));
    const QString root = scratch.filePath(QStringLiteral("ws"));
    const QString outside = scratch.filePath(QStringLiteral("outside"));
    QDir(root).removeRecursively();
    QDir().mkpath(root);
    QDir().mkpath(outside);
    QFile::link(outside, root + QStringLiteral("/planted"));
    constexpr qint64 Quota = 64 * 1024;
    {
        TarExtractor extractor(root, Quota);
        for (const QByteArray &piece : cut(input, 7)) {
            if (!extractor.feed(piece))
                break;
        }
        (void)extractor.finish();
        require(extractor.bytesWritten() <= Quota);
    }
    require(QDir(outside).isEmpty(QDir::AllEntries | QDir::Hidden | QDir::System
                                  | QDir::NoDotAndDotDot));
    QDirIterator it(root,
                    QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        const QFileInfo info = it.fileInfo();
        if (info.fileName() == QLatin1String("planted") && info.dir() == QDir(root))
            continue;
        require(!info.isSymLink() && (info.isFile() || info.isDir()));
    }
    return 0;
}
