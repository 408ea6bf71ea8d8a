#pragma once

#include <app/appsettings.h>
#include <sandbox/sandboxconfig.h>
#include <support/fakeopenaiserver.h>

namespace Sandcastle::Testing {

// Settings for a window or controller under test: its data folder, the fake model server, and
// the sandbox image and engine of the environment.
inline AppSettings settingsWithFakeServer(const QString &dataDir, const FakeOpenAiServer &server)
{
    AppSettings settings;
    settings.dataDir = dataDir;
    settings.baseUrl = server.baseUrl();
    settings.model = QStringLiteral("fake-model");
    settings.image = SandboxConfig::fromEnvironment().image;
    settings.engine = SandboxConfig::fromEnvironment().engine;
    return settings;
}

} // namespace Sandcastle::Testing
