#include "consolepane.h"

#include <ui/widgets/findbox.h>

#include <QAction>
#include <QContextMenuEvent>
#include <QDir>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QKeyEvent>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QSaveFile>
#include <QScrollBar>
#include <QTextCursor>
#include <QTextDocument>

#include <algorithm>
#include <ui/icons.h>

#include <limits>

namespace Sandcastle {

namespace {

QString consoleDurationText(qint64 ms)
{
    if (ms < 1000)
        return ConsolePane::tr("%1 ms").arg(ms);
    return ConsolePane::tr("%1 s").arg(double(ms) / 1000.0, 0, 'f', ms < 10000 ? 2 : 1);
}

} // namespace

ConsolePane::ConsolePane(QWidget *parent)
    : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setUndoRedoEnabled(false);
    setMaximumBlockCount(m_scrollback);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setPlaceholderText(tr("Output of the code appears here"));
    // Follow the output while the person is at its end, also when the range grows later (a
    // wide line brings the horizontal scroll bar and the last line moves out of view).
    QScrollBar *bar = verticalScrollBar();
    connect(bar, &QScrollBar::rangeChanged, this, [this, bar](int, int max) {
        if (m_follow)
            bar->setValue(max);
    });
    connect(bar, &QScrollBar::valueChanged, this, [this, bar](int value) {
        m_follow = value >= bar->maximum();
    });
    m_paintTimer = new QTimer(this);
    m_paintTimer->setInterval(16);
    connect(m_paintTimer, &QTimer::timeout, this, [this] {
        QElapsedTimer clock;
        clock.start();
        paintSlice(m_frameBudget);
        const qint64 ms = clock.elapsed();
        if (ms < 4)
            m_frameBudget = std::min<qsizetype>(m_frameBudget * 2, 256 * 1024);
        else if (ms > 10)
            m_frameBudget = std::max<qsizetype>(m_frameBudget / 2, 4 * 1024);
    });
}

void ConsolePane::setScrollback(int lines)
{
    m_scrollback = qMax(100, lines);
    setMaximumBlockCount(m_scrollback);
}

void ConsolePane::showFind()
{
    // Made on the first find (Edit → Find, Ctrl+F, the context menu): its clear button's icon
    // loads the image plugins, which the first frame does not need.
    if (!m_findBox) {
        m_findBox = new FindBox(
            this, [this](const QString &text, bool backwards) { return find(text, backwards); });
        m_findBox->setObjectName(QStringLiteral("consoleFind"));
    }
    m_findBox->start();
}

bool ConsolePane::find(const QString &text, bool backwards)
{
    if (text.isEmpty())
        return false;
    const QTextDocument::FindFlags flags
        = backwards ? QTextDocument::FindBackward : QTextDocument::FindFlags();
    if (QPlainTextEdit::find(text, flags))
        return true;
    // Wrap around once.
    QTextCursor cursor = textCursor();
    cursor.movePosition(backwards ? QTextCursor::End : QTextCursor::Start);
    setTextCursor(cursor);
    return QPlainTextEdit::find(text, flags);
}

QString ConsolePane::saveTo(const QString &path) const
{
    QSaveFile file(path);
    const QByteArray bytes = toPlainText().toUtf8();
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return file.errorString();
    return QString();
}

void ConsolePane::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape && m_findBox && m_findBox->isVisible()) {
        m_findBox->hide();
        setFocus();
        return;
    }
    QPlainTextEdit::keyPressEvent(event);
}

void ConsolePane::contextMenuEvent(QContextMenuEvent *event)
{
    QMenu *menu = createStandardContextMenu(event->pos());
    menu->addSeparator();
    menu->addAction(actionIcon("find"), tr("Find…"), this, &ConsolePane::showFind);
    menu->addAction(actionIcon("clear"), tr("Clear"), this, &QPlainTextEdit::clear);
    menu->addAction(actionIcon("save"), tr("Save output…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Save the console output"), QDir::homePath() + QStringLiteral("/output.txt"));
        if (path.isEmpty())
            return;
        const QString error = saveTo(path);
        if (!error.isEmpty())
            appendOutput(OutputStream::Stderr, tr("Not saved: %1\n").arg(error));
    });
    menu->exec(event->globalPos());
    delete menu;
}

