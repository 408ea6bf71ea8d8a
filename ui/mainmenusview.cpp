#include "mainwindow.h"

#include "actions/aboutdialog.h"
#include "actions/editactions.h"
#include "chat/chatpane.h"
#include "chat/transcriptdelegate.h"
#include "console/consolepane.h"
#include "conversations/conversationspane.h"
#include "editor/codeeditor.h"
#include "editor/editorpane.h"
#include "files/filespane.h"
#include "icons.h"
#include "theme.h"

#include <app/controller/conversationcontroller.h>
#include <sandbox/containerengine.h>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QFontDatabase>
#include <QListView>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>

#include <algorithm>

// The Edit, View and Help menus: what acts on the focused pane, what shows and sizes them.
namespace Sandcastle {

namespace {
constexpr int kZoomMin = -6;
constexpr int kZoomMax = 24;
} // namespace

void MainWindow::buildEditMenu()
{
    m_edit = new EditActions(this);
    // Panes that find (and, for the transcript, copy) while the focus is anywhere inside them.
    m_edit->addPane(m_editorPane, [this] { m_editorPane->showFind(); });
    m_edit->addPane(m_console, [this] { m_console->showFind(); });
    m_edit->addPane(
        m_chat, [this] { m_chat->showFind(); }, [this] { m_chat->copyCurrent(); });
    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->setObjectName(QStringLiteral("editMenu"));
    const QList<QAction *> actions = m_edit->actions();
    for (int i = 0; i < actions.size(); ++i) {
        if (i == int(EditActions::Kind::Cut) || i == int(EditActions::Kind::SelectAll)
            || i == int(EditActions::Kind::Find))
            edit->addSeparator();
        edit->addAction(actions.at(i));
    }
    connect(edit, &QMenu::aboutToShow, m_edit, &EditActions::update);
}

void MainWindow::buildViewMenu()
{
    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("viewMenu"));
    addPaneToggles(view);
    view->addSeparator();
    addZoomActions(view);
    view->addSeparator();
    addThemeMenu(view);
    view->addSeparator();
    QAction *fullScreen = view->addAction(tr("F&ull Screen"));
    fullScreen->setObjectName(QStringLiteral("fullScreen"));
    fullScreen->setCheckable(true);
    QList<QKeySequence> keys{QKeySequence(Qt::Key_F11)};
    for (const QKeySequence &key : QKeySequence::keyBindings(QKeySequence::FullScreen)) {
        if (!keys.contains(key))
            keys << key;
    }
    fullScreen->setShortcuts(keys);
    fullScreen->setIcon(actionIcon("fullscreen"));
    connect(fullScreen, &QAction::toggled, this, [this](bool on) {
        setWindowState(on ? (windowState() | Qt::WindowFullScreen)
                          : (windowState() & ~Qt::WindowFullScreen));
    });
}

// Each pane shown or hidden (remembered), and Sandcastle's own files in the files pane.
void MainWindow::addPaneToggles(QMenu *view)
{
    const QSettings state(settings().settingsFile(), QSettings::IniFormat);
    const QList<std::pair<QString, QWidget *>> panes{
        {tr("&Conversations"), m_conversations},
        {tr("C&hat"), m_chat},
        {tr("&Editor"), m_centreSplitter->widget(0)},
        {tr("Co&nsole"), m_console},
        {tr("&Files"), m_files},
    };
    const QStringList names{QStringLiteral("conversations"),
                            QStringLiteral("chat"),
                            QStringLiteral("editor"),
                            QStringLiteral("console"),
                            QStringLiteral("files")};
    for (int i = 0; i < panes.size(); ++i) {
        QWidget *pane = panes.at(i).second;
        QAction *toggle = view->addAction(panes.at(i).first);
        toggle->setObjectName(QStringLiteral("show-") + names.at(i));
        toggle->setCheckable(true);
        toggle->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | (Qt::Key_1 + i)));
        const bool shown = state.value(QStringLiteral("view/") + names.at(i), true).toBool();
        toggle->setChecked(shown);
        pane->setVisible(shown);
        connect(toggle, &QAction::toggled, this, [this, toggle, pane, name = names.at(i)](bool on) {
            showPane(toggle, pane, name, on);
        });
        m_paneToggles << toggle;
    }
    if (std::none_of(m_paneToggles.cbegin(), m_paneToggles.cend(), [](const QAction *a) {
            return a->isChecked();
        }))
        m_paneToggles.at(1)->setChecked(true); // never a window of nothing: the chat comes back
    view->addAction(tr("Show Sandcastle's o&wn files (.sandcastle)"),
                    m_files,
                    [this](bool on) { m_files->setShowInternal(on); })
        ->setCheckable(true);
    QAction *internal = view->actions().constLast();
    internal->setObjectName(QStringLiteral("showInternalFiles"));
    internal->setChecked(m_files->showInternal());
}

