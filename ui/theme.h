#pragma once

#include <QString>

class QPalette;

namespace Sandcastle {

// The window's colours: the system's, or Sandcastle's own light or dark palette (Fusion
// style). Code editors follow the application palette (CodeEditor picks a matching scheme).
enum class Theme { System, Light, Dark };

Theme themeFromName(const QString &name); // "light", "dark", anything else: System
QString themeName(Theme theme);
void applyTheme(Theme theme);
// Whether the application palette (or the given one) is a dark one: text lighter than its
// background.
bool paletteIsDark();
bool paletteIsDark(const QPalette &palette);

} // namespace Sandcastle
