#include "environmentspec.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <sys/stat.h>

namespace Sandcastle {

namespace {

const QString kRequirements = QStringLiteral("requirements.txt");
const QString kApt = QStringLiteral("apt.txt");

struct LogicalLine
{
    int number = 0;
    QString text;
};

// pip's reading of a requirements file: lines split as Python's str.splitlines() splits them
// (so "numpy\r--trusted-host x" is two lines here as it is for pip, not one harmless one), a
// trailing backslash joins the next line, and a '#' at the start or after whitespace starts a
// comment.
QList<LogicalLine> logicalLines(const QByteArray &bytes)
{
    QList<LogicalLine> lines;
    static const QRegularExpression lineBreak(QStringLiteral(
        "\\r\\n|[\\n\\r\\x{0b}\\x{0c}\\x{1c}\\x{1d}\\x{1e}\\x{85}\\x{2028}\\x{2029}]"));
    QStringList physical = QString::fromUtf8(bytes).split(lineBreak);
    if (physical.size() > 1 && physical.constLast().isEmpty())
        physical.removeLast();
    LogicalLine pending;
    for (int i = 0; i < physical.size(); ++i) {
        QString line = physical.at(i);
        static const QRegularExpression comment(QStringLiteral("(^|\\s)#.*$"));
        line.remove(comment);
        if (pending.text.isEmpty())
            pending.number = i + 1;
        if (line.endsWith(QLatin1Char('\\'))) {
            line.chop(1);
            pending.text += line;
            continue;
        }
        pending.text += line;
        pending.text = pending.text.trimmed();
        if (!pending.text.isEmpty())
            lines.append(pending);
        pending = {};
    }
    pending.text = pending.text.trimmed();
    if (!pending.text.isEmpty())
        lines.append(pending);
    return lines;
}

bool looksLikePath(const QString &requirement)
{
    static const QRegularExpression archive(
        QStringLiteral("\\.(whl|zip|tar\\.gz|tgz|tar\\.bz2|tar\\.xz)$"));
    return requirement.startsWith(QLatin1Char('.')) || requirement.startsWith(QLatin1Char('/'))
           || requirement.startsWith(QLatin1Char('~')) || requirement.contains(QLatin1Char('/'))
           || requirement.contains(QLatin1Char('\\')) || archive.match(requirement).hasMatch();
}

// A direct reference: a scheme ("https://", "file://"), a VCS prefix, or PEP 508's "name @ url"
// ('@' never appears in a name or a version, so any '@' before the markers counts).
bool isUrl(const QString &requirement)
{
    static const QRegularExpression url(QStringLiteral("://|^[A-Za-z]+\\+"));
    return url.match(requirement).hasMatch()
           || requirement.section(QLatin1Char(';'), 0, 0).contains(QLatin1Char('@'));
}

// pip's split of a requirement line (break_args_options): the words up to the first one that
// starts with '-' are the requirement, the rest are its per-requirement options.
QString requirementPart(const QString &text)
{
    QStringList args;
    for (const QString &token : text.split(QLatin1Char(' '))) {
        if (token.startsWith(QLatin1Char('-')))
            break;
        args.append(token);
    }
    return args.join(QLatin1Char(' ')).trimmed();
}

// pip's reading of a requirement that is not a URL: environment markers follow the first ';', and
// extras in brackets end what comes before it. What is left is the name, or the path that goes
// into the build ("./pkg[cli]; python_version > '3.8'" installs the folder ./pkg).
QString namePart(const QString &requirement)
{
    const QString name = requirement.section(QLatin1Char(';'), 0, 0).trimmed();
    static const QRegularExpression extras(QStringLiteral("^(.+)(\\[[^\\]]+\\])$"));
    const QRegularExpressionMatch match = extras.match(name);
    return match.hasMatch() ? match.captured(1).trimmed() : name;
}

// The distribution name at the start of a PEP 508 requirement, or of a wheel's or sdist's file
// name.
QString distributionName(const QString &requirement)
{
    const QString base = QFileInfo(requirement).fileName();
    static const QRegularExpression name(
        QStringLiteral("^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)"));
    const QRegularExpressionMatch match = name.match(base.isEmpty() ? requirement : base);
    if (!match.hasMatch())
        return {};
    QString result = match.captured(1);
    if (looksLikePath(requirement)) {
        // "tool-1.0-py3-none-any.whl", "tool-1.0.tar.gz": the name ends at the first '-' that
        // starts a version.
        static const QRegularExpression version(QStringLiteral("-\\d"));
        const QRegularExpressionMatch v = version.match(result);
        if (v.hasMatch())
            result.truncate(v.capturedStart());
    }
    return result;
}

// A line holding one option that only changes how pip chooses among what the index offers.
// pip reads every option on an option line, so "--pre --index-url …" is not harmless.
bool isHarmlessOptionLine(const QString &text)
{
    static const QRegularExpression harmless(
        QStringLiteral("^(--pre|--prefer-binary|--require-hashes|--no-index"
                       "|--(only|no)-binary(=|\\s+)[A-Za-z0-9:_.,-]+)$"));
    return harmless.match(text).hasMatch();
}

QString optionConcern(const QString &name)
{
    if (name == QLatin1String("-i") || name == QLatin1String("--index-url")
        || name == QLatin1String("--extra-index-url"))
        return QStringLiteral("points pip at another package index");
    if (name == QLatin1String("-f") || name == QLatin1String("--find-links"))
        return QStringLiteral("makes pip look for packages at another location");
    if (name == QLatin1String("--trusted-host"))
        return QStringLiteral("turns off certificate checks for a host");
    if (name == QLatin1String("-e") || name == QLatin1String("--editable"))
        return QStringLiteral("installs a project in editable mode, running its build code");
    if (name == QLatin1String("-r") || name == QLatin1String("--requirement")
        || name == QLatin1String("-c") || name == QLatin1String("--constraint"))
        return QStringLiteral("includes another file, whose lines are not checked here");
    return {};
}

// A line of options that is not a harmless one: what it does, and whether a person may allow it.
EnvironmentSpec::Concern optionLineConcern(int number, const QString &text)
{
    static const QRegularExpression optionName(QStringLiteral("^(-[^\\s=]+)"));
    const QString name = optionName.match(text).captured(1);
    QString concern = optionConcern(name);
    const bool confirmable = !concern.isEmpty();
    if (concern.isEmpty() && isHarmlessOptionLine(name))
        concern = QStringLiteral("holds more than one option: write one per line");
    else if (concern.isEmpty())
        concern = QStringLiteral("is not a pip option Sandcastle accepts");
    return {kRequirements, number, text, concern, confirmable};
}

// apt.txt: Debian package names (optionally "=version"), any number on a line, '#' comments.
void readApt(EnvironmentSpec &spec)
{
    const QStringList aptLines = QString::fromUtf8(spec.apt).split(QLatin1Char('\n'));
    for (int i = 0; i < aptLines.size(); ++i) {
        QString line = aptLines.at(i);
        const qsizetype hash = line.indexOf(QLatin1Char('#'));
        if (hash >= 0)
            line.truncate(hash);
        const QStringList words = line.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
        for (const QString &word : words) {
            static const QRegularExpression package(
                QStringLiteral("^[a-z0-9][a-z0-9+.-]+(=[A-Za-z0-9.+~:-]+)?$"));
            if (package.match(word).hasMatch()) {
                spec.aptPackages.append(word);
            } else {
                spec.concerns.append(
                    {kApt,
                     i + 1,
                     aptLines.at(i).trimmed(),
                     word.startsWith(QLatin1Char('-'))
                         ? QStringLiteral("apt options are not accepted")
                         : QStringLiteral("'%1' is not a Debian package name").arg(word),
                     false});
            }
        }
    }
}

bool isInside(const QString &workspace, const QString &absolute)
{
    const QString root = QFileInfo(workspace).canonicalFilePath();
    QFileInfo info(absolute);
    // A path that does not exist yet is judged by its cleaned form; one that exists by where
    // its links lead.
    const QString resolved = info.exists() ? info.canonicalFilePath() : QDir::cleanPath(absolute);
    return !root.isEmpty() && (resolved == root || resolved.startsWith(root + QLatin1Char('/')));
}

} // namespace

EnvironmentSpec EnvironmentSpec::parse(const QByteArray &requirements,
                                       const QByteArray &apt,
                                       const QString &workspace)
{
    EnvironmentSpec spec;
    spec.requirements = requirements;
    spec.apt = apt;

    for (const LogicalLine &line : logicalLines(requirements)) {
        const QString &text = line.text;
        if (text.startsWith(QLatin1Char('-'))) {
            if (!isHarmlessOptionLine(text))
                spec.concerns.append(optionLineConcern(line.number, text));
            continue;
        }
        // "name==1.0 --hash=sha256:…": the per-requirement options stay with it.
        const QString requirement = requirementPart(text);
        static const QRegularExpression hashesOnly(
            QStringLiteral("^(\\s*--hash(=|\\s+)[A-Za-z0-9]+:[A-Za-z0-9]+)*\\s*$"));
        const QString name = namePart(requirement);
        const bool onlyHashesFollow = hashesOnly.match(text.mid(requirement.size())).hasMatch();
        if (!onlyHashesFollow || name.isEmpty()) {
            spec.concerns.append({kRequirements,
                                  line.number,
                                  text,
                                  onlyHashesFollow
                                      ? QStringLiteral("names no package and no path")
                                      : QStringLiteral("only --hash may follow a requirement"),
                                  false});
            continue;
        }
        if (isUrl(requirement)) {
            spec.concerns.append(
                {kRequirements, line.number, text, QStringLiteral("downloads from a URL"), true});
        } else if (looksLikePath(name)) {
            QString path = name;
            if (path.startsWith(QLatin1Char('~')))
                path.replace(0, 1, QDir::homePath());
            const QString absolute = QDir::cleanPath(QDir(workspace).absoluteFilePath(path));
            const bool inside = isInside(workspace, absolute);
            spec.localPaths.append({line.number, name, absolute, inside});
            if (!inside)
                spec.concerns.append({kRequirements,
                                      line.number,
                                      text,
                                      QStringLiteral("names a path outside the project folder"),
                                      true});
        }
        const QString distribution = distributionName(name);
        if (!distribution.isEmpty() && !isUrl(requirement))
            spec.pipNames.append(distribution);
    }

    readApt(spec);
    return spec;
}

Result<EnvironmentSpec> EnvironmentSpec::read(const QString &workspace)
{
    QByteArray contents[2];
    const QString names[2] = {kRequirements, kApt};
    for (int i = 0; i < 2; ++i) {
        const QFileInfo info(QDir(workspace).filePath(names[i]));
        if (!info.exists() && !info.isSymLink())
            continue;
        if (info.isSymLink() || !info.isFile())
            return Result<EnvironmentSpec>::failure(
                QStringLiteral("%1 is not a regular file").arg(names[i]));
        if (info.size() > kMaxFileBytes)
            return Result<EnvironmentSpec>::failure(
                QStringLiteral("%1 is larger than %2 KiB").arg(names[i]).arg(kMaxFileBytes / 1024));
        QFile file(info.filePath());
        if (!file.open(QIODevice::ReadOnly))
            return Result<EnvironmentSpec>::failure(
                QStringLiteral("cannot read %1: %2").arg(names[i], file.errorString()));
        contents[i] = file.read(kMaxFileBytes + 1);
    }
    return Result<EnvironmentSpec>::ok(parse(contents[0], contents[1], workspace));
}

bool EnvironmentSpec::hasRefusals() const
{
    return std::any_of(
        concerns.cbegin(), concerns.cend(), [](const Concern &c) { return !c.confirmable; });
}

bool EnvironmentSpec::needsConfirmation() const
{
    return std::any_of(
        concerns.cbegin(), concerns.cend(), [](const Concern &c) { return c.confirmable; });
}

QStringList EnvironmentSpec::describeConcerns() const
{
    QStringList lines;
    for (const Concern &c : concerns)
        lines.append(QStringLiteral("%1:%2: %3: %4").arg(c.file).arg(c.line).arg(c.text, c.reason));
    return lines;
}

QStringList EnvironmentSpec::requirementLines() const
{
    QStringList lines;
    for (const LogicalLine &line : logicalLines(requirements))
        lines.append(line.text);
    return lines;
}

QString EnvironmentSpec::localTarget(int index, const QString &absolute)
{
    return QStringLiteral("local/%1-%2").arg(index).arg(QFileInfo(absolute).fileName());
}

QByteArray EnvironmentSpec::rewrittenRequirements() const
{
    QByteArray out;
    for (const LogicalLine &line : logicalLines(requirements)) {
        QString text = line.text;
        for (int i = 0; i < localPaths.size(); ++i) {
            // The path starts the line; its extras, markers and hashes stay as written (a second
            // copy of the path among them is not the path).
            const LocalPath &path = localPaths.at(i);
            if (path.line == line.number && text.startsWith(path.written))
                text.replace(
                    0, path.written.size(), QStringLiteral("./") + localTarget(i, path.absolute));
        }
        out += text.toUtf8() + '\n';
    }
    return out;
}

bool EnvironmentSpec::isRegularFile(const QString &path)
{
    struct stat st
    {
    };
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0 && S_ISREG(st.st_mode);
}

QString EnvironmentSpec::contentHash() const
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(QByteArrayLiteral("requirements\n"));
    hash.addData(requirements);
    hash.addData(QByteArrayLiteral("\napt\n"));
    hash.addData(apt);
    // What a local path in the folder holds is part of what gets installed: its files' names and
    // bytes, the bytes of the first kHashedBytes only (then names, sizes and times), at most
    // kHashedFiles files; regular files only (a FIFO would never end). A path outside the folder
    // counts by its name alone: it is not read before the person confirms it.
    qint64 budget = kHashedBytes;
    for (const LocalPath &path : localPaths) {
        hash.addData(QByteArray(path.absolute.toUtf8() + '\n'));
        if (!path.inside)
            continue;
        QStringList files;
        if (QFileInfo(path.absolute).isDir()) {
            QDirIterator it(path.absolute,
                            QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot | QDir::NoSymLinks,
                            QDirIterator::Subdirectories);
            while (it.hasNext() && files.size() < kHashedFiles)
                files.append(it.next());
            files.sort();
        } else {
            files.append(path.absolute);
        }
        for (const QString &name : files) {
            hash.addData(QByteArray(name.toUtf8() + '\n'));
            if (!isRegularFile(name))
                continue;
            const QFileInfo info(name);
            if (info.size() > budget) {
                hash.addData(QStringLiteral("%1 %2\n")
                                 .arg(info.size())
                                 .arg(info.lastModified().toMSecsSinceEpoch())
                                 .toUtf8());
                continue;
            }
            QFile file(name);
            if (file.open(QIODevice::ReadOnly)) {
                hash.addData(&file);
                budget -= info.size();
            }
        }
    }
    return QString::fromLatin1(hash.result().toHex());
}

} // namespace Sandcastle