void MainWindow::addZoomActions(QMenu *view)
{
    const QSettings state(settings().settingsFile(), QSettings::IniFormat);
    m_zoom = std::clamp(state.value(QStringLiteral("view/zoom"), 0).toInt(), kZoomMin, kZoomMax);
    QAction *zoomIn = view->addAction(tr("Zoom &In"), this, [this] { setZoom(m_zoom + 1); });
    zoomIn->setObjectName(QStringLiteral("zoomIn"));
    zoomIn->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::Key_Plus), QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    zoomIn->setIcon(actionIcon("zoom-in"));
    QAction *zoomOut = view->addAction(tr("Zoom &Out"), this, [this] { setZoom(m_zoom - 1); });
    zoomOut->setObjectName(QStringLiteral("zoomOut"));
    zoomOut->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Minus));
    zoomOut->setIcon(actionIcon("zoom-out"));
    QAction *zoomReset = view->addAction(tr("&Reset Zoom"), this, [this] { setZoom(0); });
    zoomReset->setObjectName(QStringLiteral("zoomReset"));
    zoomReset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    zoomReset->setIcon(actionIcon("zoom-reset"));
    setZoom(m_zoom);
}

void MainWindow::addThemeMenu(QMenu *view)
{
    QMenu *theme = view->addMenu(tr("&Theme"));
    theme->setObjectName(QStringLiteral("themeMenu"));
    auto *themes = new QActionGroup(theme);
    const QList<std::pair<Theme, QString>> choices{{Theme::System, tr("As the &system")},
                                                   {Theme::Light, tr("&Light")},
                                                   {Theme::Dark, tr("&Dark")}};
    for (const auto &[which, text] : choices) {
        QAction *choice = theme->addAction(text);
        choice->setObjectName(QStringLiteral("theme-") + themeName(which));
        choice->setCheckable(true);
        choice->setChecked(themeFromName(settings().theme) == which);
        themes->addAction(choice);
        connect(choice, &QAction::triggered, this, [this, which = which] {
            AppSettings next = settings();
            next.theme = themeName(which);
            next.save();
            applySettings(next);
        });
    }
}

void MainWindow::showPane(QAction *toggle, QWidget *pane, const QString &name, bool on)
{
    if (!on && std::none_of(m_paneToggles.cbegin(), m_paneToggles.cend(), [](const QAction *a) {
            return a->isChecked();
        })) {
        // The last pane stays: a window of nothing helps nobody.
        const QSignalBlocker quiet(toggle);
        toggle->setChecked(true);
        statusBar()->showMessage(tr("One pane at least stays shown."), 4000);
        return;
    }
    pane->setVisible(on);
    QSettings(settings().settingsFile(), QSettings::IniFormat)
        .setValue(QStringLiteral("view/") + name, on);
}

void MainWindow::setZoom(int steps)
{
    m_zoom = std::clamp(steps, kZoomMin, kZoomMax);
    QSettings(settings().settingsFile(), QSettings::IniFormat)
        .setValue(QStringLiteral("view/zoom"), m_zoom);
    // The editor and the diff zoom as Scintilla does (points added to every style's size).
    m_editor->zoomTo(m_zoom);
    m_editorPane->diffView()->zoomTo(m_zoom);
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setPointSizeF(std::max(5.0, mono.pointSizeF() + m_zoom));
    m_console->setFont(mono);
    QFont text = QApplication::font();
    text.setPointSizeF(std::max(5.0, text.pointSizeF() + m_zoom));
    m_chat->transcriptView()->setFont(text);
    m_chat->transcriptDelegate()->clearCache();
    m_chat->transcriptView()->doItemsLayout();
}

int MainWindow::zoom() const
{
    return m_zoom;
}

void MainWindow::showAbout()
{
    AboutDialog about(ContainerEngine(settings().engine, settings().engineContext), this);
    about.exec();
}

} // namespace Sandcastle
