#include "mcphub.h"

#include "mcptool.h"

#include <QSet>

namespace Sandcastle {

McpHub::McpHub(QString configPath, QObject *parent)
    : QObject(parent)
    , m_path(std::move(configPath))
{
    reload();
}

McpHub::~McpHub()
{
    closeAll();
}

Result<bool> McpHub::reload()
{
    const Result<McpConfigFile> read = McpConfigFile::read(m_path);
    McpConfigFile next = read ? read.value() : McpConfigFile();
    // Servers gone, changed or switched off are stopped; the rest keep their connection.
    bool changed = false;
    for (auto it = m_clients.begin(); it != m_clients.end();) {
        const McpServerConfig *now = next.find(it.key());
        if (now && now->enabled && it.value() && it.value()->config() == *now) {
            ++it;
            continue;
        }
        if (it.value()) {
            it.value()->close();
            it.value()->deleteLater();
        }
        m_failures.remove(it.key());
        it = m_clients.erase(it);
        changed = true;
    }
    m_config = next;
    if (changed)
        Q_EMIT toolsChanged();
    if (!read)
        return Result<bool>::failure(read.error());
    return Result<bool>::ok(true);
}

bool McpHub::hasEnabledServers() const
{
    return std::any_of(m_config.servers.begin(),
                       m_config.servers.end(),
                       [](const McpServerConfig &server) { return server.enabled; });
}

void McpHub::prepare(const std::function<void()> &done)
{
    for (const McpServerConfig &server : std::as_const(m_config.servers)) {
        if (!server.enabled)
            continue;
        const QPointer<McpClient> client = m_clients.value(server.name);
        if (client && client->state() != McpClient::State::Failed
            && client->state() != McpClient::State::Closed)
            continue;
        startServer(server);
    }
    m_waiting << done;
    settle();
}

void McpHub::startServer(const McpServerConfig &server)
{
    if (const QPointer<McpClient> old = m_clients.take(server.name)) {
        old->close();
        old->deleteLater();
    }
    m_failures.remove(server.name);
    auto *client = new McpClient(server, this);
    m_clients.insert(server.name, client);
    const QString name = server.name;
    connect(client, &McpClient::ready, this, [this] {
        Q_EMIT toolsChanged();
        settle();
    });
    connect(client, &McpClient::toolsChanged, this, &McpHub::toolsChanged);
    connect(client, &McpClient::failed, this, [this, name, client](const QString &reason) {
        if (m_clients.value(name) != client)
            return; // an old connection
        m_failures.insert(name, reason);
        Q_EMIT serverFailed(name, reason);
        Q_EMIT toolsChanged();
        settle();
    });
    client->start();
}

void McpHub::settle()
{
    for (const QPointer<McpClient> &client : std::as_const(m_clients)) {
        if (client && client->state() == McpClient::State::Connecting)
            return;
    }
    const QList<std::function<void()>> waiting = std::exchange(m_waiting, {});
    for (const auto &done : waiting)
        done();
}

QList<std::shared_ptr<const Tool>> McpHub::tools()
{
    QList<std::shared_ptr<const Tool>> out;
    for (const McpServerConfig &server : std::as_const(m_config.servers)) {
        const QPointer<McpClient> client = m_clients.value(server.name);
        if (!client || client->state() != McpClient::State::Ready)
            continue;
        QSet<QString> names;
        for (const McpToolInfo &info : client->tools()) {
            auto tool = std::make_shared<McpTool>(QPointer<McpHub>(this), client->config(), info);
            if (!names.contains(tool->name())) { // two that came out the same: the first
                names.insert(tool->name());
                out << tool;
            }
        }
    }
    return out;
}

McpClient *McpHub::client(const QString &server) const
{
    return m_clients.value(server);
}

void McpHub::closeAll()
{
    for (const QPointer<McpClient> &client : std::as_const(m_clients)) {
        if (client)
            client->close();
    }
    // Deleted now: a stdio server's process group is ended by its transport.
    for (const QPointer<McpClient> &client : std::as_const(m_clients))
        delete client.data();
    m_clients.clear();
    const QList<std::function<void()>> waiting = std::exchange(m_waiting, {});
    for (const auto &done : waiting)
        done();
}

} // namespace Sandcastle
