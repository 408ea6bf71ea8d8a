#include "httpmodelclient.h"

#include "chatformat.h"
#include "messagesformat.h"
#include "modelrequest.h"
#include "responsesformat.h"
#include <base/jsonfields.h>

#include <QDateTime>
#include <QNetworkAccessManager>
#include <QNetworkRequest>
#include <QRandomGenerator>

namespace Sandcastle {

namespace {
QMap<QByteArray, QByteArray> lowerCaseHeaders(const QNetworkReply *reply)
{
    QMap<QByteArray, QByteArray> headers;
    const auto &pairs = reply->rawHeaderPairs();
    for (const auto &pair : pairs)
        headers.insert(pair.first.toLower(), pair.second);
    return headers;
}
} // namespace

HttpModelClient::HttpModelClient(ClientConfig config, QObject *parent)
    : ModelClient(parent)
    , m_config(std::move(config))
    , m_network(new QNetworkAccessManager(this))
    , m_pump(
          [this](const SseParser::Event &event) {
              handleEvent(event);
              return m_active; // an event ended the request, or a listener cancelled
          },
          this)
{
    m_idleTimer.setSingleShot(true);
    connect(&m_idleTimer, &QTimer::timeout, this, [this] {
        if (!m_requestSent) {
            failOrRetry({QStringLiteral("timeout"),
                         QStringLiteral("Could not connect to the model server at %1 within %2 s.")
                             .arg(m_config.baseUrl.toString())
                             .arg(m_config.connectTimeoutMs / 1000),
                         true},
                        {});
        } else if (!m_receivedAny) {
            failOrRetry({QStringLiteral("timeout"),
                         QStringLiteral("The model server did not start answering within %1 s.")
                             .arg(m_config.idleTimeoutMs / 1000),
                         true},
                        {});
        } else {
            fail(QStringLiteral("stalled"),
                 QStringLiteral("The model's stream stalled: nothing arrived for %1 s.")
                     .arg(m_config.idleTimeoutMs / 1000));
        }
    });
    m_retryTimer.setSingleShot(true);
    connect(&m_retryTimer, &QTimer::timeout, this, &HttpModelClient::startAttempt);
}

HttpModelClient::~HttpModelClient()
{
    blockSignals(true);
    cancel();
}

nlohmann::json HttpModelClient::requestBody(const QList<Message> &messages,
                                            const QList<ToolSpec> &tools) const
{
    switch (m_config.format) {
    case WireFormat::Responses:
        return ResponsesFormat::requestBody(m_config, messages, tools);
    case WireFormat::Messages:
        return MessagesFormat::requestBody(m_config, messages, tools);
    case WireFormat::ChatCompletions:
        break;
    }
    nlohmann::json body = {{"model", m_config.model.toStdString()},
                           {"messages", ChatFormat::messagesJson(messages)},
                           {"stream", true},
                           {"stream_options", {{"include_usage", true}}}};
    if (!tools.isEmpty())
        body["tools"] = ChatFormat::toolsJson(tools);
    return body;
}

void HttpModelClient::resetStream()
{
    m_parser = SseParser();
    m_pump.clear();
    switch (m_config.format) {
    case WireFormat::Responses:
        m_stream = std::make_unique<ResponsesDecoder>();
        break;
    case WireFormat::Messages:
        m_stream = std::make_unique<MessagesDecoder>();
        break;
    case WireFormat::ChatCompletions:
        m_stream = std::make_unique<StreamAccumulator>();
        break;
    }
    m_errorBody.clear();
    m_isEventStream = false;
    m_receivedAny = false;
    m_requestSent = false;
}

Completion HttpModelClient::partial() const
{
    return m_stream ? m_stream->completion() : Completion();
}

void HttpModelClient::send(const QList<Message> &messages, const QList<ToolSpec> &tools)
{
    cancel();
    resetStream();
    m_retries = 0;
    m_active = true;
    const QUrl url = endpointUrl(m_config.baseUrl, m_config.format);
    if (!url.isValid()
        || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))) {
        QMetaObject::invokeMethod(
            this,
            [this, url] {
                fail(QStringLiteral("bad_url"),
                     QStringLiteral("The model base URL is not an http(s) URL: ") + url.toString());
            },
            Qt::QueuedConnection);
        return;
    }
    m_body = QByteArray::fromStdString(requestBody(messages, tools).dump());
    startAttempt();
}

void HttpModelClient::startAttempt()
{
    if (!m_active)
        return;
    resetStream();
    QNetworkRequest request
        = modelRequest(endpointUrl(m_config.baseUrl, m_config.format), m_config);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setRawHeader("Accept", "text/event-stream");
    m_reply = m_network->post(request, m_body);
    connect(m_reply, &QNetworkReply::requestSent, this, [this] {
        m_requestSent = true;
        m_idleTimer.start(m_config.idleTimeoutMs);
    });
    connect(m_reply, &QNetworkReply::readyRead, this, &HttpModelClient::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &HttpModelClient::onFinished);
    m_idleTimer.start(m_config.connectTimeoutMs);
}

