#pragma once

#include <app/appsettings.h>
#include <sandbox/sandboxconfig.h>
#include <support/fakeopenaiserver.h>

namespace Sandcastle::Testing {

// Settings for a window or controller under test: its data folder, the fake model server, and
// the sandbox image and engine of the environment. No warm spare and no pre-imports: a
// window test's own sandbox is all it starts, so that the timing of the suites that measure
// the window's responsiveness is not shared with a second container importing pandas
// (tst_warmwindow has both on, as a person's window does).
inline AppSettings settingsWithFakeServer(const QString &dataDir, const FakeOpenAiServer &server)
{
    AppSettings settings;
    settings.dataDir = dataDir;
    settings.baseUrl = server.baseUrl();
    settings.model = QStringLiteral("fake-model");
    settings.image = SandboxConfig::fromEnvironment().image;
    settings.engine = SandboxConfig::fromEnvironment().engine;
    settings.warmSpare = false;
    settings.preimports.clear();
    return settings;
}

} // namespace Sandcastle::Testing
