#pragma once

#include "chattypes.h"

#include <QNetworkRequest>

namespace Sandcastle {

// A request to the model server at `url` with the headers `config` calls for: the key as
// Anthropic wants it (x-api-key, anthropic-version) or as everyone else does (a Bearer token),
// and the provider's extra headers.
QNetworkRequest modelRequest(const QUrl &url, const ClientConfig &config);

} // namespace Sandcastle
