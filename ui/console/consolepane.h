#pragma once

#include <base/ansiparser.h>

#include <sandbox/executionresult.h>

#include <QPlainTextEdit>
#include <QTimer>

class QLineEdit;

namespace Sandcastle {

class FindBox;

// The console: what the sandboxed code prints, stdout in the normal colour and stderr in
// red, terminal colours and carriage-return progress lines honoured (AnsiParser), with a
// header per run and a footer with its outcome. Bounded: old lines scroll away.
class ConsolePane : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit ConsolePane(QWidget *parent = nullptr);

    void beginRun(const QString &title);
    void appendOutput(Sandcastle::OutputStream stream, const QString &text);
    void endRun(const Sandcastle::ExecutionResult &result);
    // Lines kept; older ones scroll away (a setting).
    void setScrollback(int lines);
    // Ctrl+F: a find box over the output; Enter finds the next match, Escape closes it.
    void showFind();
    bool find(const QString &text, bool backwards = false);
    // Writes everything shown to a file; returns an error message or an empty string.
    QString saveTo(const QString &path) const;
    // Paints everything still queued now (output is otherwise painted a slice per frame).
    void flush();
    qint64 skippedLines() const { return m_skippedLines; }
    // Output still queued to be painted.
    bool isPainting() const { return !m_queue.isEmpty(); }
    // Longer lines are shown up to here, with a note of how much more there was.
    static constexpr qsizetype kMaxLineChars = 10000;
    // Characters kept besides the scrollback's lines: long lines scroll away sooner, so that
    // a flood of them holds a few megabytes, not the scrollback times the line length.
    static constexpr qsizetype kMaxKeptChars = 4 * 1024 * 1024;

protected:
    void contextMenuEvent(QContextMenuEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    struct Item
    {
        enum class Kind { Output, Header, Footer } kind = Kind::Output;
        OutputStream stream = OutputStream::Stdout;
        QString text;
        QTextCharFormat format;
    };
    void enqueue(Item item);
    void paintSlice(qsizetype budget);
    void paint(const Item &item);
    void trimQueue();
    // Keeps the document near kMaxKeptChars: fewer lines kept when they are long.
    void boundCharacters();
    void insert(const QString &text, const QTextCharFormat &format, bool returnToLineStart = false);
    void insertOutput(const QString &text, const QTextCharFormat &format, bool returnToLineStart);
    void noteCutLine();
    int m_scrollback = 20000; // lines, the setting; maximumBlockCount() is lower for long lines
    bool m_atLineStart = true;
    qsizetype m_lineChars = 0; // characters on the document's last line
    qint64 m_cutChars = 0;     // of the output's current line, not shown
    bool m_follow = true;      // keeps the end in view until the person scrolls up
    AnsiParser m_stdoutParser;
    AnsiParser m_stderrParser;
    FindBox *m_findBox = nullptr; // made on the first find
    QList<Item> m_queue;
    qsizetype m_queuedChars = 0;
    qsizetype m_queuedLines = 0;
    qint64 m_skippedLines = 0;
    QTimer *m_paintTimer = nullptr;
    // Per frame: enough for a person to read, little enough to keep the window at 60 fps.
    static constexpr qsizetype kCharsPerFrame = 16 * 1024;

    // What a flood's frames paint: doubled while a frame takes under 4 ms, halved over 10 ms,
    // so a flood is shown as fast as this machine paints without a frame over ~10 ms.
    qsizetype m_frameBudget = kCharsPerFrame;
};

} // namespace Sandcastle
