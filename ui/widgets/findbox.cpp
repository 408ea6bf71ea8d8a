#include "findbox.h"
#include "clearbutton.h"

#include <QAbstractScrollArea>
#include <QEvent>
#include <QGuiApplication>
#include <QKeyEvent>

namespace Sandcastle {

FindBox::FindBox(QAbstractScrollArea *area, Finder find)
    : QLineEdit(area)
    , m_area(area)
    , m_find(std::move(find))
{
    setPlaceholderText(tr("Find (Enter: next, Shift+Enter: previous)"));
    enableClearButtonWhenTyped(this);
    hide();
    area->installEventFilter(this);
    connect(this, &QLineEdit::returnPressed, this, [this] {
        findNext(QGuiApplication::keyboardModifiers() & Qt::ShiftModifier);
    });
}

void FindBox::start()
{
    place();
    show();
    raise();
    setFocus();
    selectAll();
}

bool FindBox::findNext(bool backwards)
{
    const bool found = !text().isEmpty() && m_find(text(), backwards);
    setStyleSheet(found || text().isEmpty() ? QString()
                                            : QStringLiteral("QLineEdit { color: #cb2431; }"));
    return found;
}

bool FindBox::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_area && event->type() == QEvent::Resize && isVisible())
        place();
    return QLineEdit::eventFilter(watched, event);
}

void FindBox::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape) {
        hide();
        m_area->setFocus();
        return;
    }
    QLineEdit::keyPressEvent(event);
    // QLineEdit lets Enter go on to its parent (for a dialog's default button): here the parent
    // is the pane, and an editor would put a new line in place of the match just found.
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter)
        event->accept();
}

void FindBox::place()
{
    const QRect viewport = m_area->viewport()->geometry();
    const int width = qMin(320, viewport.width() - 8);
    setGeometry(viewport.right() - width - 3, viewport.top() + 4, width, sizeHint().height());
}

} // namespace Sandcastle
