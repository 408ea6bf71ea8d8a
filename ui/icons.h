#pragma once

#include <QIcon>

#include <functional>

namespace Sandcastle {

// An action's icon: an SVG from resources/icons/actions (":/icons/actions/<name>.svg"),
// drawn sharp at any size and device pixel ratio by Qt's SVG icon engine. The file is read
// when the icon is first drawn, not when it is made: most actions live in menus that the
// first frame does not show, and Qt's SVG engine reads and compresses the file at once
// (2-3 ms of the window's start-up for its fifty icons).
QIcon actionIcon(const char *name);
// An icon made by `make` when it is first drawn or measured.
QIcon deferredIcon(std::function<QIcon()> make);
// A tab's close button: a grey cross, red under the pointer (QIcon::Active).
QIcon tabCloseIcon();

} // namespace Sandcastle
