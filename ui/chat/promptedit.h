#pragma once

#include <QPlainTextEdit>

namespace Sandcastle {

// The prompt box: Enter sends, Shift+Enter starts a new line.
class PromptEdit : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit PromptEdit(QWidget *parent = nullptr);

Q_SIGNALS:
    void submitted(const QString &text);

protected:
    void keyPressEvent(QKeyEvent *event) override;
};

} // namespace Sandcastle
