#pragma once

#include "chattypes.h"
#include "eventpump.h"
#include "modelclient.h"
#include "modelerror.h"
#include "retrypolicy.h"
#include "streamaccumulator.h"
#include <base/sseparser.h>

#include <nlohmann/json.hpp>

#include <QElapsedTimer>
#include <QNetworkReply>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <memory>

class QNetworkAccessManager;

namespace Sandcastle {

// The model client over HTTP, in the wire format the config names (Chat Completions, Responses
// or Anthropic Messages): posts one streaming request and turns the SSE stream, through that
// format's StreamDecoder, into the ModelClient signals: text and reasoning as they arrive, tool
// calls as their arguments grow, and exactly one finished() or errorOccurred() per send() —
// none after cancel(). Failures before the first byte of the answer are retried as RetryPolicy
// says (Retry-After honoured), each retry announced by retrying().
class HttpModelClient : public ModelClient
{
    Q_OBJECT
public:
    explicit HttpModelClient(ClientConfig config, QObject *parent = nullptr);
    ~HttpModelClient() override;

    const ClientConfig &config() const { return m_config; }
    void setConfig(const ClientConfig &config) { m_config = config; }
    RetryPolicy &retryPolicy() { return m_retryPolicy; }

    void send(const QList<Message> &messages, const QList<ToolSpec> &tools) override;
    void cancel() override;
    bool isBusy() const override { return m_active; }
    Completion partial() const override;

    // The JSON body send() posts, in the config's format; public so that tests can check it
    // without a server.
    nlohmann::json requestBody(const QList<Message> &messages, const QList<ToolSpec> &tools) const;

private:
    void startAttempt();
    void onReadyRead();
    void onFinished();
    void handleEvent(const SseParser::Event &event);
    void failOrRetry(const ModelError &error, const QMap<QByteArray, QByteArray> &headers);
    void fail(const QString &code, const QString &message);
    void dropReply();
    void resetStream();

    ClientConfig m_config;
    RetryPolicy m_retryPolicy;
    QNetworkAccessManager *m_network = nullptr;
    QPointer<QNetworkReply> m_reply;
    QByteArray m_body;
    bool m_active = false;
    int m_retries = 0;
    bool m_receivedAny = false; // a byte of the answer arrived: no more retries
    bool m_requestSent = false;
    SseParser m_parser;
    EventPump m_pump; // the parsed events, handled a slice at a time
    std::unique_ptr<StreamDecoder> m_stream;
    QByteArray m_errorBody;
    QTimer m_idleTimer;
    QTimer m_retryTimer;
    bool m_isEventStream = false;
};

} // namespace Sandcastle
