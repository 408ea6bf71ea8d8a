#include "mcpconfig.h"

#include <QFile>
#include <QFileDevice>
#include <QRegularExpression>
#include <QSaveFile>

namespace Sandcastle {

namespace {

QString textOf(const nlohmann::json &value)
{
    return QString::fromStdString(value.get<std::string>());
}

// A string-to-string object ("env", "headers"); numbers and booleans are taken as their text,
// as the programs whose files these are take them.
Result<QMap<QString, QString>> stringMap(const nlohmann::json &entry, const char *key)
{
    QMap<QString, QString> out;
    const auto it = entry.find(key);
    if (it == entry.end() || it->is_null())
        return Result<QMap<QString, QString>>::ok(out);
    if (!it->is_object())
        return Result<QMap<QString, QString>>::failure(
            QStringLiteral("\"%1\" is not an object").arg(QLatin1String(key)));
    for (auto item = it->begin(); item != it->end(); ++item) {
        const QString name = QString::fromStdString(item.key());
        if (item->is_string())
            out.insert(name, textOf(*item));
        else if (item->is_number() || item->is_boolean())
            out.insert(name, QString::fromStdString(item->dump()));
        else
            return Result<QMap<QString, QString>>::failure(
                QStringLiteral("\"%1\" has a value for %2 that is not text")
                    .arg(QLatin1String(key), name));
    }
    return Result<QMap<QString, QString>>::ok(out);
}

nlohmann::json mapJson(const QMap<QString, QString> &map)
{
    nlohmann::json out = nlohmann::json::object();
    for (auto it = map.begin(); it != map.end(); ++it)
        out[it.key().toStdString()] = it.value().toStdString();
    return out;
}

const char *const KnownKeys[] = {"type",
                                 "serverUrl",
                                 "command",
                                 "args",
                                 "env",
                                 "cwd",
                                 "url",
                                 "headers",
                                 "disabled",
                                 "approval",
                                 "timeout"};

bool isKnownKey(const std::string &key)
{
    return std::any_of(
        std::begin(KnownKeys), std::end(KnownKeys), [&key](const char *k) { return key == k; });
}

Result<bool> readTransport(const nlohmann::json &entry, McpServerConfig &config)
{
    const QString type = QString::fromStdString(entry.value("type", std::string())).toLower();
    if (type == QLatin1String("sse"))
        return Result<bool>::failure(
            QStringLiteral("uses the HTTP+SSE transport, deprecated since 2025-03-26 and not "
                           "supported here; use the server's Streamable HTTP address"));
    const bool hasCommand = entry.contains("command");
    const bool hasUrl = entry.contains("url") || entry.contains("serverUrl");
    if (hasCommand == hasUrl)
        return Result<bool>::failure(hasCommand ? QStringLiteral("has both command and url")
                                                : QStringLiteral("has neither command nor url"));
    if (hasCommand) {
        if (!entry["command"].is_string() || entry["command"].get<std::string>().empty())
            return Result<bool>::failure(QStringLiteral("\"command\" is not a program name"));
        config.transport = McpServerConfig::Transport::Stdio;
        config.command = textOf(entry["command"]);
        if (entry.contains("args")) {
            if (!entry["args"].is_array())
                return Result<bool>::failure(QStringLiteral("\"args\" is not a list"));
            for (const auto &arg : entry["args"]) {
                if (!arg.is_string())
                    return Result<bool>::failure(QStringLiteral("\"args\" holds a non-text item"));
                config.args << textOf(arg);
            }
        }
        if (entry.contains("cwd") && entry["cwd"].is_string())
            config.cwd = textOf(entry["cwd"]);
        return Result<bool>::ok(true);
    }
    const nlohmann::json &url = entry.contains("url") ? entry["url"] : entry["serverUrl"];
    if (!url.is_string())
        return Result<bool>::failure(QStringLiteral("\"url\" is not text"));
    config.url = textOf(url);
    static const QRegularExpression scheme(QStringLiteral("^https?://[^/\\s]+"),
                                           QRegularExpression::CaseInsensitiveOption);
    if (!scheme.match(config.url).hasMatch())
        return Result<bool>::failure(
            QStringLiteral("\"url\" is not an http:// or https:// address: %1").arg(config.url));
    config.transport = McpServerConfig::Transport::Http;
    return Result<bool>::ok(true);
}

Result<bool> readSandcastleKeys(const nlohmann::json &entry, McpServerConfig &config)
{
    if (entry.contains("disabled")) {
        if (!entry["disabled"].is_boolean())
            return Result<bool>::failure(QStringLiteral("\"disabled\" is not true or false"));
        config.enabled = !entry["disabled"].get<bool>();
    }
    if (entry.contains("approval")) {
        const QString approval
            = entry["approval"].is_string() ? textOf(entry["approval"]).toLower() : QString();
        if (approval == QLatin1String("always"))
            config.approval = McpApproval::Always;
        else if (approval == QLatin1String("once"))
            config.approval = McpApproval::Once;
        else if (approval == QLatin1String("never"))
            config.approval = McpApproval::Never;
        else
            return Result<bool>::failure(
                QStringLiteral("\"approval\" is not \"always\", \"once\" or \"never\""));
    }
    if (entry.contains("timeout")) {
        const nlohmann::json &t = entry["timeout"];
        if (!t.is_number() || t.get<double>() < 1 || t.get<double>() > 3600)
            return Result<bool>::failure(
                QStringLiteral("\"timeout\" is not a number of seconds from 1 to 3600"));
        config.timeoutSeconds = static_cast<int>(t.get<double>());
    }
    return Result<bool>::ok(true);
}

} // namespace

QString mcpApprovalName(McpApproval approval)
{
    switch (approval) {
    case McpApproval::Always:
        return QStringLiteral("always");
    case McpApproval::Never:
        return QStringLiteral("never");
    case McpApproval::Once:
        break;
    }
    return QStringLiteral("once");
}

QString McpServerConfig::summary() const
{
    if (transport == Transport::Http)
        return url;
    QStringList parts{command};
    parts << args;
    return parts.join(QLatin1Char(' '));
}

nlohmann::json McpServerConfig::toJson() const
{
    nlohmann::json out = extra.is_object() ? extra : nlohmann::json::object();
    if (transport == Transport::Http) {
        out["url"] = url.toStdString();
        if (!headers.isEmpty())
            out["headers"] = mapJson(headers);
    } else {
        out["command"] = command.toStdString();
        nlohmann::json list = nlohmann::json::array();
        for (const QString &arg : args)
            list.push_back(arg.toStdString());
        out["args"] = list;
        if (!env.isEmpty())
            out["env"] = mapJson(env);
        if (!cwd.isEmpty())
            out["cwd"] = cwd.toStdString();
    }
    if (!enabled)
        out["disabled"] = true;
    if (approval != McpApproval::Once)
        out["approval"] = mcpApprovalName(approval).toStdString();
    if (timeoutSeconds != DefaultTimeoutSeconds)
        out["timeout"] = timeoutSeconds;
    return out;
}

Result<McpServerConfig> McpServerConfig::fromJson(const QString &name, const nlohmann::json &entry)
{
    McpServerConfig config;
    config.name = name;
    if (!McpConfigFile::isValidName(name))
        return Result<McpServerConfig>::failure(
            QStringLiteral("the name is not 1-64 of letters, digits, '_' and '-'"));
    if (!entry.is_object())
        return Result<McpServerConfig>::failure(QStringLiteral("is not an object"));
    Result<bool> ok = readTransport(entry, config);
    if (ok)
        ok = readSandcastleKeys(entry, config);
    const Result<QMap<QString, QString>> env = stringMap(entry, "env");
    const Result<QMap<QString, QString>> headers = stringMap(entry, "headers");
    if (ok && !env)
        ok = Result<bool>::failure(env.error());
    if (ok && !headers)
        ok = Result<bool>::failure(headers.error());
    if (!ok)
        return Result<McpServerConfig>::failure(ok.error());
    config.env = env.value();
    config.headers = headers.value();
    for (auto it = entry.begin(); it != entry.end(); ++it) {
        if (!isKnownKey(it.key()))
            config.extra[it.key()] = *it;
    }
    return Result<McpServerConfig>::ok(config);
}

bool McpServerConfig::operator==(const McpServerConfig &other) const
{
    return name == other.name && toJson() == other.toJson();
}

bool McpConfigFile::isValidName(const QString &name)
{
    static const QRegularExpression valid(QStringLiteral("^[A-Za-z0-9_-]{1,64}$"));
    return valid.match(name).hasMatch();
}

Result<McpConfigFile> McpConfigFile::parse(const QByteArray &text)
{
    McpConfigFile file;
    if (text.trimmed().isEmpty())
        return Result<McpConfigFile>::ok(file);
    const nlohmann::json json = nlohmann::json::parse(text.toStdString(), nullptr, false);
    if (!json.is_object())
        return Result<McpConfigFile>::failure(QStringLiteral("it is not a JSON object"));
    for (auto it = json.begin(); it != json.end(); ++it) {
        if (it.key() != "mcpServers")
            file.other[it.key()] = *it;
    }
    const auto servers = json.find("mcpServers");
    if (servers == json.end())
        return Result<McpConfigFile>::ok(file);
    if (!servers->is_object())
        return Result<McpConfigFile>::failure(QStringLiteral("\"mcpServers\" is not an object"));
    for (auto it = servers->begin(); it != servers->end(); ++it) {
        const QString name = QString::fromStdString(it.key());
        const Result<McpServerConfig> server = McpServerConfig::fromJson(name, *it);
        if (server) {
            file.servers << server.value();
        } else {
            file.problems << QStringLiteral("server '%1': %2").arg(name, server.error());
            file.refused[it.key()] = *it;
        }
    }
    return Result<McpConfigFile>::ok(file);
}

Result<McpConfigFile> McpConfigFile::read(const QString &path)
{
    QFile file(path);
    if (!file.exists())
        return Result<McpConfigFile>::ok(McpConfigFile());
    if (!file.open(QIODevice::ReadOnly))
        return Result<McpConfigFile>::failure(
            QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
    constexpr qint64 MaxBytes = 4 << 20;
    if (file.size() > MaxBytes)
        return Result<McpConfigFile>::failure(
            QStringLiteral("%1 is larger than 4 MB: not an MCP configuration").arg(path));
    Result<McpConfigFile> parsed = parse(file.readAll());
    if (!parsed)
        return Result<McpConfigFile>::failure(
            QStringLiteral("%1 cannot be read: %2").arg(path, parsed.error()));
    return parsed;
}

QByteArray McpConfigFile::serialize() const
{
    nlohmann::json json = other.is_object() ? other : nlohmann::json::object();
    nlohmann::json entries = refused.is_object() ? refused : nlohmann::json::object();
    for (const McpServerConfig &server : servers)
        entries[server.name.toStdString()] = server.toJson();
    json["mcpServers"] = entries;
    return QByteArray::fromStdString(json.dump(2)) + '\n';
}

Result<bool> McpConfigFile::write(const QString &path) const
{
    QSaveFile file(path);
    const QByteArray bytes = serialize();
    if (!file.open(QIODevice::WriteOnly))
        return Result<bool>::failure(
            QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    if (file.write(bytes) != bytes.size() || !file.commit())
        return Result<bool>::failure(
            QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    return Result<bool>::ok(true);
}

const McpServerConfig *McpConfigFile::find(const QString &name) const
{
    for (const McpServerConfig &server : servers) {
        if (server.name == name)
            return &server;
    }
    return nullptr;
}

} // namespace Sandcastle
