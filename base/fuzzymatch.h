#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace Sandcastle {

// Quick open's matcher: a query matches a path when its characters appear in the path in
// order (case aside). Among matches, characters that follow one another, that start a path
// segment ("src/|main", "read|_me", "camel|Case") and that lie in the file name score higher;
// a shorter path wins a tie. Pure, so ranking is tested without a window.
class FuzzyMatcher
{
public:
    explicit FuzzyMatcher(const QString &query);

    // -1 when the path does not match; otherwise higher is better. `lowered` is
    // path.toLower() (callers that match many times keep it).
    int score(QStringView path, QStringView lowered) const;
    int score(const QString &path) const { return score(path, path.toLower()); }

    struct Ranking
    {
        QList<int> matches; // every matching index, in the order given
        QList<int> best;    // the `limit` best, best first
    };
    // Ranks paths[i] for each i of `candidates` (all paths when null): the matches of a longer
    // query are among those of its prefix, so typing narrows the previous matches only.
    Ranking rank(const QStringList &paths,
                 const QStringList &lowered,
                 const QList<int> *candidates,
                 int limit) const;

private:
    QString m_query; // lower-cased
};

} // namespace Sandcastle
