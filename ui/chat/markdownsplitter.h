#pragma once

#include <QString>

#include <vector>

namespace Sandcastle {

// Cuts a text the model wrote into pieces that are rendered on their own, each small enough to
// render within a frame's worth of work whatever the text holds.
//
// Markdown is cut where a piece renders the same as the whole would: after a blank line outside
// a code fence, before a line that continues no indented block. A piece that grows past its
// limits (characters; lines and inline markers, which is what Qt's Markdown importer spends its
// time on: its cost grows with their square) is cut earlier: inside a code fence (the next piece
// reopens the fence), between a table's rows (the next piece repeats the header, which is not
// shown), at a line that starts no indented block; one that still grows (a single line of
// 100,000 emphasis markers) is cut where it stands. Plain text is cut only by the limits.
//
// Every cut depends only on the text before it: as the text streams and grows, the pieces before
// the last keep their bounds and their text, so a view renders them once; split() reads again
// only from the start of the last piece. Pure: no widgets, tested and fuzzed on its own.
class MarkdownSplitter
{
public:
    enum class Mode { Markdown, Plain };

    struct Limits
    {
        qsizetype chars = 4096; // a piece is cut at the next line that allows past these
        int events = 160;       // lines and inline markers (* _ ` [ ] < > | and the like)
        // Past these times the limits a piece is cut where it stands, mid-line if need be.
        static constexpr int HardFactor = 2;
    };

    struct Piece
    {
        qsizetype start = 0;
        qsizetype end = 0;
        bool complete = false; // a cut follows it: its bounds and text will not change
        // Markdown rendered before the piece's text: the fence it continues, or the header and
        // delimiter rows of the table it continues.
        QString reopen;
        bool continuesTable = false; // the reopened header row is not shown
        qsizetype table = -1;        // where the first table the piece has rows of starts, or -1
        int tableRows = 0;           // body rows of tables in the piece
        int links = 0;
        int lines = 0;
    };

    explicit MarkdownSplitter(Mode mode = Mode::Markdown);
    MarkdownSplitter(Mode mode, Limits limits);

    // At least one piece, empty for an empty text; together they cover the text in order. When
    // `text` starts with the text split last, reading starts again at its last piece.
    const std::vector<Piece> &split(const QString &text);
    const std::vector<Piece> &pieces() const { return m_pieces; }

    // The Markdown a piece renders: its reopening, then its text.
    static QString markdownOf(const QString &text, const Piece &piece);
    // Whether a line is a table's delimiter row (| --- | :-: |).
    static bool isDelimiterRow(QStringView line);

private:
    struct Fence
    {
        QChar marker;
        qsizetype length = 0;
    };

    // Where reading is, and what is open there.
    struct Scan
    {
        qsizetype pos = 0;       // a line's start, or inside a line after a cut there
        qsizetype lineStart = 0; // the start of the line pos is in
        Piece piece;             // the piece being read (start, reopening, counts)
        int events = 0;
        Fence fence;
        QString fenceLine; // the fence's opening line, to reopen it
        qsizetype table = -1;
        QString tableHeader; // header and delimiter rows, to reopen them
        bool previousBlank = false;
        qsizetype previousLineStart = -1;
    };

    void read(const QString &text);
    bool cutBeforeLine(const QString &text, qsizetype eol);
    void readLine(const QString &text, qsizetype eol);
    void cut(qsizetype at, bool reopenBlock);
    static Fence fenceOf(QStringView trimmedLine);
    static bool closes(const Fence &open, QStringView trimmedLine);

    Mode m_mode;
    Limits m_limits;
    QString m_text;   // what was split last
    Scan m_scan;      // reading, at the end of the last split
    Scan m_atLastCut; // the state where the last piece starts
    std::vector<Piece> m_pieces;
};

} // namespace Sandcastle
