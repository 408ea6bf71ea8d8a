#pragma once

#include <QCoreApplication>
#include <QImage>
#include <QList>
#include <QString>
#include <QStringList>

namespace Sandcastle {

// What the files pane shows for one workspace file, read through PathGuard (a symlink out of
// the workspace is refused, never followed) and sized so that no file can freeze or flood
// the window. Pure and thread-safe: the pane loads it off the UI thread.
struct FilePreview
{
    Q_DECLARE_TR_FUNCTIONS(FilePreview)

public:
    enum class Kind { Image, Table, Text, Message };

    Kind kind = Kind::Message;
    QImage image;
    QStringList header;
    QList<QStringList> rows; // at most kMaxRows
    bool moreRows = false;   // the file has rows beyond those
    QString text;
    QString language; // "python", "bash" or empty, for highlighting
    QString message;  // why there is no preview, or a note under it

    static constexpr int kMaxRows = 1000;
    static constexpr qint64 kMaxImageBytes = 32LL * 1024 * 1024;
    static constexpr qint64 kMaxTextBytes = 2LL * 1024 * 1024;
    static constexpr qint64 kTableReadBytes = 16LL * 1024 * 1024;

    static FilePreview load(const QString &root, const QString &relative);
    // "python" or "bash" by the file's name, else empty (plain text).
    static QString languageFor(const QString &relative);

    // RFC 4180 fields: quotes, doubled quotes, separators and line breaks inside quotes. Reads
    // at most maxRows records; *more says whether any text was left.
    static QList<QStringList>
    parseDelimited(const QString &text, QChar separator, int maxRows, bool *more = nullptr);
};

} // namespace Sandcastle

#include <QMetaType>
Q_DECLARE_METATYPE(Sandcastle::FilePreview::Kind)
