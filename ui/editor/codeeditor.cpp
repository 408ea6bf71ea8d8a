#include "codeeditor.h"

#include <Qsci/qscilexerbash.h>
#include <Qsci/qscilexerdiff.h>
#include <Qsci/qscilexerpython.h>

#include <QFontDatabase>

namespace Sandcastle {

CodeEditor::CodeEditor(QWidget *parent)
    : QsciScintilla(parent)
{
    setLanguage(QStringLiteral("python"));
    setUtf8(true);
    setMarginType(0, QsciScintilla::NumberMargin);
    setMarginLineNumbers(0, true);
    setMarginWidth(0, QStringLiteral("0000"));
    setIndentationsUseTabs(false);
    setIndentationWidth(4);
    setAutoIndent(true);
    setTabWidth(4);
    setBraceMatching(QsciScintilla::SloppyBraceMatch);
    setCaretLineVisible(true);
    setFolding(QsciScintilla::BoxedTreeFoldStyle);
    setWrapMode(QsciScintilla::WrapNone);
    // Size the horizontal scroll range to the text, not to Scintilla's 2000 px default.
    SendScintilla(SCI_SETSCROLLWIDTH, 1);
    SendScintilla(SCI_SETSCROLLWIDTHTRACKING, 1);
}

void CodeEditor::showStreamingCode(const QString &code)
{
    const bool wasReadOnly = isReadOnly();
    setReadOnly(false);
    // Appending keeps the view still while the code grows; replace only when it diverged.
    const QString current = text();
    if (code.startsWith(current) && !current.isEmpty())
        append(code.mid(current.size()));
    else
        setText(code);
    setReadOnly(wasReadOnly);
    const int last = lines() - 1;
    ensureLineVisible(last < 0 ? 0 : last);
}

void CodeEditor::setLanguage(const QString &language)
{
    if (language == m_language && (lexer() || language.isEmpty()))
        return;
    m_language = language;
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    QsciLexer *old = lexer();
    QsciLexer *next = nullptr;
    if (language == QLatin1String("python"))
        next = new QsciLexerPython(this);
    else if (language == QLatin1String("bash"))
        next = new QsciLexerBash(this);
    else if (language == QLatin1String("diff"))
        next = new QsciLexerDiff(this);
    if (next) {
        next->setDefaultFont(mono);
        next->setFont(mono);
    }
    setLexer(next);
    if (!next)
        setFont(mono);
    if (old && old != next)
        old->deleteLater();
}

void CodeEditor::setAgentWriting(bool writing)
{
    m_agentWriting = writing;
    setReadOnly(writing);
}

} // namespace Sandcastle
