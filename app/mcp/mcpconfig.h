#pragma once

#include <base/result.h>

#include <nlohmann/json.hpp>

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace Sandcastle {

// When a call of a server's tools waits for the person (5ire's terms): every call, the first
// call in each conversation, or never.
enum class McpApproval { Always, Once, Never };
QString mcpApprovalName(McpApproval approval); // "always", "once", "never"

// One MCP server as mcp.json describes it, in the `mcpServers` notation that Claude Desktop,
// Cursor and LM Studio share: a stdio server is a `command` with `args`, `env` (and `cwd`); a
// Streamable HTTP server a `url` with `headers`. Sandcastle's own keys beside them: `disabled`
// (as Cline writes it), `approval` ("always" | "once" | "never", default "once") and
// `timeout` (seconds a call may take, default 30, as Jan).
struct McpServerConfig
{
    enum class Transport { Stdio, Http };
    QString name;
    Transport transport = Transport::Stdio;
    QString command;
    QStringList args;
    QMap<QString, QString> env;
    QString cwd;
    QString url;
    QMap<QString, QString> headers;
    bool enabled = true;
    McpApproval approval = McpApproval::Once;
    int timeoutSeconds = 30;
    nlohmann::json extra = nlohmann::json::object(); // keys of other programs ("type", ...), kept

    static constexpr int DefaultTimeoutSeconds = 30;
    // What the entry says of itself in one line: "npx -y pkg" or the URL.
    QString summary() const;
    // The entry as mcp.json holds it (without its name).
    nlohmann::json toJson() const;
    // One entry; an error says what is wrong with it ("has neither command nor url", ...).
    static Result<McpServerConfig> fromJson(const QString &name, const nlohmann::json &entry);
    bool operator==(const McpServerConfig &other) const;
};

// The file: the servers it holds (in the file's order) and the entries that were refused, each
// with its reason; the rest of the file is kept as it was when it is written back.
struct McpConfigFile
{
    QList<McpServerConfig> servers;
    QStringList problems;                              // "server 'x': has neither command nor url"
    nlohmann::json other = nlohmann::json::object();   // keys beside mcpServers, kept
    nlohmann::json refused = nlohmann::json::object(); // refused entries, written back as read

    // Names a tool may carry: 1-64 of A-Z a-z 0-9 _ -; a server's name is made of them too.
    static bool isValidName(const QString &name);

    // Text of a file: an error only when it is not a JSON object or mcpServers is not one.
    static Result<McpConfigFile> parse(const QByteArray &text);
    // A missing file is an empty configuration.
    static Result<McpConfigFile> read(const QString &path);
    QByteArray serialize() const;
    // Written atomically; the file is kept private to the user (it may hold tokens).
    Result<bool> write(const QString &path) const;
    const McpServerConfig *find(const QString &name) const;
};

} // namespace Sandcastle
