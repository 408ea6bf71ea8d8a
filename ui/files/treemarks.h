#pragma once

#include <app/gitstatus.h>

#include <QColor>
#include <QCoreApplication>
#include <QHash>
#include <QSet>
#include <QStringList>
#include <QVariant>

#include <optional>

namespace Sandcastle {

// The marks the project tree puts on its rows, by path relative to the root: the files the
// last run made (bold), those the agent changed in the last turn (italic), and git's status
// against HEAD (a letter and a colour; a folder gets a dot when something below it changed and
// names its deleted files in its tooltip, since they have no row of their own).
class TreeMarks
{
    Q_DECLARE_TR_FUNCTIONS(Sandcastle::TreeMarks)
public:
    // Each replaces the previous set; returns the paths whose marks may have changed.
    QSet<QString> setRunChanges(const QStringList &relativePaths);
    QSet<QString> setTurnChanges(const QStringList &relativePaths);
    void setGitStatus(const GitStatus::Snapshot &snapshot);
    void clear();
    bool isEmpty() const;

    bool isRunChange(const QString &path) const { return m_run.contains(path); }
    bool isTurnChange(const QString &path) const { return m_turn.contains(path); }
    std::optional<GitStatus::Change> gitChange(const QString &path, bool isDir) const;
    bool hasGitChangesBelow(const QString &folder) const { return m_gitFolders.contains(folder); }
    QStringList deletedIn(const QString &folder) const { return m_deletedIn.value(folder); }

    // What a row shows: the second column's text and colour, the name's font and colour (an
    // invalid QVariant: the view's default), and the lines of its tooltip after its path.
    QVariant statusText(const QString &path, bool isDir) const;
    QVariant statusColour(const QString &path, bool isDir) const;
    QVariant font(const QString &path) const;
    QVariant nameColour(const QString &path, bool isDir, bool ignored) const;
    QStringList tooltip(const QString &path, bool isDir, bool ignored) const;

    static QColor colourOf(GitStatus::Change change);
    static QString letterOf(GitStatus::Change change);

private:
    QSet<QString> m_run;
    QSet<QString> m_turn;
    QHash<QString, GitStatus::Change> m_git;
    QSet<QString> m_gitFolders;              // folders with a change below them
    QHash<QString, QStringList> m_deletedIn; // folder -> names of its deleted files
};

} // namespace Sandcastle
