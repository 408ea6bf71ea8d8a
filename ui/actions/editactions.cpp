#include "editactions.h"

#include <ui/icons.h>

#include <Qsci/qsciscintilla.h>

#include <QAction>
#include <QApplication>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTextEdit>

namespace Sandcastle {

namespace {

// What a text widget can do now: undo, redo, cut, copy, paste, select all.
struct Abilities
{
    bool undo = false;
    bool redo = false;
    bool cut = false;
    bool copy = false;
    bool paste = false;
    bool selectAll = false;
};

// QPlainTextEdit and QTextEdit: a document and a cursor.
template<typename Edit>
Abilities documentAbilities(const Edit *edit)
{
    const bool writable = !edit->isReadOnly();
    const bool selected = edit->textCursor().hasSelection();
    return {writable && edit->document()->isUndoAvailable(),
            writable && edit->document()->isRedoAvailable(),
            writable && selected,
            selected,
            writable,
            true};
}

Abilities abilitiesOf(QWidget *widget)
{
    if (auto *sci = qobject_cast<QsciScintilla *>(widget)) {
        const bool writable = !sci->isReadOnly();
        return {writable && sci->isUndoAvailable(),
                writable && sci->isRedoAvailable(),
                writable && sci->hasSelectedText(),
                sci->hasSelectedText(),
                writable,
                true};
    }
    if (auto *line = qobject_cast<QLineEdit *>(widget)) {
        const bool writable = !line->isReadOnly();
        const bool secret = line->echoMode() != QLineEdit::Normal;
        return {writable && line->isUndoAvailable(),
                writable && line->isRedoAvailable(),
                writable && !secret && line->hasSelectedText(),
                !secret && line->hasSelectedText(),
                writable,
                true};
    }
    if (auto *plain = qobject_cast<QPlainTextEdit *>(widget))
        return documentAbilities(plain);
    if (auto *rich = qobject_cast<QTextEdit *>(widget))
        return documentAbilities(rich);
    return {};
}

bool isTextWidget(QWidget *widget)
{
    return qobject_cast<QsciScintilla *>(widget) || qobject_cast<QLineEdit *>(widget)
           || qobject_cast<QPlainTextEdit *>(widget) || qobject_cast<QTextEdit *>(widget);
}

} // namespace

EditActions::EditActions(QWidget *window)
    : QObject(window)
    , m_window(window)
{
    const struct
    {
        Kind kind;
        const char *text;
        QKeySequence::StandardKey key;
        const char *name;
        const char *icon;
    } specs[] = {
        {Kind::Undo, QT_TR_NOOP("&Undo"), QKeySequence::Undo, "editUndo", "undo"},
        {Kind::Redo, QT_TR_NOOP("&Redo"), QKeySequence::Redo, "editRedo", "redo"},
        {Kind::Cut, QT_TR_NOOP("Cu&t"), QKeySequence::Cut, "editCut", "cut"},
        {Kind::Copy, QT_TR_NOOP("&Copy"), QKeySequence::Copy, "editCopy", "copy"},
        {Kind::Paste, QT_TR_NOOP("&Paste"), QKeySequence::Paste, "editPaste", "paste"},
        {Kind::SelectAll,
         QT_TR_NOOP("Select &All"),
         QKeySequence::SelectAll,
         "editSelectAll",
         "select-all"},
        {Kind::Find, QT_TR_NOOP("&Find…"), QKeySequence::Find, "editFind", "find"},
    };
    for (const auto &spec : specs) {
        auto *action = new QAction(tr(spec.text), this);
        action->setObjectName(QLatin1String(spec.name));
        action->setShortcuts(QKeySequence::keyBindings(spec.key));
        action->setIcon(actionIcon(spec.icon));
        const Kind kind = spec.kind;
        connect(action, &QAction::triggered, this, [this, kind] { trigger(kind); });
        m_actions << action;
    }
    connect(qApp, &QApplication::focusChanged, this, &EditActions::update);
    update();
}

QAction *EditActions::action(Kind kind) const
{
    return m_actions.at(int(kind));
}

QList<QAction *> EditActions::actions() const
{
    return m_actions;
}

void EditActions::addPane(QWidget *pane, std::function<void()> find, std::function<void()> copy)
{
    m_panes.push_back({pane, std::move(find), std::move(copy)});
    update();
}

const EditActions::Pane *EditActions::paneOf(const QWidget *widget) const
{
    for (const Pane &pane : m_panes) {
        if (widget && (widget == pane.widget || pane.widget->isAncestorOf(widget)))
            return &pane;
    }
    return nullptr;
}

void EditActions::update()
{
    // The focus in a dialog of the window's (the command palette) leaves the target as it was:
    // what the palette runs acts on the pane the person was in.
    QWidget *now = QApplication::focusWidget();
    if (now && now->window() == m_window)
        m_target = now;
    else if (now)
        return;
    QWidget *focus = m_target;
    const Abilities can = abilitiesOf(focus);
    const Pane *pane = paneOf(focus);
    action(Kind::Undo)->setEnabled(can.undo);
    action(Kind::Redo)->setEnabled(can.redo);
    action(Kind::Cut)->setEnabled(can.cut);
    action(Kind::Copy)->setEnabled(can.copy || (!isTextWidget(focus) && pane && pane->copy));
    action(Kind::Paste)->setEnabled(can.paste);
    action(Kind::SelectAll)->setEnabled(can.selectAll);
    action(Kind::Find)->setEnabled(pane && pane->find);
}

void EditActions::trigger(Kind kind)
{
    QWidget *focus = m_target;
    const Pane *pane = paneOf(focus);
    if (kind == Kind::Find) {
        if (pane && pane->find)
            pane->find();
        return;
    }
    if (kind == Kind::Copy && !isTextWidget(focus)) {
        if (pane && pane->copy)
            pane->copy();
        return;
    }
    static const char *const methods[] = {"undo", "redo", "cut", "copy", "paste", "selectAll"};
    if (auto *sci = qobject_cast<QsciScintilla *>(focus); sci && kind == Kind::SelectAll) {
        sci->selectAll(true); // QScintilla's selectAll takes an argument
        return;
    }
    if (isTextWidget(focus))
        QMetaObject::invokeMethod(focus, methods[int(kind)]);
}

} // namespace Sandcastle
