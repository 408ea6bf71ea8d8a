#pragma once

#include <Qsci/qsciscintilla.h>

namespace Sandcastle {

// The code editor: QScintilla with the Python lexer, line numbers and a monospace font. While
// the agent streams code into it, it is read-only so the person's edits cannot collide.
class CodeEditor : public QsciScintilla
{
    Q_OBJECT
public:
    explicit CodeEditor(QWidget *parent = nullptr);

    // Replaces the text with the code streamed so far, keeping the view at the end.
    void showStreamingCode(const QString &code);
    void setAgentWriting(bool writing);
    // "python" (the default), "bash", "diff", or anything else for plain text.
    void setLanguage(const QString &language);
    QString language() const { return m_language; }
    bool isDark() const { return m_dark; }
    bool isAgentWriting() const { return m_agentWriting; }

protected:
    void changeEvent(QEvent *event) override;

private:
    bool m_agentWriting = false;
    QString m_language;
    bool m_dark = false;
    void applyColours();
};

} // namespace Sandcastle
