#include "fakeopenaiserver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

namespace Sandcastle::Testing {

namespace {
QByteArray chunkJson(const QJsonObject &delta, const QJsonValue &finishReason = QJsonValue::Null)
{
    const QJsonObject choice{{QStringLiteral("index"), 0},
                             {QStringLiteral("delta"), delta},
                             {QStringLiteral("finish_reason"), finishReason}};
    const QJsonObject chunk{{QStringLiteral("id"), QStringLiteral("chatcmpl-fake")},
                            {QStringLiteral("object"), QStringLiteral("chat.completion.chunk")},
                            {QStringLiteral("model"), QStringLiteral("fake-model")},
                            {QStringLiteral("choices"), QJsonArray{choice}}};
    return QJsonDocument(chunk).toJson(QJsonDocument::Compact);
}

QByteArray usageJson()
{
    const QJsonObject chunk{{QStringLiteral("id"), QStringLiteral("chatcmpl-fake")},
                            {QStringLiteral("object"), QStringLiteral("chat.completion.chunk")},
                            {QStringLiteral("choices"), QJsonArray{}},
                            {QStringLiteral("usage"),
                             QJsonObject{{QStringLiteral("prompt_tokens"), 42},
                                         {QStringLiteral("completion_tokens"), 7},
                                         {QStringLiteral("total_tokens"), 49}}}};
    return QJsonDocument(chunk).toJson(QJsonDocument::Compact);
}
} // namespace

FakeOpenAiServer::FakeOpenAiServer(QObject *parent)
    : QObject(parent)
    , m_server(new QTcpServer(this))
{
    connect(m_server, &QTcpServer::newConnection, this, &FakeOpenAiServer::onNewConnection);
}

FakeOpenAiServer::~FakeOpenAiServer() = default;

bool FakeOpenAiServer::listen(quint16 port)
{
    return m_server->listen(QHostAddress::LocalHost, port);
}

quint16 FakeOpenAiServer::port() const
{
    return m_server->serverPort();
}

QString FakeOpenAiServer::baseUrl() const
{
    return QStringLiteral("http://127.0.0.1:%1/v1").arg(port());
}

QByteArray FakeOpenAiServer::sseEvent(const QByteArray &json)
{
    return "data: " + json + "\n\n";
}

QByteArray FakeOpenAiServer::textChunk(const QString &text)
{
    return chunkJson({{QStringLiteral("content"), text}});
}

QByteArray FakeOpenAiServer::finishChunk(const QString &reason)
{
    return chunkJson({}, reason);
}

QByteArray FakeOpenAiServer::usageChunk()
{
    return usageJson();
}

QByteArray FakeOpenAiServer::toolCallChunk(int index,
                                           const QString &id,
                                           const QString &name,
                                           const QString &arguments)
{
    QJsonObject function{{QStringLiteral("arguments"), arguments}};
    if (!name.isEmpty())
        function.insert(QStringLiteral("name"), name);
    QJsonObject call{{QStringLiteral("index"), index}, {QStringLiteral("function"), function}};
    if (!id.isEmpty()) {
        call.insert(QStringLiteral("id"), id);
        call.insert(QStringLiteral("type"), QStringLiteral("function"));
    }
    return chunkJson({{QStringLiteral("tool_calls"), QJsonArray{call}}});
}

FakeOpenAiServer::Response FakeOpenAiServer::Response::byteByByte() const
{
    Response r = *this;
    r.writes.clear();
    r.delayMs = 0;
    const QByteArray all = writes.join();
    for (char c : all)
        r.writes << QByteArray(1, c);
    return r;
}

FakeOpenAiServer::Response FakeOpenAiServer::Response::withCrlfAndKeepAlives() const
{
    Response r = *this;
    r.writes.clear();
    for (const QByteArray &write : writes) {
        QByteArray crlf = write;
        crlf.replace("\n", "\r\n");
        r.writes << QByteArray(": keep-alive\r\n\r\n") << crlf;
    }
    return r;
}

void FakeOpenAiServer::setModels(const QStringList &models, int status)
{
    m_models = models;
    m_modelsStatus = status;
}

void FakeOpenAiServer::enqueue(const Response &response)
{
    m_script.append(response);
}

void FakeOpenAiServer::enqueueTurn(const FakeTurn &turn, int delayMs)
{
    Response response;
    response.turn = turn;
    response.delayMs = delayMs;
    enqueue(response);
}

void FakeOpenAiServer::enqueueText(const QString &text, int pieceSize)
{
    FakeTurn turn;
    turn.text = text;
    turn.pieceSize = pieceSize;
    enqueueTurn(turn);
}

void FakeOpenAiServer::enqueueToolCall(const QString &id,
                                       const QString &name,
                                       const QByteArray &argumentsJson,
                                       int pieceSize,
                                       int delayMs)
{
    FakeTurn turn;
    turn.calls.append({id, name, argumentsJson});
    turn.pieceSize = pieceSize;
    turn.splitEvents = true;
    enqueueTurn(turn, delayMs);
}

void FakeOpenAiServer::enqueueError(int httpStatus,
                                    const QByteArray &body,
                                    const QList<QPair<QByteArray, QByteArray>> &headers)
{
    Response response;
    response.httpStatus = httpStatus;
    response.writes << body;
    response.headers = headers;
    enqueue(response);
}

bool FakeOpenAiServer::loadScript(const QByteArray &json, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (!doc.isArray()) {
        *error = QStringLiteral("the script must be a JSON array: ") + parseError.errorString();
        return false;
    }
    const QJsonArray steps = doc.array();
    for (const QJsonValue &step : steps) {
        const QJsonObject obj = step.toObject();
        if (obj.contains(QStringLiteral("text"))) {
            enqueueText(obj.value(QStringLiteral("text")).toString());
        } else if (obj.contains(QStringLiteral("tool_call"))) {
            const QJsonObject call = obj.value(QStringLiteral("tool_call")).toObject();
            const QJsonValue args = call.value(QStringLiteral("arguments"));
            const QByteArray argsJson
                = args.isString() ? args.toString().toUtf8()
                                  : QJsonDocument(args.toObject()).toJson(QJsonDocument::Compact);
            enqueueToolCall(
                call.value(QStringLiteral("id")).toString(QStringLiteral("call_1")),
                call.value(QStringLiteral("name")).toString(QStringLiteral("run_python")),
                argsJson);
        } else if (obj.contains(QStringLiteral("error"))) {
            enqueueError(obj.value(QStringLiteral("error")).toInt(500),
                         obj.value(QStringLiteral("body")).toString().toUtf8());
        } else {
            *error = QStringLiteral("unknown script step: ")
                     + QString::fromUtf8(QJsonDocument(obj).toJson(QJsonDocument::Compact));
            return false;
        }
    }
    return true;
}

void FakeOpenAiServer::onNewConnection()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
            m_buffers.remove(socket);
            socket->deleteLater();
        });
    }
}

