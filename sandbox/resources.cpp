#include "resources.h"

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

} // namespace Sandcastle
