#pragma once

#include "mcpclient.h"
#include "mcpconfig.h"

#include <app/agent/tool.h>

#include <QPointer>

namespace Sandcastle {

class McpHub;

// One tool of an MCP server, offered to the model beside the built-ins under a name no
// built-in can have: "mcp__<server>__<tool>" (letters, digits, '_' and '-' only, at most 64,
// shortened with a hash when longer). A call goes to the server through the hub (the server's
// current connection); the person is asked as the server's approval policy says, whatever the
// ask-first setting. What the server answers is untrusted text: it reaches the model and the
// window as text, bounded like the console's output; images go into the workspace's
// .sandcastle/mcp/ folder (through PathGuard), nothing else of it is written anywhere.
class McpTool final : public Tool
{
public:
    McpTool(QPointer<McpHub> hub, const McpServerConfig &server, const McpToolInfo &tool);

    const ToolSpec &spec() const override { return m_spec; }
    Place place() const override { return Place::Host; }
    bool needsApproval() const override { return true; }
    Asking asking() const override;
    QString approvalGroup() const override;
    void invoke(const nlohmann::json &arguments,
                const ToolContext &context,
                const Done &done) const override;
    void abandon() const override;
    bool showsOutput() const override { return true; }

    const QString &serverName() const { return m_server; }
    const QString &toolName() const { return m_tool; }

    // "mcp__<server>__<tool>", made callable.
    static QString exposedName(const QString &server, const QString &tool);
    static bool isMcpName(const QString &name) { return name.startsWith(QLatin1String("mcp__")); }
    // The tool result JSON for a tools/call result: status ("error" when the server says
    // isError), the text of its content (text, embedded resources, what images and links
    // were), bounded to `outputLimit` characters with head and tail kept. Images are handed to
    // `saveImage` (mime type, decoded bytes) which returns the workspace path it wrote or empty.
    static nlohmann::json
    resultJson(const nlohmann::json &callResult,
               int outputLimit,
               const std::function<QString(const QString &mime, const QByteArray &bytes)> &saveImage
               = {});

    static constexpr qsizetype MaxImageBytes = 10 << 20;

private:
    QPointer<McpHub> m_hub;
    QString m_server;
    QString m_tool;
    McpApproval m_approval;
    int m_timeoutMs;
    ToolSpec m_spec;
    mutable quint64 m_ticket = 0; // the call under way, for abandon()
};

} // namespace Sandcastle
