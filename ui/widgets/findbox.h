#pragma once

#include <QLineEdit>

#include <functional>

class QAbstractScrollArea;

namespace Sandcastle {

// The find box of a pane (Edit → Find, Ctrl+F): a line over the top right of a scroll area's
// viewport. Enter finds the next match, Shift+Enter the previous one (red when there is none),
// Escape closes it and gives the focus back to the pane.
class FindBox : public QLineEdit
{
    Q_OBJECT
public:
    // `find(text, backwards)` moves to the next match, wrapping around; false when none.
    using Finder = std::function<bool(const QString &text, bool backwards)>;
    FindBox(QAbstractScrollArea *area, Finder find);

    // Shows the box with its text selected, focused.
    void start();
    // Finds again (what Enter does).
    bool findNext(bool backwards = false);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    void place();

    QAbstractScrollArea *m_area = nullptr;
    Finder m_find;
};

} // namespace Sandcastle
