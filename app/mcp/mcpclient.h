#pragma once

#include "mcpconfig.h"
#include "mcptransport.h"

#include <base/result.h>

#include <nlohmann/json.hpp>

#include <QHash>
#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>

class QTimer;

namespace Sandcastle {

// A tool a server offers, as tools/list gave it.
struct McpToolInfo
{
    QString name;
    QString title;
    QString description;
    nlohmann::json inputSchema = nlohmann::json::object();
};

// One connection to one MCP server (JSON-RPC 2.0 over an McpTransport): the initialize
// handshake with protocol version negotiation, the server's tools (tools/list, paged, listed
// again on notifications/tools/list_changed), tools/call with a time limit (a call that runs out
// of time is cancelled with notifications/cancelled) and the few requests a server may send
// (ping, roots/list: no roots). A server that crashes, hangs or sends junk fails the
// connection with a sentence saying so; every call waiting then gets that sentence.
class McpClient : public QObject
{
    Q_OBJECT
public:
    enum class State { Idle, Connecting, Ready, Failed, Closed };
    using CallDone = std::function<void(const Result<nlohmann::json> &result)>;

    explicit McpClient(McpServerConfig config, QObject *parent = nullptr);
    // For tests: over a transport of their own (taken over).
    McpClient(McpServerConfig config, McpTransport *transport, QObject *parent = nullptr);
    ~McpClient() override;

    // Starts the server (stdio) and the handshake; ready() or failed() follows.
    void start();
    // Ends the connection politely (the HTTP session deleted, the process asked to end).
    void close();

    State state() const { return m_state; }
    const McpServerConfig &config() const { return m_config; }
    const QList<McpToolInfo> &tools() const { return m_tools; }
    // Agreed at the handshake.
    QString protocolVersion() const { return m_protocolVersion; }
    QString serverName() const { return m_serverName; }
    QString serverVersion() const { return m_serverVersion; }
    QString instructions() const { return m_instructions; }
    QString error() const { return m_error; }
    McpTransport *transport() const { return m_transport; }

    // tools/call: `done` gets the call's result object ({"content": [...], "isError"?,
    // "structuredContent"?}) or why there is none (the server's error, the time limit, the
    // connection gone). Returns a ticket for cancel(); `done` is never called after cancel().
    quint64
    callTool(const QString &name, const nlohmann::json &arguments, int timeoutMs, CallDone done);
    // Tells the server the call is no longer wanted.
    void cancel(quint64 ticket, const QString &reason = QString());

    // The versions of the protocol spoken, the newest first.
    static QStringList supportedVersions();
    static constexpr int ConnectTimeoutMs = 30000;

Q_SIGNALS:
    void ready();
    void toolsChanged();
    void failed(const QString &reason);

private:
    struct Pending
    {
        QString method;
        CallDone done;
        QTimer *timer = nullptr;
    };
    quint64
    request(const QString &method, const nlohmann::json &params, int timeoutMs, CallDone done);
    void notify(const QString &method, const nlohmann::json &params = nlohmann::json::object());
    void onMessage(const nlohmann::json &message);
    void onResponse(const nlohmann::json &message);
    void onServerRequest(const nlohmann::json &message);
    void onInitialized(const Result<nlohmann::json> &result);
    void listTools(const QString &cursor, QList<McpToolInfo> sofar);
    void onTransportFailed(const QString &reason);
    void finishPending(quint64 id, const Result<nlohmann::json> &result);
    void setUpTransport();

    McpServerConfig m_config;
    QPointer<McpTransport> m_transport;
    State m_state = State::Idle;
    QHash<quint64, Pending> m_pending;
    quint64 m_nextId = 1;
    QList<McpToolInfo> m_tools;
    bool m_listing = false;
    int m_pages = 0;
    bool m_listAgain = false;
    QString m_protocolVersion;
    QString m_serverName;
    QString m_serverVersion;
    QString m_instructions;
    QString m_error;
};

} // namespace Sandcastle
