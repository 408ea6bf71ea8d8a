#pragma once

#include "mcpclient.h"
#include "mcpconfig.h"

#include <QMap>
#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>

namespace Sandcastle {

class Tool;

// The MCP servers of the data folder's mcp.json, for the conversations of this process: each
// enabled server is started when a conversation first needs its tools (prepare()), kept while
// the application runs, started again after it failed (the next prepare()), and stopped with
// the hub. Servers run on the host, outside the sandbox.
class McpHub : public QObject
{
    Q_OBJECT
public:
    explicit McpHub(QString configPath, QObject *parent = nullptr);
    ~McpHub() override;

    // Reads mcp.json again; servers whose entry changed or went are stopped (the changed ones
    // start again with the next prepare()). An error when the file cannot be read.
    Result<bool> reload();
    const McpConfigFile &config() const { return m_config; }
    QString configPath() const { return m_path; }
    bool hasEnabledServers() const;

    // Starts the enabled servers that are not connected; `done` once each is ready or has
    // failed (at once when there is nothing to start).
    void prepare(const std::function<void()> &done);
    // The tools of the connected servers, as the model is offered them.
    QList<std::shared_ptr<const Tool>> tools();
    // The connection to a server (null when it is not started or gone).
    McpClient *client(const QString &server) const;
    // Why each server that failed did (server name → sentence), until it is started again.
    const QMap<QString, QString> &failures() const { return m_failures; }
    void closeAll();

Q_SIGNALS:
    // A server's tool list changed (tools/list_changed, or it connected or went away).
    void toolsChanged();
    void serverFailed(const QString &server, const QString &reason);

private:
    void startServer(const McpServerConfig &server);
    void settle();

    QString m_path;
    McpConfigFile m_config;
    QMap<QString, QPointer<McpClient>> m_clients;
    QMap<QString, QString> m_failures;
    QList<std::function<void()>> m_waiting;
};

} // namespace Sandcastle
