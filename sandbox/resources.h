#pragma once

#include <QStringList>

namespace Sandcastle {

// Registers the sandbox's embedded files (:/sandbox/image/...: the Dockerfile, the kernel and
// the build script). Resources in a static library must be registered by hand.
void initSandboxResources();

// The files of the default image's build context, by name under :/sandbox/image/ (the
// Dockerfile, the kernel, its matplotlib backend, the package scanner, the build script).
const QStringList &sandboxImageFiles();

} // namespace Sandcastle
