#pragma once

#include <QPlainTextEdit>

namespace Sandcastle {

// The prompt box: Enter sends, Shift+Enter starts a new line, Up in an empty box (or on its
// first line) recalls the prompts sent before, newest first, and Down goes back.
class PromptEdit : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit PromptEdit(QWidget *parent = nullptr);

    // A sent prompt, for Up to recall.
    void remember(const QString &text);

Q_SIGNALS:
    void submitted(const QString &text);

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    QStringList m_history;
    int m_recalled = -1; // index into m_history while walking it
    QString m_draft;     // what was typed before walking
};

} // namespace Sandcastle
