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
    if (!translator->load(
            locale, QStringLiteral("sandcastle"), QStringLiteral("_"), QStringLiteral(":/i18n"))) {
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
