#pragma once

#include <QStringList>

namespace Sandcastle {

// Registers the sandbox's embedded files (:/sandbox/image/...: the Dockerfile, the kernel and
// the build script). Resources in a static library must be registered by hand.
void initSandboxResources();

// The files of the default image's build context, by name under :/sandbox/image/ (the
// Dockerfile, the kernel, its matplotlib backend, the package scanner, the build script).
const QStringList &sandboxImageFiles();
// Writes those files into `dir` (the build script executable), ready for `bash
// dir/build-image.sh` or `docker build dir`. False when one could not be written.
bool writeSandboxImageFiles(const QString &dir);

} // namespace Sandcastle
