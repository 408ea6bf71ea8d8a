// libFuzzer target for the workspace boundary. A workspace made once holds files, folders, a
// fifo and links of every kind (to a host file and folder outside, relative ones climbing out,
// links inside, a loop, a dangling one, a hard link to the host file). The first byte picks what to
// do with the rest, a path: check it, read it, open it, or create it with its folders. Whatever is
// accepted was named without `..`, absolute form or NUL, resolves (/proc/self/fd) to exactly that
// path inside the workspace and passes no link on the way; opening accepts exactly the paths that
// exist without a link; nothing outside the workspace is ever read, created or changed.
#include "fuzzing.h"

#include <sandbox/pathguard.h>

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QStringList>
#include <QTemporaryDir>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace Sandcastle;
using namespace Sandcastle::Fuzzing;

namespace {

const QByteArray kSecret = QByteArrayLiteral("OUTSIDE-SECRET");

// Every entry below `dir` (links listed, never followed), with its type.
QStringList listing(const QString &dir)
{
    QStringList entries;
    QDirIterator it(dir,
                    QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        const QFileInfo info = it.fileInfo();
        entries << (info.isSymLink() ? QStringLiteral("link:") : QStringLiteral("entry:"))
                       + it.filePath().mid(dir.size());
    }
    entries.sort();
    return entries;
}

struct Fixture
{
    QTemporaryDir base;
    QString root;     // the workspace, canonical
    QString outside;  // a host folder next to it
    QStringList tree; // listings of both, as made
};

void put(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    require(file.open(QIODevice::WriteOnly) && file.write(data) == data.size());
}

void plantLink(const QString &target, const QString &path)
{
    require(::symlink(QFile::encodeName(target).constData(), QFile::encodeName(path).constData())
            == 0);
}

Fixture &fixture()
{
    static Fixture f = [] {
        Fixture made;
        require(made.base.isValid());
        const QString base = QFileInfo(made.base.path()).canonicalFilePath();
        made.root = base + QStringLiteral("/ws");
        made.outside = base + QStringLiteral("/outside");
        put(made.outside + QStringLiteral("/secret.txt"), kSecret);
        put(made.root + QStringLiteral("/a.txt"), "inside a");
        put(made.root + QStringLiteral("/.hidden"), "inside hidden");
        put(made.root + QStringLiteral("/sub/b.txt"), "inside b");
        put(made.root + QStringLiteral("/sub/deeper/c.txt"), "inside c");
        plantLink(made.outside, made.root + QStringLiteral("/out"));
        plantLink(made.outside + QStringLiteral("/secret.txt"),
                  made.root + QStringLiteral("/passwd"));
        plantLink(QStringLiteral("../outside"), made.root + QStringLiteral("/up"));
        plantLink(QStringLiteral("../../outside/secret.txt"),
                  made.root + QStringLiteral("/sub/esc"));
        plantLink(QStringLiteral("../a.txt"), made.root + QStringLiteral("/sub/inlink"));
        plantLink(QStringLiteral("sub"), made.root + QStringLiteral("/sublink"));
        plantLink(QStringLiteral("loop"), made.root + QStringLiteral("/loop"));
        plantLink(QStringLiteral("nowhere"), made.root + QStringLiteral("/dangling"));
        // A second name for the host file (same file system): a hard link, not a symlink.
        require(::link(QFile::encodeName(made.outside + QStringLiteral("/secret.txt")).constData(),
                       QFile::encodeName(made.root + QStringLiteral("/hard")).constData())
                == 0);
        require(::mkfifo(QFile::encodeName(made.root + QStringLiteral("/fifo")).constData(), 0644)
                == 0);
        made.tree = listing(made.root) + listing(made.outside);
        return made;
    }();
    return f;
}

QByteArray native(const QString &relative)
{
    return QFile::encodeName(fixture().root + QLatin1Char('/') + relative);
}

// What lstat says of each prefix of a checked path, in order; stops at the first missing one.
QList<struct stat> prefixes(const QStringList &parts)
{
    QList<struct stat> found;
    for (qsizetype i = 0; i < parts.size(); ++i) {
        struct stat st
        {
        };
        if (::lstat(native(parts.mid(0, i + 1).join(QLatin1Char('/'))).constData(), &st) != 0)
            break;
        found << st;
    }
    return found;
}

// The path exists and no part of it is a link (nor a file with a second name); every part but
// the last is a folder.
bool reachableWithoutLinks(const QStringList &parts)
{
    const QList<struct stat> found = prefixes(parts);
    if (found.size() != parts.size())
        return false;
    for (qsizetype i = 0; i < found.size(); ++i) {
        const mode_t mode = found.at(i).st_mode;
        if (S_ISLNK(mode) || (i + 1 < found.size() && !S_ISDIR(mode))
            || (S_ISREG(mode) && found.at(i).st_nlink > 1))
            return false;
    }
    return true;
}

// An opened descriptor is the named path inside the workspace, nothing else.
void isExactlyInside(int fd, const QString &checked)
{
    char target[4096];
    const QByteArray proc = "/proc/self/fd/" + QByteArray::number(fd);
    const ssize_t n = ::readlink(proc.constData(), target, sizeof target);
    require(n > 0 && QByteArray(target, qsizetype(n)) == native(checked));
    require(native(checked).startsWith(QByteArray(QFile::encodeName(fixture().root) + '/')));
}

// The reference for checkRelative: the parts without empty ones and '.', refused when any is
// '..', when empty, with NUL, or absolute ('/' first, or '\\' first in the first part).
std::optional<QStringList> referenceParts(const QString &path)
{
    if (path.startsWith(QLatin1Char('/')) || path.startsWith(QLatin1Char('\\'))
        || path.contains(QChar(0)))
        return std::nullopt;
    QStringList parts;
    for (const QString &part : path.split(QLatin1Char('/'))) {
        if (part == QLatin1String(".."))
            return std::nullopt;
        if (!part.isEmpty() && part != QLatin1String("."))
            parts << part;
    }
    if (parts.isEmpty() || parts.first().startsWith(QLatin1Char('\\')))
        return std::nullopt;
    return parts;
}

void checkRead(const QString &path, const std::optional<QStringList> &parts)
{
    const Result<QByteArray> data = PathGuard::readFile(fixture().root, path, 1 << 16);
    struct stat st
    {
    };
    const bool regular = parts && reachableWithoutLinks(*parts)
                         && ::lstat(native(parts->join(QLatin1Char('/'))).constData(), &st) == 0
                         && S_ISREG(st.st_mode);
    require(bool(data) == regular);
    if (data)
        require(data.value().startsWith("inside ") && !data.value().contains(kSecret));
}

void checkOpen(const QString &path, const std::optional<QStringList> &parts, bool create)
{
    const int flags = create ? O_WRONLY | O_CREAT | O_NONBLOCK : O_RDONLY | O_NONBLOCK;
    const QList<struct stat> before = parts ? prefixes(*parts) : QList<struct stat>();
    const bool reachable = parts && reachableWithoutLinks(*parts);
    const Result<int> fd = PathGuard::openInside(fixture().root, path, flags, create);
    if (fd) {
        require(parts.has_value());
        isExactlyInside(fd.value(), parts->join(QLatin1Char('/')));
        ::close(fd.value());
    }
    if (!create) {
        require(bool(fd) == reachable);
        return;
    }
    // Take away what this call made (folders on the way, the file), deepest first. Not past a
    // link: anything made through one is a finding for the listing check below.
    for (const struct stat &st : before) {
        if (S_ISLNK(st.st_mode))
            return;
    }
    for (qsizetype i = parts ? parts->size() - 1 : -1; i >= before.size(); --i) {
        const QByteArray made = native(parts->mid(0, i + 1).join(QLatin1Char('/')));
        if (::unlink(made.constData()) != 0)
            ::rmdir(made.constData());
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    Fixture &f = fixture();
    const QString path = QString::fromUtf8(bytesOf(data + 1, size - 1));
    const std::optional<QStringList> parts = referenceParts(path);

    const Result<QString> checked = PathGuard::checkRelative(path);
    require(bool(checked) == parts.has_value());
    if (checked) {
        require(checked.value() == parts->join(QLatin1Char('/')));
        require(PathGuard::checkRelative(checked.value()).value() == checked.value());
        require(QDir::cleanPath(f.root + QLatin1Char('/') + checked.value())
                    .startsWith(f.root + QLatin1Char('/')));
    }

    switch (data[0] % 3) {
    case 0:
        checkRead(path, parts);
        break;
    case 1:
        checkOpen(path, parts, false);
        break;
    default:
        // Creating folders is kept to paths of a sensible depth and length.
        if (!parts || (parts->size() <= 16 && path.size() <= 1024))
            checkOpen(path, parts, true);
        break;
    }
    require(listing(f.root) + listing(f.outside) == f.tree);
    return 0;
}
