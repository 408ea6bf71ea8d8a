#pragma once

#include <QList>
#include <QRegularExpression>
#include <QString>

namespace Sandcastle {

// The rules of a tree's .gitignore files, as git reads them (gitignore(5)): blank lines and
// `#` comments skipped, trailing spaces dropped unless escaped, `!` re-includes, a trailing `/`
// matches folders only, a pattern with a `/` before its end is anchored to its file's folder
// (otherwise it matches a name at any depth below it), `*` `?` `[...]` never match `/`, `**`
// matches across folders. Rules of deeper files come after those above them and the last
// match wins; what lies inside an ignored folder is ignored whatever its own rules say (git
// does not look inside). Paths are relative to the root, '/'-separated.
class GitIgnore
{
public:
    // The rules of the .gitignore in `folder` ("" for the root). Add the files of a tree from
    // the root down, a folder's before its subfolders'.
    void addRules(const QString &folder, const QString &text);
    bool isEmpty() const { return m_rules.isEmpty(); }

    // Whether `path` (a folder when `isDir`) is ignored, its folders on the way included.
    bool isIgnored(const QString &path, bool isDir) const;
    // The same for the path alone, its folders taken as not ignored (a tree walk that does not
    // go into ignored folders asks only this).
    bool matches(const QString &path, bool isDir) const;

private:
    struct Rule
    {
        QString folder; // "" or "a/b/": where its file lies
        QRegularExpression pattern;
        bool negated = false;
        bool dirOnly = false;
    };
    static QString regexFor(const QString &glob);
    QList<Rule> m_rules;
};

} // namespace Sandcastle
