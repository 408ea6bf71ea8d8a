#include "fuzzymatch.h"

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

namespace Sandcastle {

namespace {

constexpr int Impossible = std::numeric_limits<int>::min() / 2;
constexpr int PerCharacter = 1;
constexpr int Consecutive = 8;
constexpr int SegmentStart = 10; // the path's start, or after '/'
constexpr int WordStart = 6;     // after '_', '-', '.', ' ', or a lower-to-upper case change
constexpr int InFileName = 3;

int bonusAt(QStringView path, qsizetype j, qsizetype nameStart)
{
    int bonus = PerCharacter + (j >= nameStart ? InFileName : 0);
    if (j == 0 || path.at(j - 1) == QLatin1Char('/'))
        return bonus + SegmentStart;
    const QChar before = path.at(j - 1);
    if (before == QLatin1Char('_') || before == QLatin1Char('-') || before == QLatin1Char('.')
        || before == QLatin1Char(' ') || (before.isLower() && path.at(j).isUpper()))
        return bonus + WordStart;
    return bonus;
}

} // namespace

FuzzyMatcher::FuzzyMatcher(const QString &query)
    : m_query(query.toLower())
{
    m_query.remove(QLatin1Char(' '));
}

int FuzzyMatcher::score(QStringView path, QStringView lowered) const
{
    const qsizetype m = m_query.size();
    const qsizetype n = lowered.size();
    if (m == 0)
        return 0;
    // A subsequence at all? Most paths fail here, cheaply.
    qsizetype q = 0;
    for (qsizetype j = 0; j < n && q < m; ++j) {
        if (lowered.at(j) == m_query.at(q))
            ++q;
    }
    if (q < m)
        return -1;
    // best[j]: the best score with the current query character matched at j.
    const qsizetype nameStart = lowered.lastIndexOf(QLatin1Char('/')) + 1;
    thread_local std::vector<int> previous;
    thread_local std::vector<int> current;
    previous.assign(std::size_t(n), Impossible);
    current.assign(std::size_t(n), Impossible);
    for (qsizetype j = 0; j < n; ++j) {
        if (lowered.at(j) == m_query.at(0))
            previous[std::size_t(j)] = bonusAt(path, j, nameStart);
    }
    for (qsizetype i = 1; i < m; ++i) {
        int bestBefore = Impossible; // over positions up to j - 2
        for (qsizetype j = 0; j < n; ++j) {
            int value = Impossible;
            if (j >= 1 && lowered.at(j) == m_query.at(i)) {
                const int chained = previous[std::size_t(j - 1)] == Impossible
                                        ? Impossible
                                        : previous[std::size_t(j - 1)] + Consecutive;
                const int from = std::max(chained, bestBefore);
                if (from != Impossible)
                    value = from + bonusAt(path, j, nameStart);
            }
            if (j >= 1)
                bestBefore = std::max(bestBefore, previous[std::size_t(j - 1)]);
            current[std::size_t(j)] = value;
        }
        std::swap(previous, current);
    }
    const int best = *std::max_element(previous.begin(), previous.end());
    if (best == Impossible)
        return -1;
    // Ties go to the shorter path.
    return best * 256 + std::max(0, 255 - int(n));
}

FuzzyMatcher::Ranking FuzzyMatcher::rank(const QStringList &paths,
                                         const QStringList &lowered,
                                         const QList<int> *candidates,
                                         int limit) const
{
    Ranking ranking;
    std::vector<std::pair<int, int>> scored; // score, index
    auto consider = [&](int i) {
        const int s = score(paths.at(i), lowered.at(i));
        if (s < 0)
            return;
        ranking.matches << i;
        scored.emplace_back(s, i);
    };
    if (candidates) {
        for (const int i : *candidates)
            consider(i);
    } else {
        for (int i = 0; i < paths.size(); ++i)
            consider(i);
    }
    auto better = [&paths](const std::pair<int, int> &a, const std::pair<int, int> &b) {
        if (a.first != b.first)
            return a.first > b.first;
        return paths.at(a.second) < paths.at(b.second);
    };
    const auto end
        = scored.begin()
          + std::ptrdiff_t(std::min<std::size_t>(scored.size(), std::size_t(std::max(0, limit))));
    std::partial_sort(scored.begin(), end, scored.end(), better);
    for (auto it = scored.begin(); it != end; ++it)
        ranking.best << it->second;
    return ranking;
}

} // namespace Sandcastle
