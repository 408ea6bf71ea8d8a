#include "mcphttptransport.h"

#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>
#include <QUrl>

namespace Sandcastle {

namespace {

const QByteArray SessionHeader = QByteArrayLiteral("Mcp-Session-Id");
const QByteArray VersionHeader = QByteArrayLiteral("MCP-Protocol-Version");

bool isEventStream(QNetworkReply *reply)
{
    return reply->header(QNetworkRequest::ContentTypeHeader)
        .toString()
        .startsWith(QLatin1String("text/event-stream"), Qt::CaseInsensitive);
}

// The answer to request `id` that failed at the HTTP level, so that its caller hears of it.
nlohmann::json errorReply(const nlohmann::json &id, const QString &message)
{
    return {{"jsonrpc", "2.0"},
            {"id", id},
            {"error", {{"code", -32000}, {"message", message.toStdString()}}}};
}

} // namespace

McpHttpTransport::McpHttpTransport(McpServerConfig config, QObject *parent)
    : McpTransport(parent)
    , m_config(std::move(config))
{
    m_network.setRedirectPolicy(QNetworkRequest::NoLessSafeRedirectPolicy);
}

McpHttpTransport::~McpHttpTransport()
{
    m_closed = true;
    for (QNetworkReply *reply : m_network.findChildren<QNetworkReply *>())
        reply->abort();
}

void McpHttpTransport::open() {}

QNetworkRequest McpHttpTransport::request() const
{
    QNetworkRequest request{QUrl(m_config.url)};
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    request.setRawHeader("Accept", "application/json, text/event-stream");
    for (auto it = m_config.headers.begin(); it != m_config.headers.end(); ++it)
        request.setRawHeader(it.key().toUtf8(), it.value().toUtf8());
    if (!m_session.isEmpty())
        request.setRawHeader(SessionHeader, m_session);
    if (!m_version.isEmpty())
        request.setRawHeader(VersionHeader, m_version);
    // No cache, no cookies: each answer is the server's, now.
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute,
                         QNetworkRequest::AlwaysNetwork);
    return request;
}

void McpHttpTransport::send(const nlohmann::json &message)
{
    if (m_failed || m_closed)
        return;
    const nlohmann::json id = message.is_object() && message.contains("method")
                                  ? message.value("id", nlohmann::json())
                                  : nlohmann::json();
    QNetworkReply *reply
        = m_network.post(request(),
                         QByteArray::fromStdString(message.dump(
                             -1, ' ', false, nlohmann::json::error_handler_t::replace)));
    if (!id.is_null())
        m_byRequest.insert(QString::fromStdString(id.dump()), reply);
    connect(reply, &QNetworkReply::readyRead, this, [this, reply] { onReadyRead(reply); });
    connect(reply, &QNetworkReply::finished, this, [this, reply, id] { onFinished(reply, id); });
}

void McpHttpTransport::abandon(const nlohmann::json &id)
{
    const QPointer<QNetworkReply> reply = m_byRequest.take(QString::fromStdString(id.dump()));
    if (reply) {
        m_streams.remove(reply);
        m_received.remove(reply);
        reply->disconnect(this);
        reply->abort();
        reply->deleteLater();
    }
}

void McpHttpTransport::onReadyRead(QNetworkReply *reply)
{
    if (m_session.isEmpty() && reply->hasRawHeader(SessionHeader))
        m_session = reply->rawHeader(SessionHeader);
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status != 200 || !isEventStream(reply))
        return; // read whole when it has finished
    qint64 &received = m_received[reply];
    const QByteArray bytes = reply->readAll();
    received += bytes.size();
    if (received > MaxReplyBytes) {
        fail(QStringLiteral("the server's event stream passed 32 MB"));
        return;
    }
    takeEvents(m_streams[reply].feed(bytes));
}

