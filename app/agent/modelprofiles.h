#pragma once

#include <base/result.h>

#include <QMap>
#include <QString>

namespace Sandcastle {

// What Sandcastle knows about a model: its price (US dollars per million tokens) and its
// context window. Unknown values are negative (price) or 0 (window).
struct ModelProfile
{
    double inputPerMTok = -1;
    double outputPerMTok = -1;
    qint64 contextTokens = 0;
    // Input the server read from its prompt cache, and input it wrote to the cache (Anthropic
    // bills writes above the input price); unknown: the input price.
    double cachedInputPerMTok = -1;
    double cacheWritePerMTok = -1;

    bool hasPrice() const { return inputPerMTok >= 0 && outputPerMTok >= 0; }
    double cachedInputPrice() const
    {
        return cachedInputPerMTok >= 0 ? cachedInputPerMTok : inputPerMTok;
    }
    double cacheWritePrice() const
    {
        return cacheWritePerMTok >= 0 ? cacheWritePerMTok : inputPerMTok;
    }
    // promptTokens counts all the input, the cached and cache-written parts included.
    double cost(qint64 promptTokens,
                qint64 completionTokens,
                qint64 cachedTokens = 0,
                qint64 cacheWriteTokens = 0) const;
};

// The price table: built-in list prices of common hosted models, overridden and extended by
// `models.json` in the data folder, which the person edits:
//   {"my-model": {"input_per_mtok": 0.5, "output_per_mtok": 1.5, "context_tokens": 32768,
//                 "cached_input_per_mtok": 0.05, "cache_write_per_mtok": 0.625}}
// A model is looked up by its exact name, then by the longest known prefix (dated snapshots
// such as gpt-4o-mini-2024-07-18), then without a router prefix (openai/gpt-4o-mini).
class ModelProfiles
{
public:
    static ModelProfiles builtIn();
    static QString fileIn(const QString &dataDir);
    // Merges the file over what is there; a missing file is not an error, a broken one is.
    Result<bool> loadFile(const QString &path);
    Result<bool> saveFile(const QString &path) const;

    ModelProfile lookup(const QString &model) const;
    void set(const QString &model, const ModelProfile &profile) { m_profiles[model] = profile; }
    const QMap<QString, ModelProfile> &all() const { return m_profiles; }

private:
    QMap<QString, ModelProfile> m_profiles;
};

} // namespace Sandcastle
