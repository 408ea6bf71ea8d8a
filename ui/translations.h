#pragma once

#include <QString>

namespace Sandcastle {

// Installs Sandcastle's and Qt's own translations for `language` ("de", "fr"; empty follows the
// system's locale). Returns the language loaded, or an empty string when it stays English.
QString installTranslations(const QString &language);

} // namespace Sandcastle