void McpHttpTransport::onFinished(QNetworkReply *reply, const nlohmann::json &requestId)
{
    reply->deleteLater();
    if (!requestId.is_null())
        m_byRequest.remove(QString::fromStdString(requestId.dump()));
    const bool stream = m_streams.contains(reply);
    SseParser parser = m_streams.take(reply);
    m_received.remove(reply);
    if (m_closed || m_failed)
        return;
    if (m_session.isEmpty() && reply->hasRawHeader(SessionHeader))
        m_session = reply->rawHeader(SessionHeader);
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status == 0) {
        fail(QStringLiteral("cannot reach %1: %2").arg(m_config.url, reply->errorString()));
        return;
    }
    if (stream) {
        takeEvents(parser.feed(reply->readAll()));
        takeEvents(parser.finish());
        return;
    }
    if (status == 200 && isEventStream(reply)) { // short enough to have come in one piece
        takeEvents(parser.feed(reply->readAll()));
        takeEvents(parser.finish());
        return;
    }
    const QByteArray body = reply->read(MaxReplyBytes);
    if (status == 404 && !m_session.isEmpty()) {
        fail(QStringLiteral("the server ended the session (HTTP 404)"));
        return;
    }
    if (status >= 200 && status < 300) {
        takeBody(body);
        return;
    }
    // An HTTP error: the server's JSON-RPC error when it sent one, else one saying what it was.
    const nlohmann::json json = nlohmann::json::parse(body.toStdString(), nullptr, false);
    if (json.is_object() && json.contains("error") && json.contains("id")
        && !json["id"].is_null()) {
        Q_EMIT messageReceived(json);
        return;
    }
    if (!requestId.is_null())
        Q_EMIT messageReceived(
            errorReply(requestId,
                       QStringLiteral("HTTP %1 from %2: %3")
                           .arg(status)
                           .arg(m_config.url, QString::fromUtf8(body.left(200)).simplified())));
}

void McpHttpTransport::takeEvents(const QList<SseParser::Event> &events)
{
    for (const SseParser::Event &event : events) {
        if (event.data.trimmed().isEmpty())
            continue; // a priming event, or a comment
        takeBody(event.data);
        if (m_failed)
            return;
    }
}

void McpHttpTransport::takeBody(const QByteArray &body)
{
    if (body.trimmed().isEmpty())
        return;
    const nlohmann::json json = nlohmann::json::parse(body.toStdString(), nullptr, false);
    if (json.is_object()) {
        Q_EMIT messageReceived(json);
        return;
    }
    if (json.is_array()) {
        for (const auto &message : json)
            Q_EMIT messageReceived(message);
        return;
    }
    fail(QStringLiteral("the server answered something that is not JSON-RPC: \"%1\"")
             .arg(QString::fromUtf8(body.left(120)).simplified()));
}

void McpHttpTransport::setProtocolVersion(const QString &version)
{
    m_version = version.toLatin1();
    // The session is set up: a stream for what the server sends unasked.
    QTimer::singleShot(0, this, &McpHttpTransport::openStream);
}

void McpHttpTransport::openStream()
{
    if (m_failed || m_closed || m_get)
        return;
    QNetworkRequest get = request();
    get.setRawHeader("Accept", "text/event-stream");
    QNetworkReply *reply = m_network.get(get);
    m_get = reply;
    connect(reply, &QNetworkReply::readyRead, this, [this, reply] { onReadyRead(reply); });
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        // 405: the server offers no such stream; an ended stream is not reopened.
        reply->deleteLater();
        m_streams.remove(reply);
        m_received.remove(reply);
    });
}

void McpHttpTransport::close()
{
    if (m_closed)
        return;
    m_closed = true;
    if (m_get)
        m_get->abort();
    if (m_session.isEmpty() || m_failed)
        return;
    QNetworkReply *reply = m_network.deleteResource(request());
    QTimer::singleShot(2000, reply, &QNetworkReply::abort);
    connect(reply, &QNetworkReply::finished, reply, &QObject::deleteLater);
}

void McpHttpTransport::fail(const QString &reason)
{
    if (m_failed)
        return;
    m_failed = true;
    for (QNetworkReply *reply : m_network.findChildren<QNetworkReply *>()) {
        reply->disconnect(this);
        reply->abort();
    }
    Q_EMIT failed(reason);
}

} // namespace Sandcastle
