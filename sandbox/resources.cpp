#include "resources.h"

#include <QFile>
#include <QtGlobal>

// Q_INIT_RESOURCE must be used outside of any namespace.
static void initImageResource()
{
    Q_INIT_RESOURCE(image);
}

namespace Sandcastle {

void initSandboxResources()
{
    static const bool done = [] {
        initImageResource();
        return true;
    }();
    (void)done;
}

const QStringList &sandboxImageFiles()
{
    static const QStringList files{QStringLiteral("Dockerfile"),
                                   QStringLiteral("kernel.py"),
                                   QStringLiteral("sandcastle_mpl.py"),
                                   QStringLiteral("packages.py"),
                                   QStringLiteral("build-image.sh")};
    return files;
}

bool writeSandboxImageFiles(const QString &dir)
{
    initSandboxResources();
    for (const QString &name : sandboxImageFiles()) {
        const QString target = dir + QLatin1Char('/') + name;
        if (!QFile::copy(QStringLiteral(":/sandbox/image/") + name, target)
            || !QFile::setPermissions(target,
                                      QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner
                                          | QFile::ReadGroup | QFile::ReadOther))
            return false;
    }
    return true;
}

} // namespace Sandcastle
