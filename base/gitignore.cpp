#include "gitignore.h"

#include <QStringList>

namespace Sandcastle {

namespace {

// Drops trailing spaces that are not escaped with a backslash.
QString withoutTrailingSpaces(const QString &line)
{
    qsizetype end = line.size();
    while (end > 0 && line.at(end - 1) == QLatin1Char(' ')) {
        if (end >= 2 && line.at(end - 2) == QLatin1Char('\\'))
            break;
        --end;
    }
    return line.left(end);
}

} // namespace

QString GitIgnore::regexFor(const QString &glob)
{
    QString out;
    const qsizetype n = glob.size();
    for (qsizetype i = 0; i < n; ++i) {
        const QChar c = glob.at(i);
        if (c == QLatin1Char('*')) {
            const bool twin = i + 1 < n && glob.at(i + 1) == QLatin1Char('*');
            const bool atStart = i == 0 || glob.at(i - 1) == QLatin1Char('/');
            if (twin && atStart && (i + 2 == n || glob.at(i + 2) == QLatin1Char('/'))) {
                if (i + 2 == n) {
                    out += QStringLiteral(".*"); // "a/**": everything inside
                } else {
                    out += QStringLiteral("(?:.*/)?"); // "**/" : any folders, or none
                    ++i;                               // the slash
                }
                ++i; // the second star
                continue;
            }
            // Otherwise consecutive stars are one star: anything but a slash.
            while (i + 1 < n && glob.at(i + 1) == QLatin1Char('*'))
                ++i;
            out += QStringLiteral("[^/]*");
        } else if (c == QLatin1Char('?')) {
            out += QStringLiteral("[^/]");
        } else if (c == QLatin1Char('[')) {
            qsizetype j = i + 1;
            QString set;
            if (j < n && (glob.at(j) == QLatin1Char('!') || glob.at(j) == QLatin1Char('^'))) {
                set += QLatin1Char('^');
                ++j;
            }
            if (j < n && glob.at(j) == QLatin1Char(']')) { // a leading ] is a member
                set += QStringLiteral("\\]");
                ++j;
            }
            while (j < n && glob.at(j) != QLatin1Char(']')) {
                const QChar m = glob.at(j);
                if (m == QLatin1Char('\\') && j + 1 < n) {
                    set += QRegularExpression::escape(QString(glob.at(j + 1)));
                    j += 2;
                    continue;
                }
                set += m == QLatin1Char('-') ? QString(m) : QRegularExpression::escape(QString(m));
                ++j;
            }
            if (j >= n) { // no closing bracket: a literal [
                out += QStringLiteral("\\[");
                continue;
            }
            out += QStringLiteral("(?!/)[") + set + QLatin1Char(']');
            i = j;
        } else if (c == QLatin1Char('\\') && i + 1 < n) {
            out += QRegularExpression::escape(QString(glob.at(++i)));
        } else {
            out += QRegularExpression::escape(QString(c));
        }
    }
    return out;
}

void GitIgnore::addRules(const QString &folder, const QString &text)
{
    QString base = folder;
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    if (!base.isEmpty())
        base += QLatin1Char('/');
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (QString line : lines) {
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
        line = withoutTrailingSpaces(line);
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        Rule rule;
        rule.folder = base;
        if (line.startsWith(QLatin1Char('!'))) {
            rule.negated = true;
            line.remove(0, 1);
        } else if (line.startsWith(QStringLiteral("\\!"))
                   || line.startsWith(QStringLiteral("\\#"))) {
            line.remove(0, 1);
        }
        if (line.endsWith(QLatin1Char('/'))) {
            rule.dirOnly = true;
            while (line.endsWith(QLatin1Char('/')))
                line.chop(1);
        }
        if (line.isEmpty())
            continue;
        // A slash at the start or in the middle anchors the pattern to its file's folder;
        // without one it matches a name at any depth.
        const bool anchored = line.contains(QLatin1Char('/'));
        if (line.startsWith(QLatin1Char('/')))
            line.remove(0, 1);
        const QString body = regexFor(line);
        rule.pattern = QRegularExpression(QStringLiteral("^")
                                              + (anchored ? QString() : QStringLiteral("(?:.*/)?"))
                                              + body + QStringLiteral("$"),
                                          QRegularExpression::DotMatchesEverythingOption);
        if (!rule.pattern.isValid())
            continue; // a pattern git would not match either
        m_rules.append(rule);
    }
}

bool GitIgnore::matches(const QString &path, bool isDir) const
{
    bool ignored = false;
    for (const Rule &rule : m_rules) {
        if (rule.dirOnly && !isDir)
            continue;
        if (!rule.folder.isEmpty() && !path.startsWith(rule.folder))
            continue;
        const QStringView inside = QStringView(path).mid(rule.folder.size());
        if (inside.isEmpty())
            continue; // a file's rules are about what lies below its folder
        if (rule.pattern.match(inside).hasMatch())
            ignored = !rule.negated;
    }
    return ignored;
}

bool GitIgnore::isIgnored(const QString &path, bool isDir) const
{
    if (m_rules.isEmpty())
        return false;
    // Each folder on the way first: what an ignored folder holds is ignored.
    qsizetype slash = path.indexOf(QLatin1Char('/'));
    while (slash >= 0) {
        if (matches(path.left(slash), true))
            return true;
        slash = path.indexOf(QLatin1Char('/'), slash + 1);
    }
    return matches(path, isDir);
}

} // namespace Sandcastle
