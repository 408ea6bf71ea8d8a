#include "notebookreader.h"

#include <base/jsonfields.h>

#include <QFile>
#include <QRegularExpression>

#include <nlohmann/json.hpp>

namespace Sandcastle::NotebookReader {

namespace {

constexpr int kMaxContextChars = 20000;

// A cell's source: one string, or a list of strings (its lines) joined as they are.
Result<QString> sourceOf(const nlohmann::json &cell, int number)
{
    const nlohmann::json &source = jsonField(cell, "source");
    if (source.is_string())
        return Result<QString>::ok(QString::fromStdString(source.get<std::string>()));
    if (source.is_array()) {
        QString text;
        for (const auto &line : source) {
            if (!line.is_string())
                return Result<QString>::failure(
                    QStringLiteral("cell %1: its source holds something that is not text")
                        .arg(number));
            text += QString::fromStdString(line.get<std::string>());
        }
        return Result<QString>::ok(text);
    }
    if (source.is_null())
        return Result<QString>::ok(QString());
    return Result<QString>::failure(
        QStringLiteral("cell %1: its source is neither text nor a list of lines").arg(number));
}

// The notebook's language, when it names one.
QString languageOf(const nlohmann::json &book)
{
    const nlohmann::json &metadata = jsonField(book, "metadata");
    QString language = jsonString(jsonField(metadata, "kernelspec"), "language");
    if (language.isEmpty())
        language = jsonString(jsonField(metadata, "language_info"), "name");
    return language.toLower();
}

// A code cell made ready to run in the kernel, which is Python, not IPython.
Cell codeCell(const QString &source, int number, QStringList &notes)
{
    Cell cell{Cell::Kind::Code, source, false, number};
    const QString firstLine = source.section(QLatin1Char('\n'), 0, 0).trimmed();
    if (firstLine == QLatin1String("%%bash") || firstLine == QLatin1String("%%sh")) {
        cell.shell = true;
        const qsizetype newline = source.indexOf(QLatin1Char('\n'));
        cell.source = newline < 0 ? QString() : source.mid(newline + 1);
        return cell;
    }
    if (firstLine.startsWith(QLatin1String("%%"))) {
        notes << QStringLiteral("Cell %1 starts with the cell magic %2, which only IPython runs.")
                     .arg(number)
                     .arg(firstLine.section(QLatin1Char(' '), 0, 0));
        return cell;
    }
    static const QRegularExpression magic(QStringLiteral("^([%!])(?=[A-Za-z])"),
                                          QRegularExpression::MultilineOption);
    if (cell.source.contains(magic)) {
        cell.source.replace(magic, QStringLiteral("# (IPython only, not run here) \\1"));
        notes << QStringLiteral("Cell %1: its IPython magics and shell escapes (%… and !… lines) "
                                "are comments here.")
                     .arg(number);
    }
    return cell;
}

// The cells, checked one by one.
Result<Notebook> cellsOf(const nlohmann::json &cells)
{
    Notebook notebook;
    int number = 0;
    int raw = 0;
    for (const auto &cell : cells) {
        ++number;
        const QString type = jsonString(cell, "cell_type");
        if (!cell.is_object() || type.isEmpty())
            return Result<Notebook>::failure(
                QStringLiteral("cell %1 is not a notebook cell (no cell_type)").arg(number));
        if (type == QLatin1String("raw")) {
            ++raw;
            continue;
        }
        if (type != QLatin1String("code") && type != QLatin1String("markdown"))
            return Result<Notebook>::failure(
                QStringLiteral("cell %1 has an unknown type: %2").arg(number).arg(type.left(40)));
        const Result<QString> source = sourceOf(cell, number);
        if (!source)
            return Result<Notebook>::failure(source.error());
        if (type == QLatin1String("markdown"))
            notebook.cells << Cell{Cell::Kind::Markdown, source.value(), false, number};
        else if (!source.value().trimmed().isEmpty())
            notebook.cells << codeCell(source.value(), number, notebook.notes);
    }
    if (raw > 0)
        notebook.notes << QStringLiteral("%1 raw cell(s) left out.").arg(raw);
    return Result<Notebook>::ok(notebook);
}

} // namespace

int Notebook::codeCells() const
{
    return int(std::count_if(
        cells.begin(), cells.end(), [](const Cell &c) { return c.kind == Cell::Kind::Code; }));
}

int Notebook::markdownCells() const
{
    return int(cells.size()) - codeCells();
}

Result<Notebook> parse(const QByteArray &bytes)
{
    if (bytes.size() > kMaxBytes)
        return Result<Notebook>::failure(
            QStringLiteral("the notebook is larger than %1 MB").arg(kMaxBytes / (1024 * 1024)));
    const nlohmann::json book = nlohmann::json::parse(bytes.toStdString(), nullptr, false);
    if (book.is_discarded())
        return Result<Notebook>::failure(QStringLiteral("this is not a notebook: not JSON"));
    if (!book.is_object() || !book.contains("cells"))
        return Result<Notebook>::failure(
            QStringLiteral("this is not a Jupyter notebook (no cells)"));
    const std::optional<int> format = jsonInt(book, "nbformat");
    if (format != 4)
        return Result<Notebook>::failure(
            QStringLiteral("only nbformat 4 notebooks can be opened; this one is %1")
                .arg(format ? QStringLiteral("nbformat %1").arg(*format)
                            : QStringLiteral("of no known nbformat")));
    const QString language = languageOf(book);
    if (!language.isEmpty() && language != QLatin1String("python")
        && !language.startsWith(QLatin1String("python")))
        return Result<Notebook>::failure(
            QStringLiteral("this notebook's code is %1; the sandbox runs Python").arg(language));
    if (!book["cells"].is_array())
        return Result<Notebook>::failure(QStringLiteral("the notebook's cells are not a list"));
    return cellsOf(book["cells"]);
}

Result<Notebook> read(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Result<Notebook>::failure(
            QStringLiteral("could not read %1: %2").arg(path, file.errorString()));
    if (file.size() > kMaxBytes)
        return Result<Notebook>::failure(
            QStringLiteral("%1 is larger than %2 MB").arg(path).arg(kMaxBytes / (1024 * 1024)));
    return parse(file.read(kMaxBytes + 1));
}

QString contextNote(const QString &fileName, const Notebook &notebook)
{
    QString note = QStringLiteral("[The person opened the notebook %1: its %2 code cell(s) are in "
                                  "the editor as tabs named \"Cell N\" (N is the cell's place in "
                                  "the notebook), to be run in this conversation's Python "
                                  "session. Its Markdown cells follow, as context.]\n")
                       .arg(fileName)
                       .arg(notebook.codeCells());
    for (const Cell &cell : notebook.cells) {
        if (cell.kind != Cell::Kind::Markdown || cell.source.trimmed().isEmpty())
            continue;
        const QString part
            = QStringLiteral("\n--- cell %1 ---\n%2\n").arg(cell.number).arg(cell.source.trimmed());
        if (note.size() + part.size() > kMaxContextChars) {
            note += QStringLiteral("\n[… the rest of the Markdown is left out]\n");
            break;
        }
        note += part;
    }
    return note;
}

} // namespace Sandcastle::NotebookReader