void ConsolePane::insert(const QString &text, const QTextCharFormat &format, bool returnToLineStart)
{
    if (text.isEmpty() && !returnToLineStart)
        return;
    const bool follow = m_follow;
    QTextCursor cursor(document());
    cursor.movePosition(QTextCursor::End);
    if (returnToLineStart) {
        // A progress bar redrawing its line: what follows replaces the current line.
        cursor.movePosition(QTextCursor::StartOfBlock, QTextCursor::KeepAnchor);
        cursor.removeSelectedText();
    }
    cursor.insertText(text, format);
    m_atLineStart = text.isEmpty() ? cursor.atBlockStart() : text.endsWith(QLatin1Char('\n'));
    const qsizetype lastBreak = text.lastIndexOf(QLatin1Char('\n'));
    m_lineChars = returnToLineStart && lastBreak < 0 ? text.size()
                  : lastBreak < 0                    ? m_lineChars + text.size()
                                                     : text.size() - lastBreak - 1;
    if (follow)
        verticalScrollBar()->setValue(verticalScrollBar()->maximum());
}

void ConsolePane::insertOutput(const QString &text,
                               const QTextCharFormat &format,
                               bool returnToLineStart)
{
    if (returnToLineStart) {
        m_lineChars = 0;
        m_cutChars = 0; // the line is drawn again from its start
    }
    // A line longer than kMaxLineChars is shown up to there: laying out megabytes of one line
    // would freeze the window (the run's log keeps all of it).
    QString shown;
    qsizetype lineSoFar = m_lineChars;
    qsizetype start = 0;
    while (start < text.size()) {
        const qsizetype lineBreak = text.indexOf(QLatin1Char('\n'), start);
        const qsizetype end = lineBreak < 0 ? text.size() : lineBreak;
        const qsizetype take = qMin(end - start, qMax<qsizetype>(0, kMaxLineChars - lineSoFar));
        shown += QStringView(text).mid(start, take);
        lineSoFar += take;
        m_cutChars += end - start - take;
        if (lineBreak < 0)
            break;
        if (m_cutChars > 0) {
            // The note goes at the end of the cut line, before its line break.
            insert(shown, format, returnToLineStart);
            returnToLineStart = false;
            shown.clear();
            noteCutLine();
        }
        shown += QLatin1Char('\n');
        lineSoFar = 0;
        start = lineBreak + 1;
    }
    insert(shown, format, returnToLineStart);
}

void ConsolePane::noteCutLine()
{
    if (m_cutChars == 0)
        return;
    QTextCharFormat note;
    note.setForeground(QColor(0x6a, 0x73, 0x7d));
    const qint64 cut = m_cutChars;
    m_cutChars = 0;
    insert(tr(" [\u2026 %1 more characters on this line; the run's log has them all]")
               .arg(QLocale().toString(cut)),
           note);
}

void ConsolePane::beginRun(const QString &title)
{
    // A new run's lines may be short again: the whole scrollback until its own length shows.
    if (maximumBlockCount() < m_scrollback)
        setMaximumBlockCount(m_scrollback);
    QTextCharFormat header;
    header.setForeground(QColor(0x6a, 0x73, 0x7d));
    enqueue({Item::Kind::Header, OutputStream::Stdout, title, header});
}

void ConsolePane::appendOutput(OutputStream stream, const QString &text)
{
    if (!text.isEmpty())
        enqueue({Item::Kind::Output, stream, text, QTextCharFormat()});
}

