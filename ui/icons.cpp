#include "icons.h"

#include <QIconEngine>
#include <QPainter>

#include <optional>

namespace Sandcastle {

namespace {

// Holds the file's path; the real icon (Qt's SVG engine) is made on the first question
// that needs its pixels or sizes.
class DeferredIconEngine : public QIconEngine
{
public:
    explicit DeferredIconEngine(QString path)
        : m_path(std::move(path))
    {}

    void paint(QPainter *painter, const QRect &rect, QIcon::Mode mode, QIcon::State state) override
    {
        icon().paint(painter, rect, Qt::AlignCenter, mode, state);
    }
    // `size` in device pixels (QIcon::pixmap() has scaled it): drawn at exactly that size.
    QPixmap pixmap(const QSize &size, QIcon::Mode mode, QIcon::State state) override
    {
        return icon().pixmap(size, 1.0, mode, state);
    }
    QPixmap
    scaledPixmap(const QSize &size, QIcon::Mode mode, QIcon::State state, qreal /*scale*/) override
    {
        return pixmap(size, mode, state);
    }
    QSize actualSize(const QSize &size, QIcon::Mode mode, QIcon::State state) override
    {
        return icon().actualSize(size, mode, state);
    }
    QList<QSize> availableSizes(QIcon::Mode mode, QIcon::State state) override
    {
        return icon().availableSizes(mode, state);
    }
    bool isNull() override { return icon().isNull(); }
    QString key() const override { return QStringLiteral("sandcastle-deferred"); }
    QIconEngine *clone() const override { return new DeferredIconEngine(m_path); }

private:
    const QIcon &icon()
    {
        if (!m_icon)
            m_icon = QIcon(m_path);
        return *m_icon;
    }

    QString m_path;
    std::optional<QIcon> m_icon;
};

} // namespace

QIcon actionIcon(const char *name)
{
    return QIcon(new DeferredIconEngine(QStringLiteral(":/icons/actions/") + QLatin1String(name)
                                        + QStringLiteral(".svg")));
}

} // namespace Sandcastle
