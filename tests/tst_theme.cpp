// The application style: the platform's (or Fusion), with the standard icons the first frame
// asks for made without Qt's image plugins.
#include <ui/theme.h>

#include <QApplication>
#include <QFile>
#include <QStyle>
#include <QTabBar>
#include <QtTest>

using namespace Sandcastle;

static void initResources()
{
    Q_INIT_RESOURCE(resources);
}

namespace {

// Whether a library whose path contains `part` is mapped into this process.
bool isLoaded(const QByteArray &part)
{
    QFile maps(QStringLiteral("/proc/self/maps"));
    return maps.open(QIODevice::ReadOnly) && maps.readAll().contains(part);
}

QImage pixels(const QIcon &icon, QIcon::Mode mode)
{
    return icon.pixmap(QSize(16, 16), 1.0, mode).toImage();
}

} // namespace

class TestTheme : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initResources(); }

    void aClosableTabIsDrawnWithoutLoadingImagePlugins()
    {
        applyTheme(Theme::Light);
        QTabBar tabs;
        tabs.setTabsClosable(true);
        tabs.addTab(QStringLiteral("untitled.py"));
        tabs.addTab(QStringLiteral("data.csv"));
        tabs.resize(400, 30);
        QVERIFY(!tabs.grab().isNull());
        // Qt's own close icon is a PNG, and the first PNG read through QIcon makes Qt load every
        // image plugin to learn its format (2 ms of start-up).
        QVERIFY(!isLoaded("imageformats/libqgif"));
        QVERIFY(!isLoaded("imageformats/libqjpeg"));

        const QIcon close = QApplication::style()->standardIcon(QStyle::SP_TabCloseButton);
        QVERIFY(!close.isNull());
        const QImage normal = pixels(close, QIcon::Normal);
        QVERIFY(normal.pixelColor(8, 8).alpha() > 0 || normal.pixelColor(5, 5).alpha() > 0);
        QVERIFY(pixels(close, QIcon::Active) != normal); // red under the pointer
    }

    void theExtensionArrowIsTheStylesOwnWhenDrawn()
    {
        for (const Theme theme : {Theme::System, Theme::Dark}) {
            applyTheme(theme);
            const QIcon arrow
                = QApplication::style()->standardIcon(QStyle::SP_ToolBarHorizontalExtensionButton);
            QVERIFY(!arrow.isNull());
            QVERIFY(!arrow.pixmap(QSize(16, 16)).isNull());
        }
        QVERIFY(paletteIsDark());
        applyTheme(Theme::Light);
        QVERIFY(!paletteIsDark());
    }
};

QTEST_MAIN(TestTheme)
#include "tst_theme.moc"
