#pragma once

#include <QIcon>

namespace Sandcastle {

// An action's icon: an SVG from resources/icons/actions (":/icons/actions/<name>.svg"),
// drawn sharp at any size and device pixel ratio by Qt's SVG icon engine.
inline QIcon actionIcon(const char *name)
{
    return QIcon(QStringLiteral(":/icons/actions/") + QLatin1String(name) + QStringLiteral(".svg"));
}

} // namespace Sandcastle
