#include "treemarks.h"

#include <QDir>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>

namespace Sandcastle {

namespace {

QSet<QString> cleanSet(const QStringList &relativePaths)
{
    QSet<QString> paths;
    for (const QString &path : relativePaths)
        paths.insert(QDir::cleanPath(path));
    return paths;
}

} // namespace

QColor TreeMarks::colourOf(GitStatus::Change change)
{
    switch (change) {
    case GitStatus::Change::Modified:
    case GitStatus::Change::Renamed:
        return QColor(0xc0, 0x7a, 0x10); // orange
    case GitStatus::Change::Added:
    case GitStatus::Change::Untracked:
        return QColor(0x2e, 0x9a, 0x45); // green
    case GitStatus::Change::Deleted:
    case GitStatus::Change::Conflicted:
        return QColor(0xcc, 0x33, 0x33); // red
    }
    return {};
}

QString TreeMarks::letterOf(GitStatus::Change change)
{
    switch (change) {
    case GitStatus::Change::Modified:
        return QStringLiteral("M");
    case GitStatus::Change::Added:
        return QStringLiteral("A");
    case GitStatus::Change::Deleted:
        return QStringLiteral("D");
    case GitStatus::Change::Renamed:
        return QStringLiteral("R");
    case GitStatus::Change::Untracked:
        return QStringLiteral("U");
    case GitStatus::Change::Conflicted:
        return QStringLiteral("C");
    }
    return {};
}

QSet<QString> TreeMarks::setRunChanges(const QStringList &relativePaths)
{
    QSet<QString> paths = cleanSet(relativePaths);
    return paths + std::exchange(m_run, paths);
}

QSet<QString> TreeMarks::setTurnChanges(const QStringList &relativePaths)
{
    QSet<QString> paths = cleanSet(relativePaths);
    return paths + std::exchange(m_turn, paths);
}

void TreeMarks::setGitStatus(const GitStatus::Snapshot &snapshot)
{
    m_git = snapshot.changes;
    m_gitFolders.clear();
    m_deletedIn.clear();
    for (auto it = m_git.cbegin(); it != m_git.cend(); ++it) {
        QString path = it.key();
        if (path.endsWith(QLatin1Char('/')))
            path.chop(1);
        const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
        if (it.value() == GitStatus::Change::Deleted)
            m_deletedIn[slash < 0 ? QString() : path.left(slash)] << path.mid(slash + 1);
        for (qsizetype s = slash; s > 0; s = path.lastIndexOf(QLatin1Char('/'), s - 1))
            m_gitFolders.insert(path.left(s));
    }
    for (QStringList &names : m_deletedIn)
        names.sort();
}

void TreeMarks::clear()
{
    *this = TreeMarks();
}

bool TreeMarks::isEmpty() const
{
    return m_run.isEmpty() && m_turn.isEmpty() && m_git.isEmpty() && m_deletedIn.isEmpty();
}

std::optional<GitStatus::Change> TreeMarks::gitChange(const QString &path, bool isDir) const
{
    if (m_git.isEmpty())
        return std::nullopt;
    const auto it = m_git.constFind(isDir ? path + QLatin1Char('/') : path);
    if (it != m_git.cend())
        return it.value();
    // Inside a folder git reports as untracked as a whole.
    for (qsizetype s = path.lastIndexOf(QLatin1Char('/')); s > 0;
         s = path.lastIndexOf(QLatin1Char('/'), s - 1)) {
        const auto up = m_git.constFind(path.left(s + 1));
        if (up != m_git.cend() && up.value() == GitStatus::Change::Untracked)
            return up.value();
    }
    return std::nullopt;
}

QVariant TreeMarks::statusText(const QString &path, bool isDir) const
{
    if (const auto change = gitChange(path, isDir))
        return letterOf(*change);
    return isDir && hasGitChangesBelow(path) ? QVariant(QStringLiteral("•")) : QVariant();
}

QVariant TreeMarks::statusColour(const QString &path, bool isDir) const
{
    if (const auto change = gitChange(path, isDir))
        return colourOf(*change);
    return isDir && hasGitChangesBelow(path) ? QVariant(colourOf(GitStatus::Change::Modified))
                                             : QVariant();
}

QVariant TreeMarks::font(const QString &path) const
{
    const bool bold = isRunChange(path);
    const bool italic = isTurnChange(path);
    if (!bold && !italic)
        return {};
    QFont font;
    font.setBold(bold);
    font.setItalic(italic);
    return font;
}

QVariant TreeMarks::nameColour(const QString &path, bool isDir, bool ignored) const
{
    if (const auto change = gitChange(path, isDir))
        return colourOf(*change);
    if (!ignored)
        return {};
    QColor grey = QGuiApplication::palette().color(QPalette::Text);
    grey.setAlphaF(0.45f);
    return grey;
}

QStringList TreeMarks::tooltip(const QString &path, bool isDir, bool ignored) const
{
    QStringList lines;
    if (isRunChange(path))
        lines << tr("Made or changed by the last run");
    if (isTurnChange(path))
        lines << tr("Changed by the agent in the last turn");
    if (ignored)
        lines << tr("Ignored (.gitignore)");
    if (const auto change = gitChange(path, isDir)) {
        switch (*change) {
        case GitStatus::Change::Modified:
            lines << tr("Modified since the last commit");
            break;
        case GitStatus::Change::Added:
            lines << tr("Added to the index, not yet committed");
            break;
        case GitStatus::Change::Deleted:
            lines << tr("Deleted");
            break;
        case GitStatus::Change::Renamed:
            lines << tr("Renamed");
            break;
        case GitStatus::Change::Untracked:
            lines << tr("New: not tracked by git");
            break;
        case GitStatus::Change::Conflicted:
            lines << tr("In conflict");
            break;
        }
    } else if (isDir && hasGitChangesBelow(path)) {
        lines << tr("Contains changes since the last commit");
    }
    const QStringList deleted = isDir ? deletedIn(path) : QStringList();
    if (!deleted.isEmpty())
        lines
            << tr("Deleted here since the last commit: %1").arg(deleted.join(QStringLiteral(", ")));
    return lines;
}

} // namespace Sandcastle
