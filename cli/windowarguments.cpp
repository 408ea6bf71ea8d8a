#include "windowarguments.h"

#include "cli.h"

#include <algorithm>
#include <vector>

namespace Sandcastle::Cli {

namespace {

// Qt's own command-line options (QGuiApplication and QApplication), with one or two dashes.
bool isQtOption(const QString &name, bool *takesValue)
{
    static const QStringList withValue{QStringLiteral("platform"),
                                       QStringLiteral("platformpluginpath"),
                                       QStringLiteral("platformtheme"),
                                       QStringLiteral("plugin"),
                                       QStringLiteral("style"),
                                       QStringLiteral("stylesheet"),
                                       QStringLiteral("session"),
                                       QStringLiteral("display"),
                                       QStringLiteral("geometry"),
                                       QStringLiteral("qwindowgeometry"),
                                       QStringLiteral("qwindowicon"),
                                       QStringLiteral("qwindowtitle"),
                                       QStringLiteral("title"),
                                       QStringLiteral("name"),
                                       QStringLiteral("qmljsdebugger")};
    static const QStringList flags{QStringLiteral("reverse"),
                                   QStringLiteral("nograb"),
                                   QStringLiteral("dograb"),
                                   QStringLiteral("sync"),
                                   QStringLiteral("widgetcount")};
    *takesValue = withValue.contains(name);
    return *takesValue || flags.contains(name);
}

int editDistance(const QString &a, const QString &b)
{
    std::vector<int> row(static_cast<size_t>(b.size()) + 1);
    for (size_t j = 0; j < row.size(); ++j)
        row[j] = static_cast<int>(j);
    for (qsizetype i = 1; i <= a.size(); ++i) {
        int diagonal = row[0];
        row[0] = static_cast<int>(i);
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const int above = row[static_cast<size_t>(j)];
            const int substitution = diagonal + (a.at(i - 1) == b.at(j - 1) ? 0 : 1);
            row[static_cast<size_t>(j)]
                = std::min({above + 1, row[static_cast<size_t>(j - 1)] + 1, substitution});
            diagonal = above;
        }
    }
    return row.back();
}

QString unknownWord(const QString &word)
{
    if (word.startsWith(QLatin1Char('-')))
        return QStringLiteral("unknown option '%1'").arg(word);
    const QString near = nearestCommand(word);
    return near.isEmpty()
               ? QStringLiteral("unknown command '%1'").arg(word)
               : QStringLiteral("unknown command '%1' (did you mean '%2'?)").arg(word, near);
}

} // namespace

QString nearestCommand(const QString &word)
{
    QString best;
    int bestDistance = 3; // two edits at most
    for (const QString &command : commandNames()) {
        const int distance = editDistance(word.toLower(), command);
        if (distance < bestDistance) {
            bestDistance = distance;
            best = command;
        }
    }
    return best;
}

WindowArguments parseWindowArguments(const QStringList &args)
{
    WindowArguments parsed;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &word = args.at(i);
        if (word == QLatin1String("--workspace")
            || word.startsWith(QLatin1String("--workspace="))) {
            const bool joined = word.contains(QLatin1Char('='));
            if (!joined && i + 1 >= args.size()) {
                parsed.error
                    = QStringLiteral("--workspace needs a folder: sandcastle --workspace DIR");
                return parsed;
            }
            parsed.workspace = joined ? word.section(QLatin1Char('='), 1) : args.at(++i);
            if (parsed.workspace.isEmpty()) {
                parsed.error
                    = QStringLiteral("--workspace needs a folder: sandcastle --workspace DIR");
                return parsed;
            }
            continue;
        }
        bool takesValue = false;
        if (word.startsWith(QLatin1Char('-'))) {
            const QString name = word.mid(word.startsWith(QLatin1String("--")) ? 2 : 1);
            if (isQtOption(name.section(QLatin1Char('='), 0, 0), &takesValue)) {
                if (takesValue && !name.contains(QLatin1Char('=')) && ++i >= args.size()) {
                    parsed.error = QStringLiteral("%1 needs a value").arg(word);
                    return parsed;
                }
                continue;
            }
        }
        parsed.error = unknownWord(word);
        return parsed;
    }
    return parsed;
}

} // namespace Sandcastle::Cli
