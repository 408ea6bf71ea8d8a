#include "providers.h"

namespace Sandcastle {

const QList<ProviderPreset> &providerPresets()
{
    static const QList<ProviderPreset> presets{
        // OpenAI's Responses API serves every model, some only there.
        {QStringLiteral("openai"),
         QStringLiteral("OpenAI"),
         QStringLiteral("https://api.openai.com/v1"),
         true,
         {},
         WireFormat::Responses},
        {QStringLiteral("anthropic"),
         QStringLiteral("Anthropic"),
         QStringLiteral("https://api.anthropic.com/v1"),
         true,
         {},
         WireFormat::Messages},
        {QStringLiteral("ollama"),
         QStringLiteral("Ollama"),
         QStringLiteral("http://localhost:11434/v1"),
         false,
         {}},
        {QStringLiteral("llamacpp"),
         QStringLiteral("llama.cpp server"),
         QStringLiteral("http://localhost:8080/v1"),
         false,
         {}},
        {QStringLiteral("lmstudio"),
         QStringLiteral("LM Studio"),
         QStringLiteral("http://localhost:1234/v1"),
         false,
         {}},
        {QStringLiteral("vllm"),
         QStringLiteral("vLLM"),
         QStringLiteral("http://localhost:8000/v1"),
         false,
         {}},
        {QStringLiteral("openrouter"),
         QStringLiteral("OpenRouter"),
         QStringLiteral("https://openrouter.ai/api/v1"),
         true,
         // OpenRouter attributes requests to the app through these two headers.
         {{QByteArrayLiteral("HTTP-Referer"),
           QByteArrayLiteral("https://github.com/sandcastle-ide/sandcastle")},
          {QByteArrayLiteral("X-Title"), QByteArrayLiteral("Sandcastle")}}},
        {QStringLiteral("custom"), QStringLiteral("Custom"), QString(), false, {}},
    };
    return presets;
}

ProviderPreset providerById(const QString &id)
{
    for (const ProviderPreset &preset : providerPresets()) {
        if (preset.id == id)
            return preset;
    }
    return providerPresets().last();
}

ProviderPreset providerForUrl(const QUrl &url)
{
    const auto sameServer = [](const QUrl &a, const QUrl &b) {
        const auto host = [](const QUrl &u) {
            const QString h = u.host().toLower();
            return h == QLatin1String("127.0.0.1") || h == QLatin1String("::1")
                       ? QStringLiteral("localhost")
                       : h;
        };
        return a.scheme() == b.scheme() && host(a) == host(b)
               && a.port(a.scheme() == QLatin1String("https") ? 443 : 80)
                      == b.port(b.scheme() == QLatin1String("https") ? 443 : 80);
    };
    for (const ProviderPreset &preset : providerPresets()) {
        if (!preset.baseUrl.isEmpty() && sameServer(url, QUrl(preset.baseUrl)))
            return preset;
    }
    return providerPresets().last();
}

WireFormat automaticFormat(const QString &providerId, const QUrl &url)
{
    // The preset's format where the URL is the preset's own server; an OpenAI preset pointed at
    // a proxy or a gateway most likely speaks Chat Completions there.
    const ProviderPreset preset = providerById(providerId);
    if (preset.id != QLatin1String("custom") && providerForUrl(url).id == preset.id)
        return preset.format;
    const QString host = url.host().toLower();
    if (host == QLatin1String("anthropic.com") || host.endsWith(QLatin1String(".anthropic.com")))
        return WireFormat::Messages;
    return WireFormat::ChatCompletions;
}

} // namespace Sandcastle
