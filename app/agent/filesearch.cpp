#include "filesearch.h"

#include "tools.h"

#include <base/gitignore.h>
#include <sandbox/pathguard.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QStringDecoder>

#include <sys/stat.h>

#include <algorithm>

namespace Sandcastle::FileSearch {

namespace {

constexpr qint64 LargestSearched = 2 * 1024 * 1024;
constexpr qsizetype LongestShownLine = 200;

bool isHidden(const QString &name)
{
    return name == QLatin1String(".git") || name == QLatin1String(".sandcastle");
}

// The folder's .gitignore, when it is a regular file (a link is not followed).
void readRules(const QString &workspace, const QString &folder, GitIgnore *rules)
{
    const QString relative
        = folder.isEmpty() ? QStringLiteral(".gitignore") : folder + QStringLiteral("/.gitignore");
    const Result<QByteArray> text = PathGuard::readFile(workspace, relative, 1024 * 1024);
    if (text)
        rules->addRules(folder, QString::fromUtf8(text.value()));
}

bool walkFolder(const QString &workspace,
                const QString &folder,
                GitIgnore *rules,
                const std::function<bool(const Entry &)> &visit)
{
    readRules(workspace, folder, rules);
    const QDir dir(folder.isEmpty() ? workspace : QDir(workspace).filePath(folder));
    QStringList names = dir.entryList(
        QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::NoSort);
    std::sort(names.begin(), names.end());
    for (const QString &name : std::as_const(names)) {
        if (isHidden(name))
            continue;
        const QString path = folder.isEmpty() ? name : folder + QLatin1Char('/') + name;
        struct stat st
        {
        };
        if (::lstat(QFile::encodeName(dir.filePath(name)).constData(), &st) != 0)
            continue;
        Entry entry;
        entry.path = path;
        entry.isLink = S_ISLNK(st.st_mode);
        entry.isDir = S_ISDIR(st.st_mode);
        entry.size = qint64(st.st_size);
        if (rules->matches(path, entry.isDir)) {
            if (!entry.isDir)
                continue;
            entry.ignored = true;
            if (!visit(entry))
                return false;
            continue;
        }
        if (!visit(entry))
            return false;
        if (entry.isDir && !walkFolder(workspace, path, rules, visit))
            return false;
    }
    return true;
}

} // namespace

void walk(const QString &workspace, const std::function<bool(const Entry &)> &visit)
{
    walk(workspace, QString(), visit);
}

void walk(const QString &workspace,
          const QString &folder,
          const std::function<bool(const Entry &)> &visit)
{
    GitIgnore rules;
    // The rules of each folder above it, from the root down.
    const QStringList parts = folder.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    QString above;
    for (qsizetype i = 0; i < parts.size(); ++i) {
        readRules(workspace, above, &rules);
        above = above.isEmpty() ? parts.at(i) : above + QLatin1Char('/') + parts.at(i);
    }
    walkFolder(workspace, above, &rules, visit);
}

nlohmann::json
searchFiles(const QString &workspace, const QString &pattern, const QString &glob, int maxResults)
{
    QElapsedTimer clock;
    clock.start();
    if (pattern.isEmpty())
        return Tools::errorJson(QStringLiteral("search_files needs a non-empty pattern"));
    const QRegularExpression expression(pattern, QRegularExpression::UseUnicodePropertiesOption);
    if (!expression.isValid())
        return Tools::errorJson(
            QStringLiteral("search_files: \"%1\" is not a valid regular expression: %2")
                .arg(pattern, expression.errorString()));
    GitIgnore selected; // the glob, read as a .gitignore pattern
    if (!glob.isEmpty())
        selected.addRules(QString(), glob);
    QStringList shown;
    qint64 matches = 0;
    int files = 0;
    int skippedLarge = 0;
    int skippedBinary = 0;
    walk(workspace, [&](const Entry &entry) {
        if (entry.isDir || entry.isLink)
            return true;
        if (!glob.isEmpty() && !selected.matches(entry.path, false))
            return true;
        if (entry.size > LargestSearched) {
            ++skippedLarge;
            return true;
        }
        const Result<QByteArray> data = PathGuard::readFile(workspace, entry.path, LargestSearched);
        if (!data)
            return true;
        if (data.value().left(8192).contains('\0')) {
            ++skippedBinary;
            return true;
        }
        ++files;
        QStringDecoder decoder(QStringDecoder::Utf8);
        const QString text = decoder.decode(data.value());
        qsizetype start = 0;
        int line = 1;
        while (start <= text.size()) {
            qsizetype end = text.indexOf(QLatin1Char('\n'), start);
            if (end < 0)
                end = text.size();
            const QStringView content = QStringView(text).mid(start, end - start);
            if (expression.match(content).hasMatch()) {
                ++matches;
                if (shown.size() < maxResults) {
                    QString cut = content.trimmed().toString();
                    if (cut.size() > LongestShownLine)
                        cut = cut.left(LongestShownLine) + QStringLiteral(" […]");
                    shown << QStringLiteral("%1:%2: %3").arg(entry.path).arg(line).arg(cut);
                }
            }
            if (end == text.size())
                break;
            start = end + 1;
            ++line;
        }
        return true;
    });
    nlohmann::json result = Tools::okJson(clock.elapsed());
    QString out = shown.isEmpty()
                      ? QStringLiteral("no match for /%1/ in %2 file(s)").arg(pattern).arg(files)
                      : shown.join(QLatin1Char('\n'));
    if (matches > shown.size())
        out += QStringLiteral("\n[… %1 more matching line(s) not shown: narrow the pattern or "
                              "the glob]")
                   .arg(matches - shown.size());
    if (skippedLarge > 0 || skippedBinary > 0)
        out += QStringLiteral("\n[skipped: %1 file(s) over 2 MB, %2 binary file(s)]")
                   .arg(skippedLarge)
                   .arg(skippedBinary);
    result["stdout"] = out.toStdString();
    result["matches"] = matches;
    result["truncated"] = matches > shown.size();
    return result;
}

} // namespace Sandcastle::FileSearch
