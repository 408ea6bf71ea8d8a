#include "filetools.h"

#include "filesearch.h"
#include "tools.h"

#include <base/fdio.h>
#include <sandbox/pathguard.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QStringDecoder>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Sandcastle::FileTools {

namespace {

std::optional<std::pair<unsigned, unsigned>> sandboxOwner()
{
    // Root on the host: the files must belong to the sandbox user, who runs the code.
    if (::getuid() == 0)
        return std::pair<unsigned, unsigned>{1000u, 1000u};
    return std::nullopt;
}
// Writes all of `bytes` to `fd`; false when the disk took less (full, or an I/O error).
// A text file read whole (up to LargestEdited): its text, or why not.
Result<QString> readText(const QString &workspace, const QString &path, const char *tool)
{
    bool truncated = false;
    const Result<QByteArray> data = PathGuard::readFile(workspace, path, LargestEdited, &truncated);
    if (!data)
        return Result<QString>::failure(
            QStringLiteral("%1: %2").arg(QLatin1String(tool), data.error()));
    if (truncated)
        return Result<QString>::failure(
            QStringLiteral("%1: %2 is larger than %3 MB; use run_python for it")
                .arg(QLatin1String(tool), path)
                .arg(LargestEdited / (1024 * 1024)));
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString text = decoder.decode(data.value());
    if (decoder.hasError() || data.value().contains('\0'))
        return Result<QString>::failure(
            QStringLiteral("%1: %2 is a binary file; use run_python for it")
                .arg(QLatin1String(tool), path));
    return Result<QString>::ok(text);
}

// Writes `bytes` as the new content of an existing regular file: into a new file beside it,
// with its mode (and its owner, when root may give it), flushed, then renamed over it; a failure
// on the way (disk full) leaves the file as it was. No component is followed through a link.
Result<bool>
replaceContent(const QString &workspace, const QString &relative, const QByteArray &bytes)
{
    const qsizetype slash = relative.lastIndexOf(QLatin1Char('/'));
    const QString folder = slash < 0 ? QString() : relative.left(slash);
    const QByteArray name = QFile::encodeName(relative.mid(slash + 1));
    const Result<int> dir
        = folder.isEmpty() ? Result<int>::ok(
              ::open(QFile::encodeName(workspace).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC))
                           : PathGuard::openInside(
                               workspace, folder + QStringLiteral("/."), O_RDONLY | O_DIRECTORY);
    if (!dir || dir.value() < 0)
        return Result<bool>::failure(dir ? QStringLiteral("cannot open its folder") : dir.error());
    const int dirFd = dir.value();
    const auto fail = [&](const QString &why) {
        ::close(dirFd);
        return Result<bool>::failure(why);
    };
    struct stat st
    {
    };
    if (::fstatat(dirFd, name.constData(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
        return fail(QStringLiteral("it is not a regular file"));
    const QByteArray temp = "." + name + ".sandcastle-edit";
    ::unlinkat(dirFd, temp.constData(), 0); // one a crash left (a link is removed, not followed)
    const int fd = ::openat(dirFd,
                            temp.constData(),
                            O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                            st.st_mode & 07777);
    if (fd < 0)
        return fail(QString::fromLocal8Bit(::strerror(errno)));
    bool done = writeAll(fd, bytes) && ::fchmod(fd, st.st_mode & 07777) == 0;
    if (done && ::geteuid() == 0)
        done = ::fchown(fd, st.st_uid, st.st_gid) == 0;
    done = done && ::fsync(fd) == 0;
    const QString why = QString::fromLocal8Bit(::strerror(errno ? errno : EIO));
    ::close(fd);
    if (!done || ::renameat(dirFd, temp.constData(), dirFd, name.constData()) != 0) {
        ::unlinkat(dirFd, temp.constData(), 0);
        return fail(QStringLiteral("could not write it: ") + why);
    }
    ::close(dirFd);
    return Result<bool>::ok(true);
}

// The change edit_file made, as one unified-diff hunk: the whole lines it touched, with up to
// three lines of context on each side (the text between is the same before and after).
QString changeHunk(
    const QString &before, qsizetype at, qsizetype oldSize, const QString &after, qsizetype newSize)
{
    constexpr int Context = 3;
    const qsizetype lineStart = at == 0 ? 0 : before.lastIndexOf(QLatin1Char('\n'), at - 1) + 1;
    const qsizetype lastChanged = at + std::max<qsizetype>(oldSize, 1) - 1;
    qsizetype lineEnd = before.indexOf(QLatin1Char('\n'), lastChanged);
    lineEnd = lineEnd < 0 ? before.size() : lineEnd + 1;
    const qsizetype afterEnd = lineEnd + (newSize - oldSize);
    const auto lines = [](QStringView text) {
        QList<QStringView> out;
        if (text.isEmpty())
            return out;
        for (const QStringView line : text.split(QLatin1Char('\n')))
            out << line;
        if (text.endsWith(QLatin1Char('\n')))
            out.removeLast();
        return out;
    };
    const QList<QStringView> removed
        = lines(QStringView(before).mid(lineStart, lineEnd - lineStart));
    const QList<QStringView> added = lines(QStringView(after).mid(lineStart, afterEnd - lineStart));
    QList<QStringView> leading = lines(QStringView(before).left(lineStart));
    leading = leading.mid(std::max<qsizetype>(0, leading.size() - Context));
    const QList<QStringView> trailing = lines(QStringView(before).mid(lineEnd)).mid(0, Context);
    const qsizetype first
        = QStringView(before).left(lineStart).count(QLatin1Char('\n')) + 1 - leading.size();
    QString out = QStringLiteral("@@ -%1,%2 +%1,%3 @@\n")
                      .arg(first)
                      .arg(leading.size() + removed.size() + trailing.size())
                      .arg(leading.size() + added.size() + trailing.size());
    for (const QStringView line : leading)
        out += QLatin1Char(' ') + line + QLatin1Char('\n');
    for (const QStringView line : removed)
        out += QLatin1Char('-') + line + QLatin1Char('\n');
    for (const QStringView line : added)
        out += QLatin1Char('+') + line + QLatin1Char('\n');
    for (const QStringView line : trailing)
        out += QLatin1Char(' ') + line + QLatin1Char('\n');
    return out;
}

} // namespace

Result<QString> upload(const QString &workspace, const QString &hostFile)
{
    const QFileInfo source(hostFile);
    if (!source.isFile())
        return Result<QString>::failure(
            QStringLiteral("%1 is not a file (folders are not uploaded)").arg(hostFile));
    QFile in(hostFile);
    if (!in.open(QIODevice::ReadOnly))
        return Result<QString>::failure(
            QStringLiteral("cannot read %1: %2").arg(hostFile, in.errorString()));
    const QString base = source.completeBaseName();
    const QString suffix
        = source.suffix().isEmpty() ? QString() : QLatin1Char('.') + source.suffix();
    for (int n = 1; n < 1000; ++n) {
        const QString name
            = n == 1 ? source.fileName() : QStringLiteral("%1 (%2)%3").arg(base).arg(n).arg(suffix);
        const Result<QString> checked = PathGuard::checkRelative(name);
        if (!checked)
            return Result<QString>::failure(checked.error());
        const Result<int> fd = PathGuard::openInside(
            workspace, name, O_WRONLY | O_CREAT | O_EXCL, true, sandboxOwner());
        if (!fd) {
            if (QFileInfo(QDir(workspace).filePath(name)).exists()
                || QFileInfo(QDir(workspace).filePath(name)).isSymLink())
                continue; // taken: try the next name
            return Result<QString>::failure(fd.error());
        }
        QFile out;
        if (!out.open(fd.value(), QIODevice::WriteOnly, QFileDevice::AutoCloseHandle)) {
            ::close(fd.value());
            return Result<QString>::failure(out.errorString());
        }
        while (!in.atEnd()) {
            const QByteArray chunk = in.read(1 << 20);
            if (out.write(chunk) != chunk.size()) {
                const QString error = out.errorString();
                out.close();
                QFile::remove(QDir(workspace).filePath(name));
                return Result<QString>::failure(
                    QStringLiteral("could not copy %1: %2").arg(hostFile, error));
            }
        }
        return Result<QString>::ok(name);
    }
    return Result<QString>::failure(QStringLiteral("too many files named like %1").arg(hostFile));
}

Result<bool>
writeNewFile(const QString &workspace, const QString &relative, const QByteArray &bytes)
{
    const Result<QString> checked = PathGuard::checkRelative(relative);
    if (!checked)
        return Result<bool>::failure(checked.error());
    const Result<int> fd = PathGuard::openInside(
        workspace, checked.value(), O_WRONLY | O_CREAT | O_EXCL, true, sandboxOwner());
    if (!fd)
        return Result<bool>::failure(fd.error());
    const bool written = writeAll(fd.value(), bytes);
    ::close(fd.value());
    if (!written) {
        QFile::remove(QDir(workspace).filePath(checked.value()));
        return Result<bool>::failure(QStringLiteral("could not write all of ") + checked.value());
    }
    return Result<bool>::ok(true);
}

nlohmann::json writeFile(const QString &workspace, const QString &path, const QString &content)
{
    QElapsedTimer clock;
    clock.start();
    const Result<QString> checked = PathGuard::checkRelative(path);
    if (!checked)
        return Tools::errorJson(QStringLiteral("write_file refused: ") + checked.error());
    const Result<int> fd = PathGuard::openInside(
        workspace, checked.value(), O_WRONLY | O_CREAT | O_TRUNC, true, sandboxOwner());
    if (!fd)
        return Tools::errorJson(QStringLiteral("write_file: ") + fd.error());
    const QByteArray bytes = content.toUtf8();
    const bool written = writeAll(fd.value(), bytes);
    ::close(fd.value());
    if (!written)
        return Tools::errorJson(
            QStringLiteral("write_file: could not write all of %1").arg(checked.value()));
    nlohmann::json result = Tools::okJson(clock.elapsed());
    result["files"] = nlohmann::json::array({checked.value().toStdString()});
    result["stdout"] = QStringLiteral("wrote %1 bytes to %2")
                           .arg(bytes.size())
                           .arg(checked.value())
                           .toStdString();
    return result;
}

nlohmann::json readFile(const QString &workspace, const QString &path, qint64 maxBytes)
{
    QElapsedTimer clock;
    clock.start();
    if (maxBytes <= 0)
        maxBytes = 64 * 1024;
    bool truncated = false;
    const Result<QByteArray> data = PathGuard::readFile(workspace, path, maxBytes, &truncated);
    if (!data)
        return Tools::errorJson(QStringLiteral("read_file: ") + data.error());
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString text = decoder.decode(data.value());
    nlohmann::json result = Tools::okJson(clock.elapsed());
    if (decoder.hasError() || data.value().contains('\0')) {
        result["content"] = "";
        result["stdout"]
            = QStringLiteral("%1 is a binary file (%2 bytes read); use run_python to inspect it")
                  .arg(path)
                  .arg(data.value().size())
                  .toStdString();
    } else {
        result["content"] = text.toStdString();
    }
    result["truncated"] = truncated;
    return result;
}

nlohmann::json readLines(
    const QString &workspace, const QString &path, int startLine, int endLine, qint64 maxBytes)
{
    QElapsedTimer clock;
    clock.start();
    if (maxBytes <= 0)
        maxBytes = 64 * 1024;
    const Result<QString> checked = PathGuard::checkRelative(path);
    if (!checked)
        return Tools::errorJson(QStringLiteral("read_file refused: ") + checked.error());
    const Result<QString> text = readText(workspace, checked.value(), "read_file");
    if (!text)
        return Tools::errorJson(text.error());
    QStringList lines = text.value().split(QLatin1Char('\n'));
    if (text.value().endsWith(QLatin1Char('\n')))
        lines.removeLast();
    const int total = int(lines.size());
    const int first = std::max(1, startLine);
    const int last = endLine <= 0 ? total : std::min(endLine, total);
    if (first > total && total > 0)
        return Tools::errorJson(QStringLiteral("read_file: %1 has %2 line(s); start_line %3 is "
                                               "past its end")
                                    .arg(checked.value())
                                    .arg(total)
                                    .arg(first));
    const int width = int(QString::number(std::max(1, last)).size());
    QString out;
    bool truncated = false;
    int shownLast = first - 1;
    for (int n = first; n <= last; ++n) {
        const QString numbered = QStringLiteral("%1\t%2\n").arg(n, width).arg(lines.at(n - 1));
        if (out.size() + numbered.size() > maxBytes) {
            truncated = true;
            break;
        }
        out += numbered;
        shownLast = n;
    }
    nlohmann::json result = Tools::okJson(clock.elapsed());
    result["content"] = out.toStdString();
    result["lines"] = total;
    result["truncated"] = truncated;
    if (truncated)
        result["stdout"] = QStringLiteral("lines %1-%2 of %3 shown (max_bytes reached): ask for "
                                          "the next range")
                               .arg(first)
                               .arg(shownLast)
                               .arg(total)
                               .toStdString();
    return result;
}

nlohmann::json editFile(const QString &workspace,
                        const QString &path,
                        const QString &oldText,
                        const QString &newText)
{
    QElapsedTimer clock;
    clock.start();
    const Result<QString> checked = PathGuard::checkRelative(path);
    if (!checked)
        return Tools::errorJson(QStringLiteral("edit_file refused: ") + checked.error());
    const QString &relative = checked.value();
    if (oldText.isEmpty())
        return Tools::errorJson(QStringLiteral(
            "edit_file: old_text is empty; give the exact text to replace (write_file makes a "
            "new file)"));
    const Result<QString> text = readText(workspace, relative, "edit_file");
    if (!text)
        return Tools::errorJson(text.error());
    const qsizetype at = text.value().indexOf(oldText);
    if (at < 0)
        return Tools::errorJson(QStringLiteral("edit_file: old_text was not found in %1 (it must "
                                               "match exactly, spaces and line ends included); "
                                               "nothing was changed")
                                    .arg(relative));
    const qsizetype times = text.value().count(oldText);
    if (times > 1)
        return Tools::errorJson(QStringLiteral("edit_file: old_text occurs %1 times in %2; "
                                               "include more of the text around it so that it "
                                               "occurs once; nothing was changed")
                                    .arg(times)
                                    .arg(relative));
    QString edited = text.value();
    edited.replace(at, oldText.size(), newText);
    const Result<bool> saved = replaceContent(workspace, relative, edited.toUtf8());
    if (!saved)
        return Tools::errorJson(QStringLiteral("edit_file: ") + saved.error()
                                + QStringLiteral("; %1 was not changed").arg(relative));
    const int line = int(QStringView(text.value()).left(at).count(QLatin1Char('\n'))) + 1;
    nlohmann::json result = Tools::okJson(clock.elapsed());
    result["files"] = nlohmann::json::array({relative.toStdString()});
    const QString said = QStringLiteral("edited %1 at line %2\n").arg(relative).arg(line)
                         + changeHunk(text.value(), at, oldText.size(), edited, newText.size());
    result["stdout"] = said.toStdString();
    return result;
}

nlohmann::json listFiles(const QString &workspace, const QString &path, int maxEntries)
{
    QElapsedTimer clock;
    clock.start();
    QString relative;
    if (!path.isEmpty() && path != QLatin1String(".") && path != QLatin1String("/workspace")) {
        const Result<QString> checked = PathGuard::checkRelative(path);
        if (!checked)
            return Tools::errorJson(QStringLiteral("list_files refused: ") + checked.error());
        relative = checked.value();
        // Every folder on the way must be a real folder, not a link out of the workspace.
        const Result<int> probe = PathGuard::openInside(
            workspace, relative + QStringLiteral("/."), O_RDONLY | O_DIRECTORY);
        if (!probe)
            return Tools::errorJson(QStringLiteral("list_files: ") + probe.error());
        ::close(probe.value());
    }
    // A bounded tree: folders before what they hold, sizes, .git/ and .sandcastle/ left out,
    // what .gitignore ignores collapsed to its folder; past maxEntries the rest is counted.
    nlohmann::json entries = nlohmann::json::array();
    QString listing;
    qint64 more = 0;
    constexpr qint64 Counted = 100000; // past this, "more than"
    FileSearch::walk(workspace, relative, [&](const FileSearch::Entry &entry) {
        if (entries.size() >= size_t(maxEntries)) {
            return ++more < Counted;
        }
        const char *type = entry.isDir ? "dir" : entry.isLink ? "link" : "file";
        nlohmann::json item
            = {{"path", entry.path.toStdString()}, {"type", type}, {"size", entry.size}};
        if (entry.ignored)
            item["ignored"] = true;
        entries.push_back(item);
        if (entry.ignored)
            listing += QStringLiteral("%1/\t(ignored by .gitignore: not listed)\n").arg(entry.path);
        else if (entry.isDir)
            listing += QStringLiteral("%1/\n").arg(entry.path);
        else
            listing += QStringLiteral("%1\t%2%3\n")
                           .arg(entry.path)
                           .arg(entry.size)
                           .arg(entry.isLink ? QStringLiteral(" (link)") : QString());
        return true;
    });
    if (more > 0)
        listing += QStringLiteral("[… %1%2 more entries not listed: list one folder at a time]\n")
                       .arg(more >= Counted ? QStringLiteral("more than ") : QString())
                       .arg(more);
    nlohmann::json result = Tools::okJson(clock.elapsed());
    result["entries"] = entries;
    result["stdout"] = listing.isEmpty() ? std::string("(empty)") : listing.toStdString();
    result["truncated"] = more > 0;
    return result;
}

} // namespace Sandcastle::FileTools
