#include "icons.h"

#include <QIconEngine>
#include <QPainter>

#include <functional>
#include <optional>

namespace Sandcastle {

namespace {

// Holds how to make the icon; the real one (for a file, Qt's SVG engine) is made on the first
// question that needs its pixels or sizes.
class DeferredIconEngine : public QIconEngine
{
public:
    explicit DeferredIconEngine(std::function<QIcon()> make)
        : m_make(std::move(make))
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
    QIconEngine *clone() const override { return new DeferredIconEngine(m_make); }

private:
    const QIcon &icon()
    {
        if (!m_icon)
            m_icon = m_make();
        return *m_icon;
    }

    std::function<QIcon()> m_make;
    std::optional<QIcon> m_icon;
};

} // namespace

QIcon deferredIcon(std::function<QIcon()> make)
{
    return QIcon(new DeferredIconEngine(std::move(make)));
}

QIcon actionIcon(const char *name)
{
    const QString path
        = QStringLiteral(":/icons/actions/") + QLatin1String(name) + QStringLiteral(".svg");
    return deferredIcon([path] { return QIcon(path); });
}

QIcon tabCloseIcon()
{
    return deferredIcon([] {
        QIcon icon(QStringLiteral(":/icons/actions/close.svg"));
        icon.addFile(QStringLiteral(":/icons/actions/close-active.svg"), {}, QIcon::Active);
        return icon;
    });
}

} // namespace Sandcastle
