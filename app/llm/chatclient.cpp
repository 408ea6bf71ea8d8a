#include "chatclient.h"

#include "jsonfields.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

namespace Sandcastle {

namespace {
// The most useful sentence in an error body: OpenAI's {"error":{"message"}} or Ollama's
// {"error":"..."}, else the start of the body.
QString errorMessageFromBody(const QByteArray &body)
{
    const nlohmann::json doc
        = nlohmann::json::parse(body.constData(), body.constData() + body.size(), nullptr, false);
    if (doc.is_object() && doc.contains("error")) {
        const nlohmann::json &error = doc["error"];
        if (error.is_string())
            return QString::fromStdString(error.get<std::string>());
        const QString message = jsonString(error, "message");
        if (!message.isEmpty())
            return message;
    }
    return QString::fromUtf8(body.left(500)).trimmed();
}
} // namespace

ChatClient::ChatClient(ClientConfig config, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_network(new QNetworkAccessManager(this))
{
    m_idleTimer.setSingleShot(true);
    connect(&m_idleTimer, &QTimer::timeout, this, [this] {
        fail(QStringLiteral("timeout"),
             QStringLiteral("the model sent nothing for %1 s").arg(m_config.idleTimeoutMs / 1000));
    });
}

ChatClient::~ChatClient()
{
    blockSignals(true);
    cancel();
}

nlohmann::json ChatClient::requestBody(const nlohmann::json &messages,
                                       const nlohmann::json &tools) const
{
    nlohmann::json body = {{"model", m_config.model.toStdString()},
                           {"messages", messages},
                           {"stream", true},
                           {"stream_options", {{"include_usage", true}}}};
    if (tools.is_array() && !tools.empty())
        body["tools"] = tools;
    return body;
}

void ChatClient::resetState()
{
    m_parser = SseParser();
    m_toolCalls = ToolCallAccumulator();
    m_completion = ChatCompletion();
    m_errorBody.clear();
    m_sawDone = false;
    m_isEventStream = false;
}

void ChatClient::send(const nlohmann::json &messages, const nlohmann::json &tools)
{
    cancel();
    resetState();
    const QUrl url = chatCompletionsUrl(m_config.baseUrl);
    if (!url.isValid()
        || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))) {
        QMetaObject::invokeMethod(
            this,
            [this, url] {
                Q_EMIT errorOccurred(QStringLiteral("bad_url"),
                                     QStringLiteral("the model base URL is not an http(s) URL: ")
                                         + url.toString());
            },
            Qt::QueuedConnection);
        return;
    }
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setRawHeader("Accept", "text/event-stream");
    if (!m_config.apiKey.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + m_config.apiKey.toUtf8());
    const std::string body = requestBody(messages, tools).dump();
    m_reply = m_network->post(request, QByteArray::fromStdString(body));
    connect(m_reply, &QNetworkReply::readyRead, this, &ChatClient::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &ChatClient::onFinished);
    m_idleTimer.start(m_config.idleTimeoutMs);
}

void ChatClient::cancel()
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

void ChatClient::onReadyRead()
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
    const QList<SseParser::Event> events = m_parser.feed(bytes);
    for (const SseParser::Event &event : events) {
        handleEvent(event);
        if (!m_reply)
            return; // an event ended the request
    }
}

