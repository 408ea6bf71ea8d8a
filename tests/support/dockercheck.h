#pragma once

#include <sandbox/containerengine.h>
#include <sandbox/sandboxconfig.h>
#include <sandbox/sandboxsession.h>

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>

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
    QSignalSpy failed(session.get(), &SandboxSession::errorOccurred);
    session->start();
    QElapsedTimer waited;
    waited.start();
    while (ready.isEmpty() && failed.isEmpty() && waited.elapsed() < 60000)
        ready.wait(200);
    if (!failed.isEmpty())
        qWarning("the session did not start: %s", qPrintable(failed.first().at(0).toString()));
    if (ready.isEmpty())
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

// The suites run once more on other engines (tests/CMakeLists.txt: sandcastle_test_on_engines),
// SANDCASTLE_TEST_ENGINE_KIND naming which: "podman" (Podman on this machine, the folder
// mounted), "podman-rootless" (the same, run by a user without privileges: the container's
// root is that user, so its uid map is not the identity) or "remote" (a daemon that cannot see
// this machine's folders, the folder copied).
// Empty when a sandbox started with the environment's settings is on that kind of engine, as
// seen from inside it (Podman sets container=podman, Docker writes /.dockerenv) and in how the
// workspace gets there; otherwise what was found.
inline QString engineKindMismatch()
{
    const QString kind = qEnvironmentVariable("SANDCASTLE_TEST_ENGINE_KIND");
    if (kind.isEmpty())
        return {};
    QTemporaryDir workspace;
    SandboxConfig config = SandboxConfig::fromEnvironment();
    config.workspace = workspace.path();
    const bool rootless = kind == QLatin1String("podman-rootless");
    const bool podman = kind == QLatin1String("podman") || rootless;
    const bool copies = kind == QLatin1String("remote");
    if (config.isPodman() != podman || config.copiesWorkspace() != copies)
        return QStringLiteral(
                   "the environment's engine is %1 and %2 the workspace, not a %3 engine")
            .arg(config.engine,
                 config.copiesWorkspace() ? QStringLiteral("copies") : QStringLiteral("mounts"),
                 kind);
    const auto session = readySession(workspace.path(), QString());
    if (!session)
        return QStringLiteral("no sandbox started on the %1 engine").arg(kind);
    QSignalSpy finished(session.get(), &SandboxSession::finished);
    session->runPython(QStringLiteral(
        "import os; print(os.environ.get('container', '-'), os.path.exists('/.dockerenv'), "
        "open('/proc/self/uid_map').read().split()[:2] == ['0', '0'])"));
    const QString said = resultOf(finished).stdoutText.trimmed();
    const QString expected = rootless ? QStringLiteral("podman False False")
                             : podman ? QStringLiteral("podman False True")
                                      : QStringLiteral("- True True");
    if (said != expected)
        return QStringLiteral("inside the sandbox: %1, where a %2 engine gives %3")
            .arg(said, kind, expected);
    return {};
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
        static const QString engine_ = Sandcastle::Testing::engineKindMismatch();                  \
        if (!engine_.isEmpty())                                                                    \
            QFAIL(qPrintable(engine_));                                                            \
    } while (false)