void ConsolePane::enqueue(Item item)
{
    m_queuedChars += item.text.size();
    m_queuedLines += item.text.count(QLatin1Char('\n'));
    m_queue.append(std::move(item));
    trimQueue();
    // A little output is painted at once; a flood a slice per frame, so the window never
    // stalls on a huge batch.
    if (m_queuedChars <= kCharsPerFrame && !m_paintTimer->isActive())
        paintSlice(kCharsPerFrame);
    else if (!m_paintTimer->isActive())
        m_paintTimer->start();
}

void ConsolePane::trimQueue()
{
    // Lines beyond the scrollback would scroll away as soon as they were painted: drop the
    // oldest queued output instead of painting it (the run's log file has every byte).
    const qsizetype keep = maximumBlockCount() - 10; // room for the note, a header and a footer
    while ((m_queuedLines > keep || m_queuedChars > kMaxKeptChars) && m_queue.size() > 1
           && m_queue.first().kind == Item::Kind::Output) {
        const Item dropped = m_queue.takeFirst();
        const qsizetype lines = dropped.text.count(QLatin1Char('\n'));
        m_queuedChars -= dropped.text.size();
        m_queuedLines -= lines;
        m_skippedLines += lines;
        // Keep the colour state right for what follows.
        (dropped.stream == OutputStream::Stderr ? m_stderrParser : m_stdoutParser)
            .skip(dropped.text);
    }
    // One huge chunk: keep only its last lines.
    if (m_queuedLines > keep && !m_queue.isEmpty() && m_queue.first().kind == Item::Kind::Output) {
        Item &first = m_queue.first();
        qsizetype toDrop = m_queuedLines - keep;
        qsizetype cut = 0;
        while (toDrop > 0) {
            const qsizetype newline = first.text.indexOf(QLatin1Char('\n'), cut);
            if (newline < 0)
                break;
            cut = newline + 1;
            --toDrop;
        }
        const QString head = first.text.left(cut);
        const qsizetype lines = head.count(QLatin1Char('\n'));
        first.text.remove(0, cut);
        m_queuedChars -= head.size();
        m_queuedLines -= lines;
        m_skippedLines += lines;
        (first.stream == OutputStream::Stderr ? m_stderrParser : m_stdoutParser).skip(head);
    }
}

void ConsolePane::flush()
{
    m_paintTimer->stop();
    paintSlice(std::numeric_limits<qsizetype>::max());
}

void ConsolePane::paintSlice(qsizetype budget)
{
    if (m_skippedLines > 0) {
        noteCutLine();
        QTextCharFormat note;
        note.setForeground(QColor(0x6a, 0x73, 0x7d));
        insert((m_atLineStart ? QString() : QStringLiteral("\n"))
                   + tr("[… %n line(s) not shown here; the run's log has everything …]",
                        nullptr,
                        int(qMin<qint64>(m_skippedLines, std::numeric_limits<int>::max())))
                   + QLatin1Char('\n'),
               note);
        m_skippedLines = 0;
    }
    qsizetype painted = 0;
    while (!m_queue.isEmpty() && painted < budget) {
        Item &item = m_queue.first();
        if (item.kind == Item::Kind::Output && item.text.size() > budget - painted) {
            // Cut at a line end within the budget when there is one.
            qsizetype cut = item.text.lastIndexOf(QLatin1Char('\n'), budget - painted - 1);
            cut = cut < 0 ? budget - painted : cut + 1;
            Item part = item;
            part.text = item.text.left(cut);
            item.text.remove(0, cut);
            m_queuedChars -= part.text.size();
            m_queuedLines -= part.text.count(QLatin1Char('\n'));
            paint(part);
            painted += part.text.size();
            break;
        }
        const Item next = m_queue.takeFirst();
        m_queuedChars -= next.text.size();
        m_queuedLines -= next.text.count(QLatin1Char('\n'));
        paint(next);
        painted += next.text.size();
    }
    if (m_queue.isEmpty())
        m_paintTimer->stop();
    boundCharacters();
}

