#pragma once

#include "mcpconfig.h"
#include "mcptransport.h"

#include <base/sseparser.h>

#include <QHash>
#include <QNetworkAccessManager>
#include <QPointer>

class QNetworkReply;

namespace Sandcastle {

// MCP's Streamable HTTP transport (2025-03-26 and later): every message is a POST to the
// server's one address; a request's answer comes back as a JSON body or as a server-sent event
// stream on that POST (with the server's own requests and notifications before it); the
// session is the Mcp-Session-Id header the server gave with its answer to initialize, sent on
// every request after it; a GET opens a stream for what the server sends unasked (a server
// may refuse it with 405); a DELETE ends the session.
class McpHttpTransport final : public McpTransport
{
    Q_OBJECT
public:
    explicit McpHttpTransport(McpServerConfig config, QObject *parent = nullptr);
    ~McpHttpTransport() override;

    void open() override;
    void send(const nlohmann::json &message) override;
    void abandon(const nlohmann::json &id) override;
    void close() override;
    void setProtocolVersion(const QString &version) override;
    QString sessionId() const { return QString::fromLatin1(m_session); }

    static constexpr qint64 MaxReplyBytes = 32 << 20;

private:
    QNetworkRequest request() const;
    void onReadyRead(QNetworkReply *reply);
    void onFinished(QNetworkReply *reply, const nlohmann::json &requestId);
    void takeEvents(const QList<SseParser::Event> &events);
    void takeBody(const QByteArray &body);
    void openStream();
    void fail(const QString &reason);

    McpServerConfig m_config;
    QNetworkAccessManager m_network;
    QByteArray m_session;
    QByteArray m_version;
    QHash<QNetworkReply *, SseParser> m_streams; // replies that turned out to be event streams
    QHash<QNetworkReply *, qint64> m_received;
    QHash<QString, QPointer<QNetworkReply>> m_byRequest; // a request's id (dumped) → its POST
    QPointer<QNetworkReply> m_get;
    bool m_failed = false;
    bool m_closed = false;
};

} // namespace Sandcastle
