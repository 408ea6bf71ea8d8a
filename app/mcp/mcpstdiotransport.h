#pragma once

#include "mcpconfig.h"
#include "mcptransport.h"

#include <QProcess>

namespace Sandcastle {

// An MCP server as a child process: one JSON-RPC message per line on its stdin and stdout
// (MCP's stdio transport). The process runs in a process group of its own, so that stopping it
// stops what it started (npx starts node); stderr is kept, its last lines, for error messages.
// Anything on stdout that is not a JSON message ends the connection: the specification forbids
// it, and a server that mixes logs into its replies cannot be trusted to answer right.
class McpStdioTransport final : public McpTransport
{
    Q_OBJECT
public:
    explicit McpStdioTransport(McpServerConfig config, QObject *parent = nullptr);
    ~McpStdioTransport() override;

    void open() override;
    void send(const nlohmann::json &message) override;
    void close() override;
    QString diagnostics() const override;
    // The server's process id while it runs, else 0 (tests stop or kill it).
    qint64 processId() const;

    static constexpr qsizetype MaxLineBytes = 32 << 20;
    static constexpr qsizetype StderrKeptBytes = 8 << 10;

private:
    void readOutput();
    void readErrors();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void fail(const QString &reason);
    void stopGroup(int signal);

    McpServerConfig m_config;
    QProcess m_process;
    QByteArray m_line;
    QByteArray m_stderr;
    qint64 m_pid = 0;
    bool m_closing = false;
    bool m_failed = false;
};

} // namespace Sandcastle
