#include "theme.h"

#include "icons.h"

#include <QApplication>
#include <QPalette>
#include <QProxyStyle>
#include <QStyle>
#include <QStyleFactory>

namespace Sandcastle {

namespace {

// The platform's style, but for the standard icons the first frame asks for: Qt's own are PNG
// files, and reading the first of them makes Qt's image reader load every image plugin (gif,
// ico, jpeg, svg) to learn the format, about 2 ms of the window's start-up. The tab close
// button gets Sandcastle's own SVG; the tool bar extension arrow (a menu bar makes it, it shows
// only when the menus do not fit) is the style's own, made when first drawn.
class SandcastleStyle : public QProxyStyle
{
public:
    using QProxyStyle::QProxyStyle;

    QIcon standardIcon(StandardPixmap icon,
                       const QStyleOption *option,
                       const QWidget *widget) const override
    {
        switch (icon) {
        case SP_TabCloseButton:
            return tabCloseIcon();
        case SP_ToolBarHorizontalExtensionButton:
        case SP_ToolBarVerticalExtensionButton:
            return deferredIcon([icon] {
                const auto *style = qobject_cast<const QProxyStyle *>(QApplication::style());
                return (style ? style->baseStyle() : QApplication::style())->standardIcon(icon);
            });
        default:
            return QProxyStyle::standardIcon(icon, option, widget);
        }
    }
};

QStyle *styleNamed(const QString &name)
{
    return new SandcastleStyle(QStyleFactory::create(name));
}

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x30);
    const QColor base(0x1e, 0x1f, 0x22);
    const QColor text(0xdf, 0xe1, 0xe5);
    const QColor disabled(0x7a, 0x7e, 0x85);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Highlight, QColor(0x35, 0x74, 0xf0));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x54, 0x9d, 0xf5));
    for (const QPalette::ColorRole role :
         {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

} // namespace

Theme themeFromName(const QString &name)
{
    if (name == QLatin1String("light"))
        return Theme::Light;
    if (name == QLatin1String("dark"))
        return Theme::Dark;
    return Theme::System;
}

QString themeName(Theme theme)
{
    switch (theme) {
    case Theme::Light:
        return QStringLiteral("light");
    case Theme::Dark:
        return QStringLiteral("dark");
    case Theme::System:
        break;
    }
    return QStringLiteral("system");
}

void applyTheme(Theme theme)
{
    static const QString systemStyle = QApplication::style()->name();
    switch (theme) {
    case Theme::System:
        QApplication::setStyle(styleNamed(systemStyle));
        QApplication::setPalette(QApplication::style()->standardPalette());
        break;
    case Theme::Light:
        QApplication::setStyle(styleNamed(QStringLiteral("Fusion")));
        QApplication::setPalette(QApplication::style()->standardPalette());
        break;
    case Theme::Dark:
        QApplication::setStyle(styleNamed(QStringLiteral("Fusion")));
        QApplication::setPalette(darkPalette());
        break;
    }
}

bool paletteIsDark()
{
    return paletteIsDark(QApplication::palette());
}

bool paletteIsDark(const QPalette &palette)
{
    return palette.color(QPalette::Text).lightness() > palette.color(QPalette::Base).lightness();
}

} // namespace Sandcastle
