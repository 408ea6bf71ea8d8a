#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrl>

namespace Sandcastle {

// A known kind of OpenAI-compatible server: where it usually listens, whether it needs a key,
// and any headers it wants. "custom" is whatever URL the person gives.
struct ProviderPreset
{
    QString id;
    QString name;
    QString baseUrl;
    bool needsKey = false;
    QList<QPair<QByteArray, QByteArray>> headers;
};

const QList<ProviderPreset> &providerPresets();
// The preset with this id; the "custom" preset when there is none.
ProviderPreset providerById(const QString &id);
// The preset whose default address this URL is (same scheme, host and port); "custom" if none.
ProviderPreset providerForUrl(const QUrl &url);

} // namespace Sandcastle
