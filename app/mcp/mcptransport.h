#pragma once

#include <nlohmann/json.hpp>

#include <QObject>
#include <QString>

namespace Sandcastle {

// How JSON-RPC messages travel between Sandcastle and one MCP server: a child process's
// stdin/stdout (McpStdioTransport) or HTTP requests (McpHttpTransport). Messages go out whole
// and come back whole; whatever goes wrong underneath ends in one failed().
class McpTransport : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    ~McpTransport() override = default;

    // Starts the process or checks nothing (HTTP connects with the first message); the
    // transport takes messages right away.
    virtual void open() = 0;
    virtual void send(const nlohmann::json &message) = 0;
    // The request with this id is given up (timed out, cancelled): whatever still carries its
    // answer is dropped.
    virtual void abandon(const nlohmann::json &id) { Q_UNUSED(id) }
    // Ends it politely (stdin closed, the HTTP session deleted), then for good.
    virtual void close() = 0;
    // What the server said last on stderr (a stdio server) — for error messages.
    virtual QString diagnostics() const { return QString(); }
    // Streamable HTTP: the protocol version to name in each request once it is agreed.
    virtual void setProtocolVersion(const QString &version) { Q_UNUSED(version) }

Q_SIGNALS:
    void messageReceived(const nlohmann::json &message);
    // The transport is gone (the process ended, the server answered junk): why, in a sentence.
    void failed(const QString &reason);
};

} // namespace Sandcastle
