#pragma once

#include <sandbox/containerengine.h>
#include <sandbox/sandboxconfig.h>
#include <sandbox/sandboxsession.h>

#include <QSignalSpy>

#include <memory>

#include <QString>
#include <QtTest>

namespace Sandcastle::Testing {

// Empty when the engine's daemon answers and the sandbox image is there; otherwise why not.
inline QString dockerUnavailableReason()
{
    const SandboxConfig config = SandboxConfig::fromEnvironment();
    const ContainerEngine engine(config.engine);
    const Result<QString> daemon = engine.checkDaemon();
    if (!daemon)
        return daemon.error();
    const Result<bool> image = engine.imageExists(config.image);
    if (!image || !image.value())
        return QStringLiteral("the sandbox image %1 is missing (sandcastle image build)")
            .arg(config.image);
    return {};
}

// A session with the default (environment) settings on `workspace`, started and ready; null
// when it did not become ready within a minute.
inline std::unique_ptr<SandboxSession> readySession(const QString &workspace,
                                                    const QString &conversationId)
{
    SandboxConfig config = SandboxConfig::fromEnvironment();
    config.workspace = workspace;
    config.conversationId = conversationId;
    auto session = std::make_unique<SandboxSession>(config);
    QSignalSpy ready(session.get(), &SandboxSession::ready);
    session->start();
    if (!ready.wait(60000))
        return nullptr;
    return session;
}

// The result a session's `finished` spy caught, waiting for it; an engine error when none came.
inline ExecutionResult resultOf(QSignalSpy &finished, int timeoutMs = 120000)
{
    if (finished.isEmpty() && !finished.wait(timeoutMs)) {
        ExecutionResult none;
        none.status = ExecutionResult::Status::EngineError;
        none.error = QStringLiteral("no result in %1 s").arg(timeoutMs / 1000);
        return none;
    }
    return finished.first().at(0).value<ExecutionResult>();
}

} // namespace Sandcastle::Testing

// Docker tests skip on a developer machine without Docker, and fail in CI (CI is set): a CI
// that cannot reach the daemon must not pass by skipping.
#define SANDCASTLE_REQUIRE_DOCKER()                                                                \
    do {                                                                                           \
        static const QString reason_ = Sandcastle::Testing::dockerUnavailableReason();             \
        if (!reason_.isEmpty()) {                                                                  \
            if (qEnvironmentVariableIsSet("CI"))                                                   \
                QFAIL(qPrintable(QStringLiteral("Docker is required in CI: ") + reason_));         \
            QSKIP(qPrintable(QStringLiteral("Docker unavailable: ") + reason_));                   \
        }                                                                                          \
    } while (false)
