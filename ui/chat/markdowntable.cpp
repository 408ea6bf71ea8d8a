#include "markdowntable.h"

#include "markdownsplitter.h"

#include <QStringList>

namespace Sandcastle::MarkdownTable {

namespace {

QString csvField(const QString &cell)
{
    QString value = cell;
    bool number = false;
    value.toDouble(&number);
    if (!number && !value.isEmpty()
        && (value.front() == u'=' || value.front() == u'+' || value.front() == u'-'
            || value.front() == u'@'))
        value.prepend(QLatin1Char('\''));
    if (value.contains(QLatin1Char(',')) || value.contains(QLatin1Char('"'))
        || value.contains(QLatin1Char('\n')) || value.contains(QLatin1Char('\r'))
        || value.startsWith(QLatin1Char(' ')) || value.endsWith(QLatin1Char(' '))) {
        value.replace(QLatin1Char('"'), QStringLiteral("\"\""));
        value = QLatin1Char('"') + value + QLatin1Char('"');
    }
    return value;
}

QString csvLine(const QStringList &cells)
{
    QStringList fields;
    fields.reserve(cells.size());
    for (const QString &cell : cells)
        fields << csvField(cell);
    return fields.join(QLatin1Char(',')) + QStringLiteral("\r\n");
}

} // namespace

QStringList cells(QStringView row)
{
    QStringView line = row.trimmed();
    if (line.startsWith(QLatin1Char('|')))
        line = line.mid(1);
    if (line.endsWith(QLatin1Char('|')) && !line.endsWith(QLatin1String("\\|")))
        line.chop(1);
    QStringList out;
    QString cell;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line.at(i);
        if (c == u'\\' && i + 1 < line.size() && line.at(i + 1) == u'|') {
            cell += QLatin1Char('|');
            ++i;
        } else if (c == u'|') {
            out << cell.trimmed();
            cell.clear();
        } else {
            cell += c;
        }
    }
    out << cell.trimmed();
    return out;
}

QString toCsv(QStringView text, qsizetype start)
{
    if (start < 0 || start >= text.size())
        return {};
    QString csv;
    qsizetype pos = start;
    int line = 0;
    while (pos < text.size()) {
        qsizetype eol = text.indexOf(QLatin1Char('\n'), pos);
        if (eol < 0)
            eol = text.size();
        const QStringView row = text.mid(pos, eol - pos);
        pos = eol + 1;
        if (line == 1) { // the delimiter row
            if (!MarkdownSplitter::isDelimiterRow(row))
                return {};
            ++line;
            continue;
        }
        if (row.trimmed().isEmpty() || (line > 0 && !row.contains(QLatin1Char('|'))))
            break;
        csv += csvLine(cells(row));
        ++line;
    }
    return line >= 2 ? csv : QString();
}

} // namespace Sandcastle::MarkdownTable
