#pragma once

#include <QDialog>
#include <QList>

class QAction;
class QLineEdit;
class QListWidget;

namespace Sandcastle {

// Ctrl+Shift+P: every action of the window by name, filtered as the person types (all words
// must occur, in any order); Enter runs the selected one.
class CommandPalette : public QDialog
{
    Q_OBJECT
public:
    CommandPalette(const QList<QAction *> &actions, QWidget *parent = nullptr);

    QLineEdit *filterBox() const { return m_filter; }
    QListWidget *list() const { return m_list; }
    // The action's label without its mnemonic ampersand.
    static QString label(const QAction *action);
    static bool matches(const QString &label, const QString &filter);

private:
    void refilter();
    void runCurrent();

    QList<QAction *> m_actions;
    QLineEdit *m_filter = nullptr;
    QListWidget *m_list = nullptr;
};

// F1: every action with its shortcut.
class ShortcutsDialog : public QDialog
{
    Q_OBJECT
public:
    ShortcutsDialog(const QList<QAction *> &actions, QWidget *parent = nullptr);
};

} // namespace Sandcastle
