#include "codeeditor.h"

#include <Qsci/qscilexerbash.h>
#include <Qsci/qscilexerdiff.h>
#include <Qsci/qscilexerpython.h>

#include <ui/theme.h>

#include <QApplication>
#include <QEvent>
#include <QFontDatabase>

namespace Sandcastle {

CodeEditor::CodeEditor(QWidget *parent)
    : QsciScintilla(parent)
{
    setUtf8(true);
    setLanguage(QStringLiteral("python"));
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

qsizetype CodeEditor::longestLine(QStringView text)
{
    qsizetype longest = 0;
    for (qsizetype at = 0; at <= text.size();) {
        qsizetype eol = text.indexOf(QLatin1Char('\n'), at);
        if (eol < 0)
            eol = text.size();
        longest = std::max(longest, eol - at);
        at = eol + 1;
    }
    return longest;
}

void CodeEditor::setText(const QString &text)
{
    m_withheld = longestLine(text) > LongestShownLine;
    if (!m_withheld) {
        QsciScintilla::setText(text);
        return;
    }
    QsciScintilla::setText(
        tr("# Not shown: this code has a line of more than %L1 characters, too long to show\n"
           "# and edit here. The transcript has it whole (right-click, Open as text).\n")
            .arg(LongestShownLine));
}

void CodeEditor::showStreamingCode(const QString &code)
{
    const bool wasReadOnly = isReadOnly();
    setReadOnly(false);
    // Appending keeps the view still while the code grows; replace only when it diverged. What
    // was shown is remembered rather than read back: reading a megabyte out of the editor on
    // every piece of a stream would cost as much as the stream is long, each time.
    const bool grows = !m_streamed.isEmpty() && code.startsWith(m_streamed);
    const bool noteShown = grows && longestLine(m_streamed) > LongestShownLine;
    if (grows && length() == m_streamedLength && longestLine(code) <= LongestShownLine)
        append(code.mid(m_streamed.size()));
    else if (!noteShown) // else the note that it is not shown stays
        setText(code);
    m_streamed = code;
    m_streamedLength = length();
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
    applyColours();
}

void CodeEditor::changeEvent(QEvent *event)
{
    QsciScintilla::changeEvent(event);
    if (event->type() == QEvent::PaletteChange
        || event->type() == QEvent::ApplicationPaletteChange) {
        const bool dark = paletteIsDark();
        if (dark != m_dark) {
            const QString language = m_language;
            m_language = QStringLiteral("\x01"); // forces a fresh lexer with its own colours
            setLanguage(language);
        }
    }
}

void CodeEditor::applyColours()
{
    m_dark = paletteIsDark();
    const QPalette p = QApplication::palette();
    setMarginsBackgroundColor(p.color(QPalette::Window));
    setMarginsForegroundColor(p.color(QPalette::PlaceholderText));
    setCaretForegroundColor(p.color(QPalette::Text));
    setCaretLineBackgroundColor(m_dark ? QColor(0x2a, 0x2d, 0x33) : QColor(0xf2, 0xf5, 0xfa));
    setSelectionBackgroundColor(p.color(QPalette::Highlight));
    setSelectionForegroundColor(p.color(QPalette::HighlightedText));
    setFoldMarginColors(p.color(QPalette::Window), p.color(QPalette::Window));
    QsciLexer *current = lexer();
    if (!current) {
        setPaper(p.color(QPalette::Base));
        setColor(p.color(QPalette::Text));
        return;
    }
    if (!m_dark)
        return;                                 // the lexers' own colours are made for a light page
    current->setPaper(p.color(QPalette::Base)); // every style
    current->setDefaultPaper(p.color(QPalette::Base));
    current->setDefaultColor(p.color(QPalette::Text));
    current->setColor(p.color(QPalette::Text)); // every style, then the accents below
    const auto set = [current](int style, QRgb rgb) {
        current->setColor(QColor(rgb), style);
    };
    if (m_language == QLatin1String("python")) {
        set(QsciLexerPython::Comment, 0x6a9955);
        set(QsciLexerPython::CommentBlock, 0x6a9955);
        set(QsciLexerPython::Number, 0xb5cea8);
        for (int s : {QsciLexerPython::DoubleQuotedString,
                      QsciLexerPython::SingleQuotedString,
                      QsciLexerPython::TripleSingleQuotedString,
                      QsciLexerPython::TripleDoubleQuotedString,
                      QsciLexerPython::DoubleQuotedFString,
                      QsciLexerPython::SingleQuotedFString,
                      QsciLexerPython::TripleSingleQuotedFString,
                      QsciLexerPython::TripleDoubleQuotedFString})
            set(s, 0xce9178);
        set(QsciLexerPython::Keyword, 0x569cd6);
        set(QsciLexerPython::ClassName, 0x4ec9b0);
        set(QsciLexerPython::FunctionMethodName, 0xdcdcaa);
        set(QsciLexerPython::Decorator, 0xc586c0);
        set(QsciLexerPython::UnclosedString, 0xf44747);
    } else if (m_language == QLatin1String("bash")) {
        set(QsciLexerBash::Comment, 0x6a9955);
        set(QsciLexerBash::Number, 0xb5cea8);
        set(QsciLexerBash::Keyword, 0x569cd6);
        set(QsciLexerBash::DoubleQuotedString, 0xce9178);
        set(QsciLexerBash::SingleQuotedString, 0xce9178);
        set(QsciLexerBash::Identifier, 0x9cdcfe);
        set(QsciLexerBash::ParameterExpansion, 0x9cdcfe);
    } else if (m_language == QLatin1String("diff")) {
        set(QsciLexerDiff::Comment, 0x6a9955);
        set(QsciLexerDiff::Header, 0x569cd6);
        set(QsciLexerDiff::Position, 0xc586c0);
        set(QsciLexerDiff::LineRemoved, 0xf48771);
        set(QsciLexerDiff::LineAdded, 0x89d185);
        set(QsciLexerDiff::LineChanged, 0xdcdcaa);
    }
}

void CodeEditor::setAgentWriting(bool writing)
{
    m_agentWriting = writing;
    setReadOnly(writing);
}

} // namespace Sandcastle
