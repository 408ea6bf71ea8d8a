#include "promptedit.h"

#include <QKeyEvent>

namespace Sandcastle {

PromptEdit::PromptEdit(QWidget *parent)
    : QPlainTextEdit(parent)
{
    setPlaceholderText(tr("Ask anything — Enter to send, Shift+Enter for a new line"));
    setTabChangesFocus(true);
}

void PromptEdit::keyPressEvent(QKeyEvent *event)
{
    const bool enter = event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter;
    if (enter && !(event->modifiers() & Qt::ShiftModifier)) {
        const QString text = toPlainText().trimmed();
        if (!text.isEmpty())
            Q_EMIT submitted(text);
        event->accept();
        return;
    }
    QPlainTextEdit::keyPressEvent(event);
}

} // namespace Sandcastle
