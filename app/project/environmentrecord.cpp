#include "environmentrecord.h"

#include <base/jsonfields.h>
#include <nlohmann/json.hpp>

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace Sandcastle {

namespace {

std::string stdString(const QString &s)
{
    return s.toStdString();
}

} // namespace

QString EnvironmentRecord::fileFor(const QString &dataDir, const QString &workspace)
{
    const QByteArray key
        = QCryptographicHash::hash(QDir::cleanPath(workspace).toUtf8(), QCryptographicHash::Sha256)
              .toHex()
              .left(16);
    return dataDir + QStringLiteral("/environments/") + QString::fromLatin1(key)
           + QStringLiteral(".json");
}

QString EnvironmentRecord::logFileFor(const QString &dataDir, const EnvironmentSpec &spec)
{
    return dataDir + QStringLiteral("/environments/logs/") + spec.contentHash().left(16)
           + QStringLiteral(".log");
}

EnvironmentRecord EnvironmentRecord::load(const QString &dataDir, const QString &workspace)
{
    EnvironmentRecord record;
    record.workspace = QDir::cleanPath(workspace);
    QFile file(fileFor(dataDir, workspace));
    if (!file.open(QIODevice::ReadOnly))
        return record;
    const nlohmann::json json = nlohmann::json::parse(file.readAll().toStdString(), nullptr, false);
    if (!json.is_object() || jsonString(json, "workspace") != record.workspace)
        return record;
    record.image = jsonString(json, "image");
    record.hash = jsonString(json, "hash");
    record.packages = jsonString(json, "packages");
    record.approvedRequirements = jsonString(json, "approved_requirements").toUtf8();
    record.approvedApt = jsonString(json, "approved_apt").toUtf8();
    const auto hashes = json.find("approved_hashes");
    if (hashes != json.end() && hashes->is_array()) {
        for (const nlohmann::json &h : *hashes) {
            if (h.is_string())
                record.approvedHashes.append(QString::fromStdString(h.get<std::string>()));
        }
    }
    return record;
}

Result<bool> EnvironmentRecord::save(const QString &dataDir) const
{
    nlohmann::json hashes = nlohmann::json::array();
    for (const QString &h : approvedHashes)
        hashes.push_back(stdString(h));
    const nlohmann::json json = {{"workspace", stdString(workspace)},
                                 {"image", stdString(image)},
                                 {"hash", stdString(hash)},
                                 {"packages", stdString(packages)},
                                 {"approved_requirements", approvedRequirements.toStdString()},
                                 {"approved_apt", approvedApt.toStdString()},
                                 {"approved_hashes", hashes}};
    const QString path = fileFor(dataDir, workspace);
    QDir().mkpath(QFileInfo(path).path());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Result<bool>::failure(
            QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    file.write(QByteArray::fromStdString(
        json.dump(1, ' ', false, nlohmann::json::error_handler_t::replace)));
    if (!file.commit())
        return Result<bool>::failure(
            QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    return Result<bool>::ok(true);
}

bool EnvironmentRecord::isApproved(const EnvironmentSpec &spec) const
{
    return approvedHashes.contains(spec.contentHash());
}

void EnvironmentRecord::approve(const EnvironmentSpec &spec)
{
    const QString h = spec.contentHash();
    approvedHashes.removeAll(h);
    approvedHashes.append(h);
    // A folder's history of approvals stays short: the last twenty.
    while (approvedHashes.size() > 20)
        approvedHashes.removeFirst();
    approvedRequirements = spec.requirements;
    approvedApt = spec.apt;
}

void EnvironmentRecord::recordBuilt(const EnvironmentImage &built, const EnvironmentSpec &spec)
{
    image = built.tag;
    hash = built.hash;
    packages = built.packages;
    approve(spec);
}

QString EnvironmentRecord::imageOr(const QString &defaultImage) const
{
    return image.isEmpty() ? defaultImage : image;
}

} // namespace Sandcastle
