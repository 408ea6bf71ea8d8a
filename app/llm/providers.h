#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrl>

#include "chattypes.h"

namespace Sandcastle {

// A known kind of model server: where it usually listens, whether it needs a key, any headers
// it wants, and the wire format it is best spoken to in. "custom" is whatever URL the person
// gives (Chat Completions, unless the URL is Anthropic's).
struct ProviderPreset
{
    QString id;
    QString name;
    QString baseUrl;
    bool needsKey = false;
    QList<QPair<QByteArray, QByteArray>> headers;
    WireFormat format = WireFormat::ChatCompletions;
};

const QList<ProviderPreset> &providerPresets();
// The preset with this id; the "custom" preset when there is none.
ProviderPreset providerById(const QString &id);
// The preset whose default address this URL is (same scheme, host and port); "custom" if none.
ProviderPreset providerForUrl(const QUrl &url);
// The format "auto" means: the preset's when the URL is the preset's own server; otherwise
// Messages on Anthropic's host and Chat Completions elsewhere.
WireFormat automaticFormat(const QString &providerId, const QUrl &url);

} // namespace Sandcastle