void FakeOpenAiServer::onReadyRead(QTcpSocket *socket)
{
    QByteArray &buffer = m_buffers[socket];
    buffer += socket->readAll();
    const qsizetype headerEnd = buffer.indexOf("\r\n\r\n");
    if (headerEnd < 0)
        return;
    Request request;
    const QList<QByteArray> lines = buffer.left(headerEnd).split('\n');
    const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
    request.method = requestLine.value(0);
    request.path = requestLine.value(1);
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines.at(i).indexOf(':');
        if (colon > 0)
            request.headers.insert(lines.at(i).left(colon).trimmed().toLower(),
                                   lines.at(i).mid(colon + 1).trimmed());
    }
    const qsizetype length = request.headers.value("content-length", "0").toLongLong();
    if (buffer.size() < headerEnd + 4 + length)
        return;
    request.body = buffer.mid(headerEnd + 4, length);
    buffer.clear();
    respond(socket, request);
}

void FakeOpenAiServer::respond(QTcpSocket *socket, const Request &request)
{
    if (request.path.endsWith("/models")) {
        QJsonArray data;
        for (const QString &model : std::as_const(m_models))
            data.append(QJsonObject{{QStringLiteral("id"), model},
                                    {QStringLiteral("object"), QStringLiteral("model")}});
        const QByteArray body
            = m_modelsStatus == 200
                  ? QJsonDocument(QJsonObject{{QStringLiteral("object"), QStringLiteral("list")},
                                              {QStringLiteral("data"), data}})
                        .toJson(QJsonDocument::Compact)
                  : QByteArray("{\"error\":{\"message\":\"Invalid API key\"}}");
        socket->write("HTTP/1.1 " + QByteArray::number(m_modelsStatus)
                      + " X\r\nContent-Type: application/json\r\nConnection: close\r\n"
                        "Content-Length: "
                      + QByteArray::number(body.size()) + "\r\n\r\n" + body);
        socket->disconnectFromHost();
        return;
    }
    m_requests.append(request);
    const bool modelPath = request.path.endsWith("/chat/completions")
                           || request.path.endsWith("/responses")
                           || request.path.endsWith("/messages");
    if (!modelPath || m_script.isEmpty()) {
        const QByteArray body
            = m_script.isEmpty()
                  ? "{\"error\":{\"message\":\"the fake server has no more scripted responses\"}}"
                  : "{\"error\":{\"message\":\"unknown path\"}}";
        socket->write("HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nConnection: "
                      "close\r\nContent-Length: "
                      + QByteArray::number(body.size()) + "\r\n\r\n" + body);
        socket->disconnectFromHost();
        return;
    }
    Response response = m_script.takeFirst();
    if (response.turn)
        response.writes = renderTurn(*response.turn, fakeFormatForPath(request.path));
    QPointer<QTcpSocket> guard(socket);
    QTimer::singleShot(response.firstByteDelayMs, this, [this, guard, response] {
        if (!guard)
            return;
        QByteArray head;
        for (const auto &header : response.headers)
            head += header.first + ": " + header.second + "\r\n";
        if (response.httpStatus != 200) {
            const QByteArray body = response.writes.join();
            guard->write("HTTP/1.1 " + QByteArray::number(response.httpStatus)
                         + " Error\r\nContent-Type: application/json\r\nConnection: close\r\n"
                         + head + "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n"
                         + body);
            guard->disconnectFromHost();
            return;
        }
        guard->write(
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
            "Connection: close\r\n"
            + head + "\r\n");
        guard->flush();
        writeNext(guard, response, 0);
    });
}

void FakeOpenAiServer::writeNext(QTcpSocket *socket, Response response, int written)
{
    if (written == response.stallAfterWrites) {
        if (response.dropAfterStall)
            socket->abort();
        return; // a stall: the connection stays open, nothing more comes
    }
    if (written >= response.writes.size()) {
        socket->disconnectFromHost();
        return;
    }
    socket->write(response.writes.at(written));
    socket->flush();
    QPointer<QTcpSocket> guard(socket);
    QTimer::singleShot(response.delayMs, this, [this, guard, response, written] {
        if (guard)
            writeNext(guard, response, written + 1);
    });
}

} // namespace Sandcastle::Testing
