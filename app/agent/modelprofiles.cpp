#include "modelprofiles.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QSaveFile>

namespace Sandcastle {

double ModelProfile::cost(qint64 promptTokens,
                          qint64 completionTokens,
                          qint64 cachedTokens,
                          qint64 cacheWriteTokens) const
{
    if (!hasPrice())
        return -1;
    const qint64 prompt = qMax<qint64>(0, promptTokens);
    // Never more cached than was sent, whatever a server reports.
    const qint64 cached = qBound<qint64>(0, cachedTokens, prompt);
    const qint64 written = qBound<qint64>(0, cacheWriteTokens, prompt - cached);
    const qint64 fresh = prompt - cached - written;
    return (double(fresh) * inputPerMTok + double(cached) * cachedInputPrice()
            + double(written) * cacheWritePrice()
            + double(qMax<qint64>(0, completionTokens)) * outputPerMTok)
           / 1e6;
}

ModelProfiles ModelProfiles::builtIn()
{
    // List prices per million tokens (input, output, cached input, cache write) and context
    // windows, as published by the provider; the person's models.json wins over these. OpenAI
    // caches by itself and bills no writes; Anthropic bills a 5-minute cache write at 1.25
    // times the input price and a read at a tenth of it.
    ModelProfiles p;
    p.set(QStringLiteral("gpt-4o-mini"), {0.15, 0.60, 128000, 0.075, 0.15});
    p.set(QStringLiteral("gpt-4o"), {2.50, 10.00, 128000, 1.25, 2.50});
    p.set(QStringLiteral("gpt-4.1"), {2.00, 8.00, 1047576, 0.50, 2.00});
    p.set(QStringLiteral("gpt-4.1-mini"), {0.40, 1.60, 1047576, 0.10, 0.40});
    p.set(QStringLiteral("gpt-4.1-nano"), {0.10, 0.40, 1047576, 0.025, 0.10});
    p.set(QStringLiteral("gpt-5"), {1.25, 10.00, 400000, 0.125, 1.25});
    p.set(QStringLiteral("gpt-5-mini"), {0.25, 2.00, 400000, 0.025, 0.25});
    p.set(QStringLiteral("gpt-5-nano"), {0.05, 0.40, 400000, 0.005, 0.05});
    p.set(QStringLiteral("o3-mini"), {1.10, 4.40, 200000, 0.55, 1.10});
    p.set(QStringLiteral("o4-mini"), {1.10, 4.40, 200000, 0.275, 1.10});
    p.set(QStringLiteral("claude-sonnet-4"), {3.00, 15.00, 200000, 0.30, 3.75});
    p.set(QStringLiteral("claude-opus-4"), {15.00, 75.00, 200000, 1.50, 18.75});
    p.set(QStringLiteral("claude-opus-4-5"), {5.00, 25.00, 200000, 0.50, 6.25});
    p.set(QStringLiteral("claude-haiku-4-5"), {1.00, 5.00, 200000, 0.10, 1.25});
    p.set(QStringLiteral("claude-3-5-haiku"), {0.80, 4.00, 200000, 0.08, 1.00});
    return p;
}

QString ModelProfiles::fileIn(const QString &dataDir)
{
    return dataDir + QStringLiteral("/models.json");
}

Result<bool> ModelProfiles::loadFile(const QString &path)
{
    QFile file(path);
    if (!file.exists())
        return Result<bool>::ok(false);
    if (!file.open(QIODevice::ReadOnly))
        return Result<bool>::failure(
            QStringLiteral("could not read %1: %2").arg(path, file.errorString()));
    const nlohmann::json json = nlohmann::json::parse(file.readAll().toStdString(), nullptr, false);
    if (!json.is_object())
        return Result<bool>::failure(
            QStringLiteral("%1 is not a JSON object of models; it was ignored").arg(path));
    for (auto it = json.begin(); it != json.end(); ++it) {
        if (!it.value().is_object())
            return Result<bool>::failure(
                QStringLiteral("%1: the entry for %2 is not an object; the file was ignored")
                    .arg(path, QString::fromStdString(it.key())));
    }
    for (auto it = json.begin(); it != json.end(); ++it) {
        const QString name = QString::fromStdString(it.key());
        ModelProfile profile = m_profiles.value(name);
        const nlohmann::json &entry = it.value();
        auto number = [&](const char *key, double fallback) {
            const auto v = entry.find(key);
            return v != entry.end() && v->is_number() && v->get<double>() >= 0 ? v->get<double>()
                                                                               : fallback;
        };
        profile.inputPerMTok = number("input_per_mtok", profile.inputPerMTok);
        profile.outputPerMTok = number("output_per_mtok", profile.outputPerMTok);
        profile.contextTokens = qint64(number("context_tokens", double(profile.contextTokens)));
        profile.cachedInputPerMTok = number("cached_input_per_mtok", profile.cachedInputPerMTok);
        profile.cacheWritePerMTok = number("cache_write_per_mtok", profile.cacheWritePerMTok);
        m_profiles[name] = profile;
    }
    return Result<bool>::ok(true);
}

Result<bool> ModelProfiles::saveFile(const QString &path) const
{
    nlohmann::ordered_json json = nlohmann::ordered_json::object();
    for (auto it = m_profiles.begin(); it != m_profiles.end(); ++it) {
        nlohmann::ordered_json entry = nlohmann::ordered_json::object();
        if (it->hasPrice()) {
            entry["input_per_mtok"] = it->inputPerMTok;
            entry["output_per_mtok"] = it->outputPerMTok;
        }
        if (it->cachedInputPerMTok >= 0)
            entry["cached_input_per_mtok"] = it->cachedInputPerMTok;
        if (it->cacheWritePerMTok >= 0)
            entry["cache_write_per_mtok"] = it->cacheWritePerMTok;
        if (it->contextTokens > 0)
            entry["context_tokens"] = it->contextTokens;
        json[it.key().toStdString()] = entry;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Result<bool>::failure(
            QStringLiteral("could not write %1: %2").arg(path, file.errorString()));
    const QByteArray bytes = QByteArray::fromStdString(json.dump(2)) + '\n';
    if (file.write(bytes) != bytes.size() || !file.commit())
        return Result<bool>::failure(
            QStringLiteral("could not write %1: %2").arg(path, file.errorString()));
    return Result<bool>::ok(true);
}

ModelProfile ModelProfiles::lookup(const QString &model) const
{
    const auto exact = m_profiles.constFind(model);
    if (exact != m_profiles.constEnd())
        return *exact;
    QString best;
    for (auto it = m_profiles.begin(); it != m_profiles.end(); ++it) {
        const QString &name = it.key();
        // A prefix only at a word boundary: gpt-4o matches gpt-4o-2024-08-06, not gpt-4oxyz.
        if (name.size() > best.size() && model.startsWith(name) && model.size() > name.size()
            && !model.at(name.size()).isLetterOrNumber())
            best = name;
    }
    if (!best.isEmpty())
        return m_profiles.value(best);
    const qsizetype slash = model.lastIndexOf(QLatin1Char('/'));
    if (slash >= 0 && slash + 1 < model.size())
        return lookup(model.mid(slash + 1));
    return {};
}

} // namespace Sandcastle
