#include "consolepane.h"

#include <QFontDatabase>
#include <QScrollBar>
#include <QTextCursor>

namespace Sandcastle {

ConsolePane::ConsolePane(QWidget *parent)
    : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setUndoRedoEnabled(false);
    setMaximumBlockCount(20000);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setPlaceholderText(tr("Output of the code appears here"));
}

void ConsolePane::insert(const QString &text, const QTextCharFormat &format, bool returnToLineStart)
{
    if (text.isEmpty() && !returnToLineStart)
        return;
    QScrollBar *bar = verticalScrollBar();
    const bool follow = bar->value() == bar->maximum();
    QTextCursor cursor(document());
    cursor.movePosition(QTextCursor::End);
    if (returnToLineStart) {
        // A progress bar redrawing its line: what follows replaces the current line.
        cursor.movePosition(QTextCursor::StartOfBlock, QTextCursor::KeepAnchor);
        cursor.removeSelectedText();
    }
    cursor.insertText(text, format);
    m_atLineStart = text.isEmpty() ? cursor.atBlockStart() : text.endsWith(QLatin1Char('\n'));
    if (follow)
        bar->setValue(bar->maximum());
}

void ConsolePane::beginRun(const QString &title)
{
    m_stdoutParser = AnsiParser(); // each run starts uncoloured
    m_stderrParser = AnsiParser();
    QTextCharFormat header;
    header.setForeground(QColor(0x6a, 0x73, 0x7d));
    insert((document()->isEmpty() || m_atLineStart ? QString() : QStringLiteral("\n"))
               + QStringLiteral("▶ ") + title + QLatin1Char('\n'),
           header);
}

void ConsolePane::appendOutput(OutputStream stream, const QString &text)
{
    AnsiParser &parser = stream == OutputStream::Stderr ? m_stderrParser : m_stdoutParser;
    const QList<AnsiParser::Segment> segments = parser.feed(text);
    for (const AnsiParser::Segment &segment : segments) {
        QTextCharFormat format;
        if (segment.style.foreground)
            format.setForeground(QColor(segment.style.foreground->r,
                                        segment.style.foreground->g,
                                        segment.style.foreground->b));
        else if (stream == OutputStream::Stderr)
            format.setForeground(QColor(0xcb, 0x24, 0x31));
        if (segment.style.bold)
            format.setFontWeight(QFont::Bold);
        insert(segment.text, format, segment.returnToLineStart);
    }
}

void ConsolePane::endRun(const ExecutionResult &result)
{
    if (!result.error.isEmpty())
        appendOutput(OutputStream::Stderr,
                     (m_atLineStart ? QString() : QStringLiteral("\n")) + result.error.trimmed()
                         + QLatin1Char('\n'));
    QTextCharFormat footer;
    footer.setForeground(result.isOk() ? QColor(0x22, 0x86, 0x3a) : QColor(0xcb, 0x24, 0x31));
    insert((m_atLineStart ? QString() : QStringLiteral("\n"))
               + tr("■ %1 in %2 ms")
                     .arg(ExecutionResult::statusName(result.status))
                     .arg(result.durationMs)
               + QLatin1Char('\n'),
           footer);
}

} // namespace Sandcastle