void ConsolePane::boundCharacters()
{
    // Past kMaxKeptChars (and a sixteenth), as many lines as it holds at the output's line
    // length: Qt then drops the oldest line as each new one comes, on its own cheap path
    // (removing the excess at the top with a cursor stalled a flood's frames 60-70 ms). Back
    // to the whole scrollback once the text is well under the bound (short lines again).
    const int chars = document()->characterCount();
    const int current = maximumBlockCount();
    if (chars > kMaxKeptChars + kMaxKeptChars / 16) {
        const double perLine = std::max(1.0, double(chars) / document()->blockCount());
        const int wanted = std::clamp(int(double(kMaxKeptChars) / perLine), 100, m_scrollback);
        if (wanted < current)
            setMaximumBlockCount(wanted);
    } else if (current < m_scrollback && chars < kMaxKeptChars / 2) {
        setMaximumBlockCount(m_scrollback);
    }
}

void ConsolePane::paint(const Item &item)
{
    switch (item.kind) {
    case Item::Kind::Header:
        noteCutLine();
        m_stdoutParser = AnsiParser(); // each run starts uncoloured
        m_stderrParser = AnsiParser();
        insert((document()->isEmpty() || m_atLineStart ? QString() : QStringLiteral("\n"))
                   + QStringLiteral("▶ ") + item.text + QLatin1Char('\n'),
               item.format);
        return;
    case Item::Kind::Footer: {
        noteCutLine();
        // Text from the run (a traceback) is made inert like any output.
        QString text;
        const QList<AnsiParser::Segment> segments = AnsiParser().feed(item.text);
        for (const AnsiParser::Segment &segment : segments)
            text += segment.text;
        insert((m_atLineStart ? QString() : QStringLiteral("\n")) + text + QLatin1Char('\n'),
               item.format);
        return;
    }
    case Item::Kind::Output:
        break;
    }
    AnsiParser &parser = item.stream == OutputStream::Stderr ? m_stderrParser : m_stdoutParser;
    const QList<AnsiParser::Segment> segments = parser.feed(item.text);
    for (const AnsiParser::Segment &segment : segments) {
        QTextCharFormat format;
        if (segment.style.foreground)
            format.setForeground(QColor(segment.style.foreground->r,
                                        segment.style.foreground->g,
                                        segment.style.foreground->b));
        else if (item.stream == OutputStream::Stderr)
            format.setForeground(QColor(0xcb, 0x24, 0x31));
        if (segment.style.bold)
            format.setFontWeight(QFont::Bold);
        insertOutput(segment.text, format, segment.returnToLineStart);
    }
}

void ConsolePane::endRun(const ExecutionResult &result)
{
    if (!result.error.isEmpty()) {
        QTextCharFormat error;
        error.setForeground(QColor(0xcb, 0x24, 0x31));
        enqueue({Item::Kind::Footer, OutputStream::Stderr, result.error.trimmed(), error});
    }
    QTextCharFormat footer;
    footer.setForeground(result.isOk() ? QColor(0x22, 0x86, 0x3a) : QColor(0xcb, 0x24, 0x31));
    QString outcome;
    switch (result.status) {
    case ExecutionResult::Status::Ok:
        outcome = tr("finished");
        break;
    case ExecutionResult::Status::Error:
        outcome = tr("failed (exit code %1)").arg(result.exitCode);
        break;
    case ExecutionResult::Status::Timeout:
        outcome = tr("stopped: the time limit was reached");
        break;
    case ExecutionResult::Status::OutOfMemory:
        outcome = tr("killed: out of memory");
        break;
    case ExecutionResult::Status::Killed:
        outcome = tr("stopped");
        break;
    case ExecutionResult::Status::EngineError:
        outcome = tr("could not run (container engine error)");
        break;
    }
    QString line = tr("■ %1 in %2").arg(outcome, consoleDurationText(result.durationMs));
    if (result.stateLost)
        line += tr(" · the sandbox was restarted: variables are gone");
    if (result.truncated && !result.logFile.isEmpty())
        line += tr(" · full output in %1").arg(result.logFile);
    enqueue({Item::Kind::Footer, OutputStream::Stdout, line, footer});
}

} // namespace Sandcastle
