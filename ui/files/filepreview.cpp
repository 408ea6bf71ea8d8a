#include "filepreview.h"

#include <sandbox/pathguard.h>

#include <QFileInfo>
#include <QStringDecoder>

namespace Sandcastle {

namespace {

FilePreview refusal(const QString &text)
{
    FilePreview p;
    p.kind = FilePreview::Kind::Message;
    p.message = text;
    return p;
}

QString sizeText(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes);
}

} // namespace

QList<QStringList>
FilePreview::parseDelimited(const QString &text, QChar separator, int maxRows, bool *more)
{
    QList<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false;
    bool fieldStarted = false;
    qsizetype i = 0;
    const qsizetype n = text.size();
    auto endRow = [&] {
        row << field;
        rows << row;
        row.clear();
        field.clear();
        fieldStarted = false;
    };
    for (; i < n && rows.size() < maxRows; ++i) {
        const QChar c = text.at(i);
        if (quoted) {
            if (c == QLatin1Char('"')) {
                if (i + 1 < n && text.at(i + 1) == QLatin1Char('"')) {
                    field += QLatin1Char('"');
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                field += c;
            }
            continue;
        }
        if (c == QLatin1Char('"') && !fieldStarted) {
            quoted = true;
            fieldStarted = true;
        } else if (c == separator) {
            row << field;
            field.clear();
            fieldStarted = false;
        } else if (c == QLatin1Char('\n') || c == QLatin1Char('\r')) {
            if (c == QLatin1Char('\r') && i + 1 < n && text.at(i + 1) == QLatin1Char('\n'))
                ++i;
            endRow();
        } else {
            field += c;
            fieldStarted = true;
        }
    }
    if (rows.size() < maxRows && (fieldStarted || !field.isEmpty() || !row.isEmpty())) {
        endRow();
        i = n;
    }
    if (more)
        *more = i < n;
    return rows;
}

FilePreview FilePreview::load(const QString &root, const QString &relative)
{
    const QString suffix = QFileInfo(relative).suffix().toLower();
    static const QStringList imageSuffixes{QStringLiteral("png"),
                                           QStringLiteral("jpg"),
                                           QStringLiteral("jpeg"),
                                           QStringLiteral("gif"),
                                           QStringLiteral("svg")};
    const bool isImage = imageSuffixes.contains(suffix);
    const bool isTable = suffix == QLatin1String("csv") || suffix == QLatin1String("tsv");
    const qint64 limit = isImage ? kMaxImageBytes : isTable ? kTableReadBytes : kMaxTextBytes;

    bool truncated = false;
    const Result<QByteArray> read = PathGuard::readFile(root, relative, limit, &truncated);
    if (!read)
        return refusal(FilePreview::tr("Not shown: %1").arg(read.error()));
    const QByteArray &bytes = read.value();

    if (isImage) {
        if (truncated)
            return refusal(
                FilePreview::tr("This image is larger than %1; open it outside Sandcastle.")
                    .arg(sizeText(kMaxImageBytes)));
        FilePreview p;
        const QByteArray format
            = suffix == QLatin1String("jpg") ? QByteArray("JPEG") : suffix.toUpper().toLatin1();
        if (!p.image.loadFromData(bytes, format.constData()) && !p.image.loadFromData(bytes))
            return refusal(
                suffix == QLatin1String("svg")
                    ? FilePreview::tr("Cannot show this SVG image (it is broken, or the Qt "
                                      "SVG plugin, libqt6svg6, is missing).")
                    : FilePreview::tr("Cannot show this image: it is not a valid %1 file.")
                          .arg(suffix.toUpper()));
        p.kind = Kind::Image;
        return p;
    }

    if (bytes.left(8192).contains('\0'))
        return refusal(
            FilePreview::tr("A binary file (%1); no preview.").arg(sizeText(bytes.size())));
    QStringDecoder decoder(QStringDecoder::Utf8);
    QString text = decoder.decode(bytes);
    if (decoder.hasError() && !truncated)
        return refusal(FilePreview::tr("Not UTF-8 text; no preview."));

    if (isTable) {
        FilePreview p;
        p.kind = Kind::Table;
        bool more = false;
        QList<QStringList> records
            = parseDelimited(text,
                             suffix == QLatin1String("tsv") ? QLatin1Char('\t') : QLatin1Char(','),
                             kMaxRows + 1,
                             &more);
        if (!records.isEmpty())
            p.header = records.takeFirst();
        p.rows = records;
        p.moreRows = more || truncated;
        if (p.moreRows)
            p.message
                = FilePreview::tr("Showing the first %n row(s).", nullptr, int(p.rows.size()));
        return p;
    }

    if (truncated)
        return refusal(FilePreview::tr("This file is larger than %1; open it outside Sandcastle to "
                                       "read it.")
                           .arg(sizeText(kMaxTextBytes)));
    FilePreview p;
    p.kind = Kind::Text;
    p.text = text;
    p.language = languageFor(relative);
    return p;
}

QString FilePreview::languageFor(const QString &relative)
{
    const QString suffix = QFileInfo(relative).suffix().toLower();
    if (suffix == QLatin1String("py"))
        return QStringLiteral("python");
    if (suffix == QLatin1String("sh") || suffix == QLatin1String("bash"))
        return QStringLiteral("bash");
    return QString();
}

} // namespace Sandcastle
