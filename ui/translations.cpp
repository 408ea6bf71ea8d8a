#include "translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace Sandcastle {

QString installTranslations(const QString &language)
{
    static QTranslator *ours = nullptr;
    static QTranslator *qts = nullptr;
    for (QTranslator **t : {&ours, &qts}) {
        if (*t) {
            QCoreApplication::removeTranslator(*t);
            delete *t;
            *t = nullptr;
        }
    }
    const QLocale locale = language.isEmpty() ? QLocale() : QLocale(language);
    auto *translator = new QTranslator(QCoreApplication::instance());
    // Installed beside the program (<prefix>/bin → <prefix>/share/sandcastle/translations),
    // where a packager may update them; else the ones compiled in.
    const QString installed = QCoreApplication::applicationDirPath()
                              + QStringLiteral("/../share/sandcastle/translations");
    const bool loaded
        = translator->load(locale, QStringLiteral("sandcastle"), QStringLiteral("_"), installed)
          || translator->load(
              locale, QStringLiteral("sandcastle"), QStringLiteral("_"), QStringLiteral(":/i18n"));
    if (!loaded) {
        delete translator;
        return QString();
    }
    QCoreApplication::installTranslator(translator);
    ours = translator;
    // Qt's own strings (standard buttons, file dialogs), when the system has them.
    auto *qt = new QTranslator(QCoreApplication::instance());
    if (qt->load(locale,
                 QStringLiteral("qtbase"),
                 QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt);
        qts = qt;
    } else {
        delete qt;
    }
    return translator->language();
}

} // namespace Sandcastle
