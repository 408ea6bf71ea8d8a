#pragma once

#include "chattypes.h"
#include "sseparser.h"
#include "toolcallaccumulator.h"

#include <nlohmann/json.hpp>

#include <QObject>
#include <QPointer>
#include <QTimer>

class QNetworkAccessManager;
#include <QNetworkReply>

namespace Sandcastle {

// Posts one streaming Chat Completions request to an OpenAI-compatible endpoint and turns the
// SSE stream into signals: text and reasoning as they arrive, tool calls as their arguments
// grow, and one finished() or errorOccurred() at the end of every request.
class ChatClient : public QObject
{
    Q_OBJECT
public:
    explicit ChatClient(ClientConfig config, QObject *parent = nullptr);
    ~ChatClient() override;

    const ClientConfig &config() const { return m_config; }
    void setConfig(const ClientConfig &config) { m_config = config; }

    // Starts a request; a request still running is cancelled first (without signals).
    void send(const nlohmann::json &messages, const nlohmann::json &tools);
    void cancel();
    bool isBusy() const { return m_reply != nullptr; }

    // The JSON body send() posts; public so that tests can check it without a server.
    nlohmann::json requestBody(const nlohmann::json &messages, const nlohmann::json &tools) const;

Q_SIGNALS:
    void textDelta(const QString &text);
    void reasoningDelta(const QString &text);
    void toolCallStarted(int index, const QString &id, const QString &name);
    void toolArgumentsDelta(int index, const QString &fragment);
    void finished(const Sandcastle::ChatCompletion &completion);
    void errorOccurred(const QString &code, const QString &message);

private:
    void onReadyRead();
    void onFinished();
    void handleEvent(const SseParser::Event &event);
    void fail(const QString &code, const QString &message);
    void resetState();

    ClientConfig m_config;
    QNetworkAccessManager *m_network = nullptr;
    QPointer<QNetworkReply> m_reply;
    SseParser m_parser;
    ToolCallAccumulator m_toolCalls;
    ChatCompletion m_completion;
    QByteArray m_errorBody;
    QTimer m_idleTimer;
    bool m_sawDone = false;
    bool m_isEventStream = false;
};

} // namespace Sandcastle
