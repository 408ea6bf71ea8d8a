#pragma once

namespace Sandcastle {

// Registers the sandbox's embedded files (:/sandbox/image/...: the Dockerfile, the kernel and
// the build script). Resources in a static library must be registered by hand.
void initSandboxResources();

} // namespace Sandcastle
