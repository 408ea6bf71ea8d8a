#include "modelprofiles.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QSaveFile>

namespace Sandcastle {

double ModelProfile::cost(qint64 promptTokens, qint64 completionTokens) const
{
    if (!hasPrice())
        return -1;
    return (double(qMax<qint64>(0, promptTokens)) * inputPerMTok
            + double(qMax<qint64>(0, completionTokens)) * outputPerMTok)
           / 1e6;
}

ModelProfiles ModelProfiles::builtIn()
{
    // List prices per million tokens (input, output) and context windows, as published by the
    // provider; the person's models.json wins over these.
    ModelProfiles p;
    p.set(QStringLiteral("gpt-4o-mini"), {0.15, 0.60, 128000});
    p.set(QStringLiteral("gpt-4o"), {2.50, 10.00, 128000});
    p.set(QStringLiteral("gpt-4.1"), {2.00, 8.00, 1047576});
    p.set(QStringLiteral("gpt-4.1-mini"), {0.40, 1.60, 1047576});
    p.set(QStringLiteral("gpt-4.1-nano"), {0.10, 0.40, 1047576});
    p.set(QStringLiteral("o3-mini"), {1.10, 4.40, 200000});
    p.set(QStringLiteral("o4-mini"), {1.10, 4.40, 200000});
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
