#pragma once

#include <QDialog>

class QPlainTextEdit;

namespace Sandcastle {

// A long text of the transcript whole, as plain text, to read, search and copy, and to save.
class TextViewer : public QDialog
{
    Q_OBJECT
public:
    TextViewer(const QString &title, const QString &text, QWidget *parent = nullptr);

    QPlainTextEdit *editor() const { return m_text; }

    // Asks where, then writes `text` there; says so when it could not.
    static void saveAs(QWidget *parent, const QString &text, const QString &suggestedName);

private:
    QPlainTextEdit *m_text = nullptr;
};

} // namespace Sandcastle
