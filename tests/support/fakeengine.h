#pragma once

#include <app/appsettings.h>
#include <support/fakeopenaiserver.h>

#include <QString>

namespace Sandcastle::Testing {

// tests/support/fake-docker: the real kernel on this machine instead of a container, no daemon
// needed. FAKE_DOCKER_STATE names its folder; FAKE_DOCKER_SLOW=SECONDS slows rm, kill and ps.
inline QString fakeDockerPath()
{
    return qEnvironmentVariable("SANDCASTLE_SOURCE_DIR")
           + QStringLiteral("/tests/support/fake-docker");
}

// Points the fake engine at `stateDir` for its containers; false when the source tree (where
// the fake and the kernel are) is not known.
inline bool useFakeEngine(const QString &stateDir)
{
    qputenv("FAKE_DOCKER_STATE", stateDir.toUtf8());
    return !qEnvironmentVariable("SANDCASTLE_SOURCE_DIR").isEmpty();
}

// Settings for a conversation on the fake model server and the fake engine.
inline AppSettings fakeEngineSettings(const FakeOpenAiServer &server, const QString &dataDir)
{
    AppSettings settings;
    settings.dataDir = dataDir;
    settings.baseUrl = server.baseUrl();
    settings.model = QStringLiteral("fake-model");
    settings.apiKey = QStringLiteral("test"); // configured: no welcome panel in the window
    settings.engine = fakeDockerPath();
    return settings;
}

// The model asks to run code that prints a line and then sleeps for a minute.
inline void enqueueLongRun(FakeOpenAiServer &server)
{
    server.enqueueToolCall(QStringLiteral("call_1"),
                           QStringLiteral("run_python"),
                           QByteArray("{\"code\": \"import time\\nprint('go', flush=True)"
                                      "\\ntime.sleep(60)\"}"));
}

} // namespace Sandcastle::Testing
