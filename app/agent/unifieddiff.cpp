#include "unifieddiff.h"

#include <QStringList>

#include <vector>

namespace Sandcastle {

namespace {

enum class Op { Keep, Remove, Add };

struct Edit
{
    Op op;
    QString line;
    int oldLine; // 1-based line in `before` (for Keep/Remove), the next one for Add
    int newLine; // 1-based line in `after` (for Keep/Add), the next one for Remove
};

QStringList splitLines(const QString &text)
{
    if (text.isEmpty())
        return {};
    QStringList lines = text.split(QLatin1Char('\n'));
    if (text.endsWith(QLatin1Char('\n')))
        lines.removeLast();
    return lines;
}

std::vector<Edit> editScript(const QStringList &a, const QStringList &b)
{
    const qsizetype n = a.size();
    const qsizetype m = b.size();
    std::vector<Edit> edits;
    if (n * m > 4'000'000) { // too big to diff line by line: replace everything
        for (qsizetype i = 0; i < n; ++i)
            edits.push_back({Op::Remove, a.at(i), int(i + 1), 1});
        for (qsizetype j = 0; j < m; ++j)
            edits.push_back({Op::Add, b.at(j), int(n + 1), int(j + 1)});
        return edits;
    }
    // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..]
    std::vector<std::vector<int>> lcs(size_t(n + 1), std::vector<int>(size_t(m + 1), 0));
    for (qsizetype i = n - 1; i >= 0; --i) {
        for (qsizetype j = m - 1; j >= 0; --j) {
            lcs[size_t(i)][size_t(j)]
                = a.at(i) == b.at(j)
                      ? lcs[size_t(i + 1)][size_t(j + 1)] + 1
                      : std::max(lcs[size_t(i + 1)][size_t(j)], lcs[size_t(i)][size_t(j + 1)]);
        }
    }
    qsizetype i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && a.at(i) == b.at(j)) {
            edits.push_back({Op::Keep, a.at(i), int(i + 1), int(j + 1)});
            ++i;
            ++j;
        } else if (j < m
                   && (i == n || lcs[size_t(i)][size_t(j + 1)] > lcs[size_t(i + 1)][size_t(j)])) {
            edits.push_back({Op::Add, b.at(j), int(i + 1), int(j + 1)});
            ++j;
        } else {
            edits.push_back({Op::Remove, a.at(i), int(i + 1), int(j + 1)});
            ++i;
        }
    }
    return edits;
}

QString range(int start, int count)
{
    // diff -u: "start,count", "start" when count is 1, and start-1 when the range is empty
    if (count == 1)
        return QString::number(start);
    return QStringLiteral("%1,%2").arg(count == 0 ? start - 1 : start).arg(count);
}

} // namespace

QString unifiedDiff(const QString &before,
                    const QString &after,
                    const QString &beforeName,
                    const QString &afterName,
                    int context)
{
    if (before == after)
        return {};
    const std::vector<Edit> edits = editScript(splitLines(before), splitLines(after));
    QString out = QStringLiteral("--- %1\n+++ %2\n").arg(beforeName, afterName);
    const qsizetype total = qsizetype(edits.size());
    qsizetype k = 0;
    while (k < total) {
        // find the next change
        while (k < total && edits[size_t(k)].op == Op::Keep)
            ++k;
        if (k >= total)
            break;
        qsizetype start = qMax<qsizetype>(0, k - context);
        // extend the hunk while changes are within 2*context lines of each other
        qsizetype end = k;
        qsizetype lastChange = k;
        while (end < total) {
            if (edits[size_t(end)].op != Op::Keep)
                lastChange = end;
            else if (end - lastChange > 2 * context)
                break;
            ++end;
        }
        end = qMin(total, lastChange + context + 1);
        int oldCount = 0, newCount = 0;
        for (qsizetype x = start; x < end; ++x) {
            if (edits[size_t(x)].op != Op::Add)
                ++oldCount;
            if (edits[size_t(x)].op != Op::Remove)
                ++newCount;
        }
        const Edit &first = edits[size_t(start)];
        out += QStringLiteral("@@ -%1 +%2 @@\n")
                   .arg(range(first.oldLine, oldCount), range(first.newLine, newCount));
        for (qsizetype x = start; x < end; ++x) {
            const Edit &e = edits[size_t(x)];
            out += (e.op == Op::Keep     ? QLatin1Char(' ')
                    : e.op == Op::Remove ? QLatin1Char('-')
                                         : QLatin1Char('+'))
                   + e.line + QLatin1Char('\n');
        }
        k = end;
    }
    return out;
}

} // namespace Sandcastle
