#include "mcptool.h"

#include "mcphub.h"

#include <app/agent/filetools.h>
#include <app/agent/tools.h>
#include <base/jsonfields.h>

#include <QCryptographicHash>
#include <QDateTime>
#include <QElapsedTimer>
#include <QRegularExpression>

#include <memory>

namespace Sandcastle {

namespace {

QString extensionFor(const QString &mime)
{
    if (mime == QLatin1String("image/png"))
        return QStringLiteral("png");
    if (mime == QLatin1String("image/jpeg"))
        return QStringLiteral("jpg");
    if (mime == QLatin1String("image/gif"))
        return QStringLiteral("gif");
    if (mime == QLatin1String("image/webp"))
        return QStringLiteral("webp");
    return QString();
}

// One content item as text the model can read.
QString itemText(const nlohmann::json &item,
                 const std::function<QString(const QString &, const QByteArray &)> &saveImage,
                 QStringList &files)
{
    const QString type = jsonString(item, "type");
    if (type == QLatin1String("text"))
        return jsonString(item, "text");
    if (type == QLatin1String("image") || type == QLatin1String("audio")) {
        const QString mime = jsonString(item, "mimeType");
        const QByteArray data = QByteArray::fromBase64(jsonString(item, "data").toLatin1());
        QString saved;
        if (type == QLatin1String("image") && saveImage && !extensionFor(mime).isEmpty()
            && data.size() <= McpTool::MaxImageBytes)
            saved = saveImage(mime, data);
        if (!saved.isEmpty()) {
            files << saved;
            return QStringLiteral("[image %1, %2 bytes, saved as %3]")
                .arg(mime)
                .arg(data.size())
                .arg(saved);
        }
        return QStringLiteral("[%1 %2, %3 bytes, not kept]").arg(type, mime).arg(data.size());
    }
    if (type == QLatin1String("resource") && item.contains("resource")
        && item["resource"].is_object()) {
        const nlohmann::json &resource = item["resource"];
        const QString uri = jsonString(resource, "uri");
        if (resource.contains("text"))
            return QStringLiteral("[resource %1]\n").arg(uri) + jsonString(resource, "text");
        return QStringLiteral("[resource %1: %2, %3 bytes of binary data]")
            .arg(uri, jsonString(resource, "mimeType"))
            .arg(QByteArray::fromBase64(jsonString(resource, "blob").toLatin1()).size());
    }
    if (type == QLatin1String("resource_link"))
        return QStringLiteral("[link %1: %2]")
            .arg(jsonString(item, "name"), jsonString(item, "uri"));
    return QStringLiteral("[content of type \"%1\"]").arg(type.left(40));
}

} // namespace

McpTool::McpTool(QPointer<McpHub> hub, const McpServerConfig &server, const McpToolInfo &tool)
    : m_hub(std::move(hub))
    , m_server(server.name)
    , m_tool(tool.name)
    , m_approval(server.approval)
    , m_timeoutMs(server.timeoutSeconds * 1000)
{
    m_spec.name = exposedName(server.name, tool.name);
    const QString about = tool.description.isEmpty() ? tool.title : tool.description;
    m_spec.description = QStringLiteral("[Tool \"%1\" of the MCP server \"%2\"; it runs on the "
                                        "person's computer, outside the sandbox.] %3")
                             .arg(tool.name.left(100), server.name, about)
                             .trimmed();
    nlohmann::json schema = tool.inputSchema;
    if (!schema.is_object())
        schema = nlohmann::json::object();
    schema["type"] = "object";
    if (!schema.contains("properties") || !schema["properties"].is_object())
        schema["properties"] = nlohmann::json::object();
    m_spec.parameters = schema;
}

Tool::Asking McpTool::asking() const
{
    switch (m_approval) {
    case McpApproval::Always:
        return Asking::Always;
    case McpApproval::Never:
        return Asking::Never;
    case McpApproval::Once:
        break;
    }
    return Asking::OncePerConversation;
}

QString McpTool::approvalGroup() const
{
    return QStringLiteral("mcp:") + m_server;
}

QString McpTool::exposedName(const QString &server, const QString &tool)
{
    static const QRegularExpression other(QStringLiteral("[^A-Za-z0-9_-]"));
    QString name = QStringLiteral("mcp__%1__%2").arg(server, tool);
    name.replace(other, QStringLiteral("_"));
    if (name.size() <= 64 && name == QStringLiteral("mcp__%1__%2").arg(server, tool))
        return name;
    // Changed or long: a hash of the real names keeps two of them apart.
    const QString hash
        = QString::fromLatin1(QCryptographicHash::hash((server + QLatin1Char('\n') + tool).toUtf8(),
                                                       QCryptographicHash::Sha1)
                                  .toHex()
                                  .left(8));
    return name.left(64 - 9) + QLatin1Char('_') + hash;
}

nlohmann::json McpTool::resultJson(
    const nlohmann::json &callResult,
    int outputLimit,
    const std::function<QString(const QString &mime, const QByteArray &bytes)> &saveImage)
{
    QStringList parts;
    QStringList files;
    const nlohmann::json content = callResult.value("content", nlohmann::json::array());
    if (content.is_array()) {
        for (const auto &item : content) {
            if (item.is_object())
                parts << itemText(item, saveImage, files);
        }
    }
    if (parts.isEmpty() && callResult.contains("structuredContent"))
        parts << QString::fromStdString(callResult["structuredContent"].dump(
            2, ' ', false, nlohmann::json::error_handler_t::replace));
    const QString whole = parts.join(QLatin1Char('\n'));
    const QString text = Tools::clipMiddle(whole, outputLimit);
    const auto flag = callResult.find("isError");
    const bool isError = flag != callResult.end() && flag->is_boolean() && flag->get<bool>();
    nlohmann::json result
        = isError ? Tools::errorJson(text.isEmpty() ? QStringLiteral("the tool failed") : text)
                  : Tools::okJson(0);
    if (!isError)
        result["stdout"] = text.toStdString();
    result["truncated"] = text.size() != whole.size();
    nlohmann::json list = nlohmann::json::array();
    for (const QString &file : files)
        list.push_back(file.toStdString());
    result["files"] = list;
    return result;
}

void McpTool::invoke(const nlohmann::json &arguments,
                     const ToolContext &context,
                     const Done &done) const
{
    McpClient *client = m_hub ? m_hub->client(m_server) : nullptr;
    if (!client || client->state() != McpClient::State::Ready) {
        const QString why = m_hub ? m_hub->failures().value(m_server) : QString();
        done(Tools::errorJson(
            QStringLiteral("the MCP server \"%1\" is not connected%2")
                .arg(m_server, why.isEmpty() ? QString() : QStringLiteral(": ") + why)));
        return;
    }
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    const QString workspace = context.readOnly.isEmpty() ? context.workspace : QString();
    const QString server = m_server;
    const QString tool = m_tool;
    m_ticket = client->callTool(
        m_tool,
        arguments,
        m_timeoutMs,
        [done, clock, workspace, server, tool](const Result<nlohmann::json> &answer) {
            if (!answer) {
                done(Tools::errorJson(QStringLiteral("MCP server \"%1\", tool \"%2\": %3")
                                          .arg(server, tool, answer.error())));
                return;
            }
            int count = 0;
            const auto save = [&](const QString &mime, const QByteArray &bytes) {
                if (workspace.isEmpty())
                    return QString();
                const QString relative = QStringLiteral(".sandcastle/mcp/%1-%2-%3.%4")
                                             .arg(server)
                                             .arg(QDateTime::currentMSecsSinceEpoch())
                                             .arg(++count)
                                             .arg(extensionFor(mime));
                return FileTools::writeNewFile(workspace, relative, bytes) ? relative : QString();
            };
            nlohmann::json result = resultJson(answer.value(), Tools::kDefaultOutputLimit, save);
            result["duration_ms"] = clock->elapsed();
            done(result);
        });
}

void McpTool::abandon() const
{
    McpClient *client = m_hub ? m_hub->client(m_server) : nullptr;
    if (client && m_ticket != 0)
        client->cancel(std::exchange(m_ticket, 0), QStringLiteral("stopped by the person"));
}

} // namespace Sandcastle
