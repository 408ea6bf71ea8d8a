#pragma once

#include <QString>
#include <QStringList>

namespace Sandcastle {

// Whether a path names an image people look at (PNG, JPEG, GIF, SVG, WebP, BMP): the chat
// shows a run's images as pictures, and exports carry them.
inline bool isImageFile(const QString &path)
{
    static const QStringList suffixes{QStringLiteral(".png"),
                                      QStringLiteral(".jpg"),
                                      QStringLiteral(".jpeg"),
                                      QStringLiteral(".gif"),
                                      QStringLiteral(".svg"),
                                      QStringLiteral(".webp"),
                                      QStringLiteral(".bmp")};
    for (const QString &suffix : suffixes) {
        if (path.endsWith(suffix, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

} // namespace Sandcastle
