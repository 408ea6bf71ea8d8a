#include "filetools.h"

#include "tools.h"

#include <sandbox/pathguard.h>

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QStringDecoder>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Sandcastle::FileTools {

namespace {
nlohmann::json ok(qint64 durationMs)
{
    return {{"status", "ok"},
            {"exit_code", 0},
            {"stdout", ""},
            {"stderr", ""},
            {"error", ""},
            {"files", nlohmann::json::array()},
            {"duration_ms", durationMs},
            {"truncated", false}};
}

std::optional<std::pair<unsigned, unsigned>> sandboxOwner()
{
    // Root on the host: the files must belong to the sandbox user, who runs the code.
    if (::getuid() == 0)
        return std::pair<unsigned, unsigned>{1000u, 1000u};
    return std::nullopt;
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
    qsizetype written = 0;
    while (written < bytes.size()) {
        const ssize_t n
            = ::write(fd.value(), bytes.constData() + written, size_t(bytes.size() - written));
        if (n <= 0)
            break;
        written += n;
    }
    ::close(fd.value());
    if (written != bytes.size())
        return Tools::errorJson(
            QStringLiteral("write_file: could not write all of %1").arg(checked.value()));
    nlohmann::json result = ok(clock.elapsed());
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
    nlohmann::json result = ok(clock.elapsed());
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
    const QDir root(workspace);
    const QString start = relative.isEmpty() ? workspace : root.filePath(relative);
    nlohmann::json entries = nlohmann::json::array();
    QString listing;
    bool truncated = false;
    QDirIterator it(start,
                    QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot | QDir::System,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString full = it.next();
        const QString rel = root.relativeFilePath(full);
        if (rel == QLatin1String(".sandcastle") || rel.startsWith(QLatin1String(".sandcastle/")))
            continue;
        if (entries.size() >= size_t(maxEntries)) {
            truncated = true;
            break;
        }
        struct stat st
        {
        };
        if (::lstat(QFile::encodeName(full).constData(), &st) != 0)
            continue;
        const char *type = S_ISDIR(st.st_mode) ? "dir" : S_ISLNK(st.st_mode) ? "link" : "file";
        entries.push_back(
            {{"path", rel.toStdString()}, {"type", type}, {"size", qint64(st.st_size)}});
        listing += QStringLiteral("%1%2\t%3\n")
                       .arg(rel, S_ISDIR(st.st_mode) ? QStringLiteral("/") : QString())
                       .arg(qint64(st.st_size));
    }
    nlohmann::json result = ok(clock.elapsed());
    result["entries"] = entries;
    result["stdout"] = listing.isEmpty() ? std::string("(empty)") : listing.toStdString();
    result["truncated"] = truncated;
    return result;
}

} // namespace Sandcastle::FileTools
