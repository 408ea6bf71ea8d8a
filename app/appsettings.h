#pragma once

#include <app/llm/chattypes.h>
#include <sandbox/sandboxconfig.h>

#include <QString>

namespace Sandcastle {

// The application's settings: the settings file in the data folder, overridden by the
// SANDCASTLE_* environment variables (DESIGN.md §3), which win so that tests and scripts can
// point the app anywhere.
struct AppSettings
{
    QString baseUrl = QStringLiteral("https://api.openai.com/v1");
    QString model = QStringLiteral("gpt-4o-mini");
    QString apiKey;
    QString image = QStringLiteral("sandcastle-sandbox:latest");
    QString engine = QStringLiteral("docker");
    QString dataDir;
    int maxTurns = 12;
    int runTimeoutS = 60;

    static AppSettings load();
    static QString defaultDataDir();

    QString settingsFile() const;
    QString workspaceFor(const QString &conversationId) const;
    ClientConfig clientConfig() const;
    SandboxConfig sandboxConfig(const QString &conversationId, const QString &workspace) const;
};

} // namespace Sandcastle
