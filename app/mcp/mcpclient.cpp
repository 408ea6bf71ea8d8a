#include "mcpclient.h"

#include "mcphttptransport.h"
#include "mcpstdiotransport.h"

#include <QTimer>
#include <base/jsonfields.h>

namespace Sandcastle {

namespace {

constexpr int MaxToolPages = 100;

QString rpcError(const nlohmann::json &error)
{
    if (!error.is_object())
        return QStringLiteral("the server answered with an error");
    QString message = jsonString(error, "message");
    if (message.isEmpty())
        message = QStringLiteral("no message");
    if (error.contains("code") && error["code"].is_number_integer())
        return QStringLiteral("the server answered with error %1: %2")
            .arg(error["code"].get<qint64>())
            .arg(message.left(1000));
    return QStringLiteral("the server answered with an error: ") + message.left(1000);
}

} // namespace

McpClient::McpClient(McpServerConfig config, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
{
    if (m_config.transport == McpServerConfig::Transport::Http)
        m_transport = new McpHttpTransport(m_config, this);
    else
        m_transport = new McpStdioTransport(m_config, this);
    setUpTransport();
}

McpClient::McpClient(McpServerConfig config, McpTransport *transport, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_transport(transport)
{
    transport->setParent(this);
    setUpTransport();
}

McpClient::~McpClient()
{
    // Nobody is called back from a destructor.
    for (const Pending &pending : std::as_const(m_pending))
        delete pending.timer;
    m_pending.clear();
}

void McpClient::setUpTransport()
{
    connect(m_transport, &McpTransport::messageReceived, this, &McpClient::onMessage);
    connect(m_transport, &McpTransport::failed, this, &McpClient::onTransportFailed);
}

QStringList McpClient::supportedVersions()
{
    return {QStringLiteral("2025-11-25"),
            QStringLiteral("2025-06-18"),
            QStringLiteral("2025-03-26"),
            QStringLiteral("2024-11-05")};
}

void McpClient::start()
{
    if (m_state != State::Idle)
        return;
    m_state = State::Connecting;
    m_transport->open();
    if (m_state != State::Connecting)
        return; // it could not start
    const nlohmann::json params
        = {{"protocolVersion", supportedVersions().constFirst().toStdString()},
           // Roots: asked for, none given (a server keeps the folders its own arguments name).
           {"capabilities", {{"roots", {{"listChanged", false}}}}},
           {"clientInfo", {{"name", "sandcastle"}, {"version", SANDCASTLE_VERSION}}}};
    request(QStringLiteral("initialize"),
            params,
            ConnectTimeoutMs,
            [this](const Result<nlohmann::json> &result) { onInitialized(result); });
}

void McpClient::onInitialized(const Result<nlohmann::json> &result)
{
    if (m_state != State::Connecting)
        return;
    if (!result) {
        onTransportFailed(result.error());
        return;
    }
    const nlohmann::json &info = result.value();
    m_protocolVersion = jsonString(info, "protocolVersion");
    if (!supportedVersions().contains(m_protocolVersion)) {
        onTransportFailed(
            QStringLiteral("the server speaks MCP version \"%1\"; Sandcastle speaks %2")
                .arg(m_protocolVersion.left(40), supportedVersions().join(QStringLiteral(", "))));
        return;
    }
    if (info.contains("serverInfo") && info["serverInfo"].is_object()) {
        m_serverName = jsonString(info["serverInfo"], "name");
        m_serverVersion = jsonString(info["serverInfo"], "version");
    }
    m_instructions = jsonString(info, "instructions").left(4000);
    m_transport->setProtocolVersion(m_protocolVersion);
    notify(QStringLiteral("notifications/initialized"));
    const bool hasTools = info.contains("capabilities") && info["capabilities"].is_object()
                          && info["capabilities"].contains("tools");
    if (!hasTools) {
        m_state = State::Ready;
        Q_EMIT ready();
        return;
    }
    listTools(QString(), {});
}

void McpClient::listTools(const QString &cursor, QList<McpToolInfo> sofar)
{
    if (cursor.isEmpty())
        m_pages = 0;
    m_listing = true;
    nlohmann::json params = nlohmann::json::object();
    if (!cursor.isEmpty())
        params["cursor"] = cursor.toStdString();
    const int timeout = m_config.timeoutSeconds * 1000;
    request(QStringLiteral("tools/list"),
            params,
            timeout,
            [this, sofar](const Result<nlohmann::json> &result) mutable {
                if (!result) {
                    m_listing = false;
                    if (m_state == State::Connecting)
                        onTransportFailed(QStringLiteral("tools/list: ") + result.error());
                    return;
                }
                const nlohmann::json tools = result.value().value("tools", nlohmann::json());
                if (tools.is_array()) {
                    for (const auto &tool : tools) {
                        if (!tool.is_object() || jsonString(tool, "name").isEmpty())
                            continue;
                        McpToolInfo info{jsonString(tool, "name"),
                                         jsonString(tool, "title"),
                                         jsonString(tool, "description").left(8000),
                                         tool.value("inputSchema", nlohmann::json::object())};
                        if (!info.inputSchema.is_object())
                            info.inputSchema = nlohmann::json::object();
                        sofar << info;
                    }
                }
                const QString next = jsonString(result.value(), "nextCursor");
                if (!next.isEmpty() && ++m_pages < MaxToolPages) {
                    listTools(next, sofar);
                    return;
                }
                m_listing = false;
                m_tools = sofar;
                if (m_state == State::Connecting) {
                    m_state = State::Ready;
                    Q_EMIT ready();
                } else {
                    Q_EMIT toolsChanged();
                }
                if (std::exchange(m_listAgain, false) && m_state == State::Ready)
                    listTools(QString(), {});
            });
}

quint64 McpClient::callTool(const QString &name,
                            const nlohmann::json &arguments,
                            int timeoutMs,
                            CallDone done)
{
    if (m_state != State::Ready) {
        const QString why
            = m_error.isEmpty() ? QStringLiteral("the server is not connected") : m_error;
        QTimer::singleShot(0, this, [done, why] { done(Result<nlohmann::json>::failure(why)); });
        return 0;
    }
    return request(QStringLiteral("tools/call"),
                   {{"name", name.toStdString()}, {"arguments", arguments}},
                   timeoutMs,
                   std::move(done));
}

void McpClient::cancel(quint64 ticket, const QString &reason)
{
    const auto it = m_pending.find(ticket);
    if (it == m_pending.end())
        return;
    it->timer->deleteLater();
    m_pending.erase(it);
    nlohmann::json params = {{"requestId", ticket}};
    if (!reason.isEmpty())
        params["reason"] = reason.toStdString();
    notify(QStringLiteral("notifications/cancelled"), params);
    m_transport->abandon(nlohmann::json(ticket));
}

void McpClient::close()
{
    if (m_state == State::Closed)
        return;
    m_state = State::Closed;
    const QList<quint64> ids = m_pending.keys();
    for (quint64 id : ids)
        finishPending(id, Result<nlohmann::json>::failure(QStringLiteral("the server was closed")));
    if (m_transport)
        m_transport->close();
}

quint64 McpClient::request(const QString &method,
                           const nlohmann::json &params,
                           int timeoutMs,
                           CallDone done)
{
    const quint64 id = m_nextId++;
    auto *timer = new QTimer(this);
    timer->setSingleShot(true);
    connect(timer, &QTimer::timeout, this, [this, id, method, timeoutMs] {
        const QString why
            = QStringLiteral("no answer to %1 within %2 s").arg(method).arg(timeoutMs / 1000.0);
        finishPending(id, Result<nlohmann::json>::failure(why));
        notify(QStringLiteral("notifications/cancelled"),
               {{"requestId", id}, {"reason", "timed out"}});
        m_transport->abandon(nlohmann::json(id));
        if (m_state == State::Connecting)
            onTransportFailed(why);
    });
    m_pending.insert(id, Pending{method, std::move(done), timer});
    timer->start(timeoutMs);
    m_transport->send(
        {{"jsonrpc", "2.0"}, {"id", id}, {"method", method.toStdString()}, {"params", params}});
    return id;
}

void McpClient::notify(const QString &method, const nlohmann::json &params)
{
    if (m_transport)
        m_transport->send(
            {{"jsonrpc", "2.0"}, {"method", method.toStdString()}, {"params", params}});
}

void McpClient::onMessage(const nlohmann::json &message)
{
    if (!message.is_object())
        return;
    if (message.contains("method")) {
        if (message.contains("id"))
            onServerRequest(message);
        else if (jsonString(message, "method")
                 == QLatin1String("notifications/tools/list_changed")) {
            if (m_listing || m_state == State::Connecting)
                m_listAgain = true; // once the list under way has come
            else if (m_state == State::Ready)
                listTools(QString(), {});
        }
        return;
    }
    onResponse(message);
}

void McpClient::onResponse(const nlohmann::json &message)
{
    const auto id = message.find("id");
    if (id == message.end() || !id->is_number_unsigned())
        return; // not an answer to anything asked
    const quint64 key = id->get<quint64>();
    if (message.contains("error")) {
        finishPending(key, Result<nlohmann::json>::failure(rpcError(message["error"])));
        return;
    }
    const auto result = message.find("result");
    if (result == message.end() || !result->is_object()) {
        finishPending(key,
                      Result<nlohmann::json>::failure(
                          QStringLiteral("the server's answer has no result object")));
        return;
    }
    finishPending(key, Result<nlohmann::json>::ok(*result));
}

void McpClient::onServerRequest(const nlohmann::json &message)
{
    const QString method = jsonString(message, "method");
    nlohmann::json reply = {{"jsonrpc", "2.0"}, {"id", message["id"]}};
    if (method == QLatin1String("ping"))
        reply["result"] = nlohmann::json::object();
    else if (method == QLatin1String("roots/list"))
        reply["result"] = {{"roots", nlohmann::json::array()}};
    else
        reply["error"]
            = {{"code", -32601}, {"message", "Sandcastle does not offer " + method.toStdString()}};
    m_transport->send(reply);
}

void McpClient::finishPending(quint64 id, const Result<nlohmann::json> &result)
{
    const auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;
    Pending pending = it.value();
    m_pending.erase(it);
    pending.timer->deleteLater();
    if (pending.done)
        pending.done(result);
}

void McpClient::onTransportFailed(const QString &reason)
{
    if (m_state == State::Failed || m_state == State::Closed)
        return;
    QString why = reason;
    const QString said = m_transport ? m_transport->diagnostics() : QString();
    if (!said.isEmpty() && !why.contains(QStringLiteral("it said:")))
        why += QStringLiteral(" (the server's last words: %1)").arg(said.right(300).simplified());
    m_error = why;
    m_state = State::Failed;
    const QList<quint64> ids = m_pending.keys();
    for (quint64 id : ids)
        finishPending(id, Result<nlohmann::json>::failure(why));
    if (m_transport)
        m_transport->close();
    Q_EMIT failed(why);
}

} // namespace Sandcastle
