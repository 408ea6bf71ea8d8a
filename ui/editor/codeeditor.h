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
    // Code with a line longer than this is not shown (a note says why): Scintilla lays a line
    // out again whole after every change, 35 ms for 100,000 characters, half a second for 1.5 MB.
    static constexpr qsizetype LongestShownLine = 20000;
    static qsizetype longestLine(QStringView text);
    void setText(const QString &text) override;
    // The code last given to setText() or showStreamingCode() has a line too long to show:
    // the editor holds the note that says so instead.
    bool isWithheld() const { return m_withheld; }
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
    bool m_withheld = false;
    QString m_language;
    QString m_streamed;        // the streaming code last shown
    int m_streamedLength = -1; // the editor's length (bytes) after it was
    bool m_dark = false;
    void applyColours();
};

} // namespace Sandcastle
