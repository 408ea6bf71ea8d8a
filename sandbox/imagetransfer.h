#pragma once

#include "sandboxconfig.h"

#include <base/result.h>

#include <QString>

#include <functional>

namespace Sandcastle {

// The sandbox image sent from this machine's engine to a remote one, as `docker save | docker
// load` over the remote's own connection (the remote-engine issue: an engine without the image
// gets it without a registry). Blocking: for the command line or a worker thread.
class ImageTransfer
{
public:
    struct Progress
    {
        qint64 sentBytes = 0;
        qint64 totalBytes
            = 0; // the image's size as this machine's engine reports it (≈ the stream)
    };
    using ProgressFn = std::function<void(const Progress &progress)>;

    // What the build that made an image was made from (its org.sandcastle.inputs label), on
    // this machine (`remote` false) or on the configured engine; empty when it is not there.
    static QString inputsOf(const SandboxConfig &config, bool remote);

    // Sends config.image to the configured engine unless it holds the same build already (then
    // `*alreadyThere` is set and nothing is sent). `progress` is called about every 250 ms.
    static Result<bool>
    send(const SandboxConfig &config, const ProgressFn &progress, bool *alreadyThere = nullptr);

    // This machine's engine: the CLI without the context or DOCKER_HOST/CONTAINER_HOST that
    // point it elsewhere.
    static QStringList localEnvironment();
};

} // namespace Sandcastle
