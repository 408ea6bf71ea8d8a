#pragma once

#include <base/result.h>

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace Sandcastle::NotebookReader {

// One cell of an opened notebook.
struct Cell
{
    enum class Kind { Code, Markdown };
    Kind kind = Kind::Code;
    QString source;     // a code cell's, ready to run (see parse())
    bool shell = false; // a %%bash (or %%sh) cell: its command, without that first line
    int number = 0;     // its place among the notebook's cells, from 1
};

struct Notebook
{
    QList<Cell> cells; // code and Markdown cells, in order (raw cells are left out)
    // What the person should know: magics that only IPython runs, cells left out.
    QStringList notes;
    int codeCells() const;
    int markdownCells() const;
};

// At most this much is read (a notebook of embedded outputs can be large; its outputs are
// not used).
constexpr qint64 kMaxBytes = 64 * 1024 * 1024;

// A Jupyter notebook (nbformat 4; a cell's source as one string or as a list of lines, both
// valid). A `%%bash` or `%%sh` code cell becomes a shell cell; a line magic or shell escape
// at the start of a line (`%matplotlib inline`, `!pip install …`), which only IPython runs,
// becomes a comment, and a note says so. Refused with a message that says why: not JSON, not
// an nbformat 4 notebook, another language than Python, a cell that is not one.
Result<Notebook> parse(const QByteArray &bytes);
// The same from a file (refused when larger than kMaxBytes).
Result<Notebook> read(const QString &path);

// The notebook's Markdown cells as context for the agent (bounded; shown to the person too).
QString contextNote(const QString &fileName, const Notebook &notebook);

} // namespace Sandcastle::NotebookReader
