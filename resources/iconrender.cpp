// Renders the application's SVG icon into the PNG sizes of the hicolor theme, at build time,
// with Qt's own SVG icon engine (the one that draws it in the window):
//   sandcastle_iconrender ICON.svg OUT_DIR NAME   ->  OUT_DIR/<N>x<N>/apps/NAME.png
#include <QDir>
#include <QGuiApplication>
#include <QIcon>
#include <QImage>

#include <cstdio>

int main(int argc, char *argv[])
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: sandcastle_iconrender ICON.svg OUT_DIR NAME\n");
        return 2;
    }
    QGuiApplication app(argc, argv);
    const QIcon icon(QString::fromLocal8Bit(argv[1]));
    const QString out = QString::fromLocal8Bit(argv[2]);
    const QString name = QString::fromLocal8Bit(argv[3]);
    for (const int size : {16, 22, 24, 32, 48, 64, 128, 256}) {
        const QImage image = icon.pixmap(QSize(size, size)).toImage();
        if (image.isNull() || image.size() != QSize(size, size)) {
            std::fprintf(stderr,
                         "sandcastle_iconrender: cannot draw %s at %dx%d (is Qt's SVG plugin, "
                         "libqt6svg6, installed?)\n",
                         argv[1],
                         size,
                         size);
            return 1;
        }
        const QString dir = QStringLiteral("%1/%2x%2/apps").arg(out).arg(size);
        if (!QDir().mkpath(dir)
            || !image.save(dir + QLatin1Char('/') + name + QStringLiteral(".png"))) {
            std::fprintf(stderr, "sandcastle_iconrender: cannot write into %s\n", qPrintable(dir));
            return 1;
        }
    }
    return 0;
}
