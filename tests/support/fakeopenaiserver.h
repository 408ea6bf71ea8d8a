#pragma once

#include "fakestreams.h"

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QMap>
#include <QObject>
#include <QString>
#include <QStringList>

#include <optional>

class QTcpServer;
class QTcpSocket;

namespace Sandcastle::Testing {

// A scripted model server on loopback that speaks the three wire formats. Each request to
// /v1/chat/completions, /v1/responses or /v1/messages takes the next scripted response: a
// scripted turn (FakeTurn), written as the stream of the format the endpoint names; raw bytes
// sent write by write (with a pause between writes, so that the client really sees them
// split); or an HTTP error. The fault injection (delays, stalls, drops) works the same in
// every format. Every request is recorded. No traffic leaves the machine.
class FakeOpenAiServer : public QObject
{
    Q_OBJECT
public:
    struct Response
    {
        int httpStatus = 200;
        QList<QByteArray> writes;                     // raw bytes written one after the other
        int delayMs = 2;                              // between writes
        QList<QPair<QByteArray, QByteArray>> headers; // extra response headers
        int firstByteDelayMs = 0;                     // before the status line
        int stallAfterWrites = -1;    // stop writing (connection left open) after this many
        bool dropAfterStall = false;  // close the connection when the stall begins
        std::optional<FakeTurn> turn; // when set, `writes` are rendered from it per format

        // The same bytes, one byte per write.
        Response byteByByte() const;
        // The same stream with CRLF line ends and a keep-alive comment before every event.
        Response withCrlfAndKeepAlives() const;
    };

    struct Request
    {
        QByteArray method;
        QByteArray path;
        QMap<QByteArray, QByteArray> headers; // lower-case names
        QByteArray body;
    };

    explicit FakeOpenAiServer(QObject *parent = nullptr);
    ~FakeOpenAiServer() override;

    bool listen(quint16 port = 0);
    quint16 port() const;
    QString baseUrl() const; // http://127.0.0.1:PORT/v1

    void enqueue(const Response &response);
    // A turn in whichever format the request asks for.
    void enqueueTurn(const FakeTurn &turn, int delayMs = 2);
    // Text, streamed in pieces of about `pieceSize` characters.
    void enqueueText(const QString &text, int pieceSize = 4);
    // One tool call whose JSON arguments arrive split into pieces of `pieceSize` bytes,
    // `delayMs` apart.
    void enqueueToolCall(const QString &id,
                         const QString &name,
                         const QByteArray &argumentsJson,
                         int pieceSize = 7,
                         int delayMs = 2);
    void enqueueError(int httpStatus,
                      const QByteArray &body,
                      const QList<QPair<QByteArray, QByteArray>> &headers = {});
    // Loads a script: a JSON array of {"text": ...} | {"tool_call": {"id","name","arguments"}}
    // | {"error": status, "body": ...}. Returns false with a message on a bad script.
    bool loadScript(const QByteArray &json, QString *error);

    const QList<Request> &requests() const { return m_requests; }
    // What GET /v1/models lists (default: fake-model); status other than 200 answers an error.
    void setModels(const QStringList &models, int status = 200);
    int pendingResponses() const { return int(m_script.size()); }

    static QByteArray sseEvent(const QByteArray &json);
    // Chat completion chunks, compact JSON, for hand-made streams.
    static QByteArray textChunk(const QString &text);
    static QByteArray finishChunk(const QString &reason);
    static QByteArray usageChunk();
    static QByteArray
    toolCallChunk(int index, const QString &id, const QString &name, const QString &arguments);

private:
    void onNewConnection();
    void onReadyRead(QTcpSocket *socket);
    void respond(QTcpSocket *socket, const Request &request);
    void writeNext(QTcpSocket *socket, Response response, int written);

    QTcpServer *m_server = nullptr;
    QList<Response> m_script;
    QList<Request> m_requests;
    QStringList m_models{QStringLiteral("fake-model")};
    int m_modelsStatus = 200;
    QMap<QTcpSocket *, QByteArray> m_buffers;
};

} // namespace Sandcastle::Testing
