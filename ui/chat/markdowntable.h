#pragma once

#include <QString>

namespace Sandcastle {

// A Markdown table as CSV (RFC 4180): the header row, then every body row, up to the first line
// that is blank or holds no cell. Escaped pipes (\|) are kept in their cell. A cell the model
// wrote to run as a spreadsheet formula (=, +, -, @ at its start, not a number) is quoted with
// a leading apostrophe, so that opening the file never runs it. Pure.
namespace MarkdownTable {

// `start`: where the table's header row starts in `text`. Empty when no table starts there.
QString toCsv(QStringView text, qsizetype start);
// The cells of one table row.
QStringList cells(QStringView row);

} // namespace MarkdownTable
} // namespace Sandcastle