void HttpModelClient::dropReply()
{
    m_idleTimer.stop();
    if (!m_reply)
        return;
    QNetworkReply *reply = m_reply;
    m_reply = nullptr;
    reply->disconnect(this);
    reply->abort();
    reply->deleteLater();
}

void HttpModelClient::cancel()
{
    m_active = false;
    m_retryTimer.stop();
    m_pump.clear();
    dropReply();
}

void HttpModelClient::onReadyRead()
{
    if (!m_reply)
        return;
    m_idleTimer.start(m_config.idleTimeoutMs);
    const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray bytes = m_reply->readAll();
    if (status >= 400) {
        m_errorBody += bytes.left(65536 - m_errorBody.size());
        return;
    }
    const QByteArray contentType
        = m_reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
    m_isEventStream = m_isEventStream || contentType.contains("text/event-stream");
    if (!m_isEventStream) {
        m_errorBody += bytes.left(65536 - m_errorBody.size());
        return;
    }
    if (!bytes.isEmpty())
        m_receivedAny = true;
    m_pump.push(m_parser.feed(bytes));
}

void HttpModelClient::handleEvent(const SseParser::Event &event)
{
    const StreamDecoder::Outcome outcome = m_stream->add(event);
    if (outcome.error) {
        fail(outcome.error->code, outcome.error->message);
        return;
    }
    for (const StreamDecoder::Delta &delta : outcome.deltas) {
        switch (delta.kind) {
        case StreamDecoder::Delta::Kind::Text:
            Q_EMIT textDelta(delta.text);
            break;
        case StreamDecoder::Delta::Kind::Reasoning:
            Q_EMIT reasoningDelta(delta.text);
            break;
        case StreamDecoder::Delta::Kind::ToolCallStarted: {
            const ToolCall call = m_stream->toolCall(delta.index);
            Q_EMIT toolCallStarted(delta.index, call.id, call.name);
            break;
        }
        case StreamDecoder::Delta::Kind::ToolArguments:
            Q_EMIT toolArgumentsDelta(delta.index, delta.text);
            break;
        }
        if (!m_active)
            return; // a listener cancelled
    }
}

void HttpModelClient::onFinished()
{
    if (!m_reply)
        return;
    if (!m_pump.isEmpty()) {
        // What arrived before the end is handled first, in its slices.
        m_idleTimer.stop();
        m_pump.whenDrained([this] { onFinished(); });
        return;
    }
    QNetworkReply *reply = m_reply;
    m_reply = nullptr;
    m_idleTimer.stop();
    reply->deleteLater();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QMap<QByteArray, QByteArray> headers = lowerCaseHeaders(reply);
    if (status >= 400) {
        m_errorBody += reply->readAll();
        failOrRetry(classifyHttpError(status, m_errorBody, m_config.model), headers);
        return;
    }
    if (reply->error() != QNetworkReply::NoError) {
        const bool refused = reply->error() == QNetworkReply::ConnectionRefusedError
                             || reply->error() == QNetworkReply::HostNotFoundError;
        const ModelError error{
            QStringLiteral("network"),
            QStringLiteral("Cannot reach the model at %1: %2%3")
                .arg(reply->url().toString(),
                     reply->errorString(),
                     refused ? QStringLiteral(" (is the server running?)") : QString()),
            !m_receivedAny};
        if (m_receivedAny) {
            fail(QStringLiteral("incomplete"),
                 QStringLiteral("The connection to the model broke mid-answer: ")
                     + reply->errorString());
            return;
        }
        failOrRetry(error, headers);
        return;
    }
    if (!m_isEventStream) {
        fail(QStringLiteral("bad_stream"),
             QStringLiteral("The model endpoint did not answer with an event stream: ")
                 + errorMessageFromBody(m_errorBody));
        return;
    }
    const QList<SseParser::Event> tail = m_parser.finish();
    for (const SseParser::Event &event : tail) {
        handleEvent(event);
        if (!m_active)
            return;
    }
    if (!m_stream->isComplete()) {
        fail(
            QStringLiteral("incomplete"),
            QStringLiteral("The model's stream ended before the answer was complete (truncated)."));
        return;
    }
    m_active = false;
    Q_EMIT finished(m_stream->completion());
}

void HttpModelClient::failOrRetry(const ModelError &error,
                                  const QMap<QByteArray, QByteArray> &headers)
{
    const RetryPolicy::Decision decision
        = m_receivedAny ? RetryPolicy::Decision()
                        : m_retryPolicy.decide(m_retries,
                                               error.retryable,
                                               headers,
                                               QDateTime::currentDateTimeUtc(),
                                               QRandomGenerator::global()->generateDouble());
    if (!decision.retry) {
        fail(error.code, error.message);
        return;
    }
    dropReply();
    ++m_retries;
    Q_EMIT retrying(m_retries, decision.delayMs, error.message);
    m_retryTimer.start(decision.delayMs);
}

void HttpModelClient::fail(const QString &code, const QString &message)
{
    const bool wasActive = m_active;
    cancel();
    if (wasActive)
        Q_EMIT errorOccurred(code, message);
}

} // namespace Sandcastle
