#include "promptedit.h"

#include <QKeyEvent>

namespace Sandcastle {

PromptEdit::PromptEdit(QWidget *parent)
    : QPlainTextEdit(parent)
{
    setPlaceholderText(tr("Ask anything — Enter to send, Shift+Enter for a new line"));
    setTabChangesFocus(true);
}

void PromptEdit::remember(const QString &text)
{
    if (!text.isEmpty() && (m_history.isEmpty() || m_history.last() != text))
        m_history << text;
    m_recalled = -1;
}

void PromptEdit::keyPressEvent(QKeyEvent *event)
{
    const bool plain = !(event->modifiers() & (Qt::ShiftModifier | Qt::ControlModifier));
    if (plain && event->key() == Qt::Key_Up && !m_history.isEmpty()
        && textCursor().blockNumber() == 0) {
        if (m_recalled < 0) {
            m_draft = toPlainText();
            m_recalled = int(m_history.size());
        }
        if (m_recalled > 0) {
            --m_recalled;
            setPlainText(m_history.at(m_recalled));
            moveCursor(QTextCursor::End);
        }
        event->accept();
        return;
    }
    if (plain && event->key() == Qt::Key_Down && m_recalled >= 0
        && textCursor().blockNumber() == document()->blockCount() - 1) {
        ++m_recalled;
        if (m_recalled >= m_history.size()) {
            m_recalled = -1;
            setPlainText(m_draft);
        } else {
            setPlainText(m_history.at(m_recalled));
        }
        moveCursor(QTextCursor::End);
        event->accept();
        return;
    }
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
