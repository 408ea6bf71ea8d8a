#pragma once

#include <app/agent/agent.h>
#include <app/llm/httpmodelclient.h>
#include <sandbox/sandboxsession.h>
#include <support/chatshape.h>
#include <support/fakeopenaiserver.h>

#include <QSignalSpy>
#include <QTemporaryDir>

#include <memory>

namespace Sandcastle::Testing {

// One conversation wired as the application wires it: fake model, real client (in the wire
// format SANDCASTLE_TEST_FORMAT names), a sandbox session on a temporary workspace (started only
// if the agent runs code), and the agent.
struct AgentHarness
{
    FakeOpenAiServer server;
    QTemporaryDir workspace;
    std::unique_ptr<HttpModelClient> client;
    std::unique_ptr<SandboxSession> session;
    std::unique_ptr<Agent> agent;

    explicit AgentHarness(const AgentOptions &options = AgentOptions(),
                          SandboxConfig sandboxConfig = SandboxConfig::fromEnvironment())
    {
        server.listen();
        ClientConfig clientConfig;
        clientConfig.baseUrl = QUrl(server.baseUrl());
        clientConfig.model = QStringLiteral("fake-model");
        clientConfig.format = testWireFormat();
        client = std::make_unique<HttpModelClient>(clientConfig);
        sandboxConfig.workspace = workspace.path();
        session = std::make_unique<SandboxSession>(sandboxConfig);
        agent = std::make_unique<Agent>(client.get(), session.get(), options);
    }

    // Runs the agent to its end; returns the finished() status, or "no end" on a hang.
    QString run(const QString &prompt, int timeoutMs = 120000)
    {
        QSignalSpy finished(agent.get(), &Agent::finished);
        agent->start(prompt);
        if (finished.isEmpty() && !finished.wait(timeoutMs))
            return QStringLiteral("no end");
        return finished.first().at(0).toString();
    }

    // Request `index` in Chat Completions' shape, whatever the format (chatShape()).
    nlohmann::json request(int index) const
    {
        return chatShape(rawRequest(index), testWireFormat());
    }
    nlohmann::json rawRequest(int index) const
    {
        return nlohmann::json::parse(server.requests().at(index).body.toStdString());
    }

    // The content of the last message of a request, which is a tool result.
    nlohmann::json lastToolResult(int requestIndex) const
    {
        return nlohmann::json::parse(
            request(requestIndex)["messages"].back()["content"].get<std::string>(), nullptr, false);
    }
};

} // namespace Sandcastle::Testing
