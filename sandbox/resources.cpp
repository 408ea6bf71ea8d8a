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

} // namespace Sandcastle
