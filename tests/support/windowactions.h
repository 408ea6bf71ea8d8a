#pragma once

#include <ui/mainwindow.h>

#include <QAction>

namespace Sandcastle::Testing {

// The window's menu action with this object name (submenus included), or null.
inline QAction *windowAction(const MainWindow &window, const QString &name)
{
    for (QAction *a : window.allActions()) {
        if (a->objectName() == name)
            return a;
    }
    return nullptr;
}

} // namespace Sandcastle::Testing
