#pragma once

#include <QObject>
#include <QPointer>

#include <functional>
#include <vector>

class QAction;
class QWidget;

namespace Sandcastle {

// The Edit menu: undo, redo, cut, copy, paste, select all and find, acting on the pane that
// has the focus — a text field, the code editor, the console, the transcript. Each is enabled
// when the focused widget can do it (read when the focus moves and when the menu opens).
// Text widgets keep their own keys; the actions are for the menu, the palette, and the panes
// whose keys are not their own (find everywhere, copy in the transcript).
class EditActions : public QObject
{
    Q_OBJECT
public:
    enum class Kind { Undo, Redo, Cut, Copy, Paste, SelectAll, Find };

    explicit EditActions(QWidget *window);

    QAction *action(Kind kind) const;
    QList<QAction *> actions() const;
    // A pane that is not a text widget but can find, or copy what is current in it, while the
    // focus is anywhere inside it. Inner panes are registered before outer ones.
    void addPane(QWidget *pane, std::function<void()> find, std::function<void()> copy = {});
    // Reads what the focused widget can do now.
    void update();

private:
    struct Pane
    {
        QWidget *widget = nullptr;
        std::function<void()> find;
        std::function<void()> copy;
    };
    const Pane *paneOf(const QWidget *widget) const;
    void trigger(Kind kind);

    QWidget *m_window = nullptr;
    QPointer<QWidget> m_target; // the focused widget of the window, last seen
    QList<QAction *> m_actions;
    std::vector<Pane> m_panes;
};

} // namespace Sandcastle