void ChatClient::handleEvent(const SseParser::Event &event)
{
    if (event.data.trimmed() == "[DONE]") {
        m_sawDone = true;
        return;
    }
    const nlohmann::json chunk = nlohmann::json::parse(
        event.data.constData(), event.data.constData() + event.data.size(), nullptr, false);
    if (chunk.is_discarded() || !chunk.is_object()) {
        fail(QStringLiteral("bad_stream"),
             QStringLiteral("the model sent a stream event that is not JSON: ")
                 + QString::fromUtf8(event.data.left(200)));
        return;
    }
    if (chunk.contains("error")) {
        const QByteArray raw = QByteArray::fromStdString(chunk.dump());
        fail(QStringLiteral("model_error"), errorMessageFromBody(raw));
        return;
    }
    if (chunk.contains("usage") && chunk["usage"].is_object()) {
        const nlohmann::json &usage = chunk["usage"];
        m_completion.promptTokens = usage.value("prompt_tokens", -1);
        m_completion.completionTokens = usage.value("completion_tokens", -1);
    }
    if (!chunk.contains("choices") || !chunk["choices"].is_array() || chunk["choices"].empty())
        return;
    const nlohmann::json &choice = chunk["choices"][0];
    if (!choice.is_object())
        return;
    const QString finishReason = jsonString(choice, "finish_reason");
    if (!finishReason.isEmpty())
        m_completion.finishReason = finishReason;
    if (!choice.contains("delta") || !choice["delta"].is_object())
        return;
    const nlohmann::json &delta = choice["delta"];
    // DeepSeek and vLLM name it reasoning_content; Ollama and OpenRouter reasoning.
    QString reasoning = jsonString(delta, "reasoning_content");
    if (reasoning.isEmpty())
        reasoning = jsonString(delta, "reasoning");
    if (!reasoning.isEmpty()) {
        m_completion.reasoning += reasoning;
        Q_EMIT reasoningDelta(reasoning);
    }
    const QString text = jsonString(delta, "content");
    if (!text.isEmpty()) {
        m_completion.content += text;
        Q_EMIT textDelta(text);
    }
    if (delta.contains("tool_calls")) {
        const QList<ToolCallAccumulator::Update> updates = m_toolCalls.add(delta["tool_calls"]);
        for (const ToolCallAccumulator::Update &update : updates) {
            if (update.started) {
                const ToolCall call = m_toolCalls.call(update.index);
                Q_EMIT toolCallStarted(update.index, call.id, call.name);
            }
            if (!update.argumentsDelta.isEmpty())
                Q_EMIT toolArgumentsDelta(update.index, update.argumentsDelta);
        }
    }
}

void ChatClient::onFinished()
{
    if (!m_reply)
        return;
    QNetworkReply *reply = m_reply;
    m_reply = nullptr;
    m_idleTimer.stop();
    reply->deleteLater();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status >= 400) {
        m_errorBody += reply->readAll();
        const QString code = status == 401 || status == 403 ? QStringLiteral("auth")
                             : status == 429                ? QStringLiteral("rate_limited")
                             : status >= 500                ? QStringLiteral("server_error")
                                                            : QStringLiteral("http_error");
        Q_EMIT errorOccurred(code,
                             QStringLiteral("the model endpoint answered HTTP %1: %2")
                                 .arg(status)
                                 .arg(errorMessageFromBody(m_errorBody)));
        return;
    }
    if (reply->error() != QNetworkReply::NoError) {
        Q_EMIT errorOccurred(QStringLiteral("network"),
                             QStringLiteral("cannot reach the model at %1: %2")
                                 .arg(reply->url().toString(), reply->errorString()));
        return;
    }
    if (!m_isEventStream) {
        Q_EMIT errorOccurred(QStringLiteral("bad_stream"),
                             QStringLiteral("the model endpoint did not answer with an event "
                                            "stream: ")
                                 + errorMessageFromBody(m_errorBody));
        return;
    }
    const QList<SseParser::Event> tail = m_parser.finish();
    for (const SseParser::Event &event : tail)
        handleEvent(event);
    m_completion.toolCalls = m_toolCalls.calls();
    if (!m_sawDone && m_completion.finishReason.isEmpty()) {
        Q_EMIT errorOccurred(
            QStringLiteral("incomplete"),
            QStringLiteral("the model's stream ended before the answer was complete"));
        return;
    }
    Q_EMIT finished(m_completion);
}

void ChatClient::fail(const QString &code, const QString &message)
{
    cancel();
    Q_EMIT errorOccurred(code, message);
}

} // namespace Sandcastle
