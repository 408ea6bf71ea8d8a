#include <app/appsettings.h>
#include <app/llm/modelcatalog.h>
#include <app/llm/providers.h>
#include <support/fakeopenaiserver.h>
#include <support/testtimeouts.h>

#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace Sandcastle;

// Settings, providers and the model list: where the model is, and that the key never lands
// on disk.
class TestAppSettings : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    static QByteArray fileText(const AppSettings &settings)
    {
        QFile file(settings.settingsFile());
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

private Q_SLOTS:
    void init()
    {
        for (const char *name : {"SANDCASTLE_BASE_URL",
                                 "SANDCASTLE_MODEL",
                                 "SANDCASTLE_API_KEY",
                                 "OPENAI_API_KEY",
                                 "SANDCASTLE_IMAGE",
                                 "SANDCASTLE_ENGINE",
                                 "SANDCASTLE_PREIMPORTS"})
            qunsetenv(name);
        qputenv("SANDCASTLE_DATA_DIR", m_dir.path().toUtf8());
        QFile::remove(m_dir.filePath(QStringLiteral("settings.ini")));
    }

    void theEnvironmentWinsOverTheFile()
    {
        AppSettings saved = AppSettings::load();
        saved.baseUrl = QStringLiteral("http://localhost:11434/v1");
        saved.provider = QStringLiteral("ollama");
        saved.model = QStringLiteral("qwen2.5-coder");
        saved.save();
        QCOMPARE(AppSettings::load().model, QStringLiteral("qwen2.5-coder"));
        qputenv("SANDCASTLE_BASE_URL", "https://openrouter.ai/api/v1");
        qputenv("SANDCASTLE_MODEL", "anthropic/claude");
        qputenv("OPENAI_API_KEY", "sk-openai");
        const AppSettings s = AppSettings::load();
        QCOMPARE(s.baseUrl, QStringLiteral("https://openrouter.ai/api/v1"));
        QCOMPARE(s.provider, QStringLiteral("openrouter"));
        QCOMPARE(s.model, QStringLiteral("anthropic/claude"));
        QCOMPARE(s.apiKey, QStringLiteral("sk-openai"));
        QVERIFY(s.apiKeyFromEnvironment);
        qputenv("SANDCASTLE_API_KEY", "sk-sandcastle");
        QCOMPARE(AppSettings::load().apiKey, QStringLiteral("sk-sandcastle"));
    }

    void preImportsAreModuleNamesAndTheEnvironmentCanTurnThemOff()
    {
        AppSettings s = AppSettings::load();
        QCOMPARE(s.preimportList(),
                 QStringList({QStringLiteral("numpy"),
                              QStringLiteral("pandas"),
                              QStringLiteral("matplotlib.pyplot")}));
        // Anything that is not a dotted module name is dropped, as are repeats.
        s.preimports = QStringLiteral(
            " scipy.stats ,, numpy; rm -rf /, -m, numpy, 9lives, a..b, scipy.stats, ok_2");
        QCOMPARE(
            s.preimportList(),
            QStringList(
                {QStringLiteral("scipy.stats"), QStringLiteral("numpy"), QStringLiteral("ok_2")}));
        QCOMPARE(s.sandboxConfig(QStringLiteral("c"), QStringLiteral("/w")).preimports,
                 s.preimportList());
        s.fresh = true; // a container per run: nothing would use them
        QVERIFY(s.sandboxConfig(QStringLiteral("c"), QStringLiteral("/w")).preimports.isEmpty());
        qputenv("SANDCASTLE_PREIMPORTS", "");
        QVERIFY(AppSettings::load().preimportList().isEmpty());
        qputenv("SANDCASTLE_PREIMPORTS", "polars");
        QCOMPARE(AppSettings::load().preimportList(), QStringList{QStringLiteral("polars")});
    }

    void theKeyIsNeverWrittenToTheSettingsFile()
    {
        AppSettings s = AppSettings::load();
        s.apiKey = QStringLiteral("sk-secret-123");
        s.save();
        QVERIFY(!fileText(s).contains("sk-secret-123"));
        // a key an old version left in the file is neither read nor kept
        {
            QFile file(s.settingsFile());
            QVERIFY(file.open(QIODevice::Append));
            file.write("\n[model]\napiKey=sk-old-plaintext\n");
        }
        QVERIFY(AppSettings::load().apiKey.isEmpty());
        AppSettings::load().save();
        QVERIFY(!fileText(s).contains("sk-old-plaintext"));
    }

    void providersAreRecognisedByTheirAddress()
    {
        QCOMPARE(providerForUrl(QUrl(QStringLiteral("http://127.0.0.1:11434/v1"))).id,
                 QStringLiteral("ollama"));
        QCOMPARE(providerForUrl(QUrl(QStringLiteral("http://localhost:8080/v1"))).id,
                 QStringLiteral("llamacpp"));
        QCOMPARE(providerForUrl(QUrl(QStringLiteral("http://localhost:1234/v1"))).id,
                 QStringLiteral("lmstudio"));
        QCOMPARE(providerForUrl(QUrl(QStringLiteral("https://api.openai.com/v1/"))).id,
                 QStringLiteral("openai"));
        QCOMPARE(providerForUrl(QUrl(QStringLiteral("http://gpu-box:8000/v1"))).id,
                 QStringLiteral("custom"));
        QCOMPARE(providerById(QStringLiteral("nonsense")).id, QStringLiteral("custom"));
        QVERIFY(providerById(QStringLiteral("openai")).needsKey);
        QVERIFY(!providerById(QStringLiteral("ollama")).needsKey);
    }

    void openRouterGetsItsHeadersAndKeysAreKeptPerProvider()
    {
        AppSettings s = AppSettings::load();
        s.provider = QStringLiteral("openrouter");
        s.baseUrl = QStringLiteral("https://openrouter.ai/api/v1");
        const ClientConfig config = s.clientConfig();
        QCOMPARE(config.extraHeaders.size(), 2);
        QCOMPARE(config.extraHeaders.at(1).first, QByteArray("X-Title"));
        QCOMPARE(s.keyAccount(), QStringLiteral("api-key/openrouter"));
        s.provider = QStringLiteral("custom");
        s.baseUrl = QStringLiteral("http://gpu-box:8000/v1");
        QCOMPARE(s.keyAccount(), QStringLiteral("api-key/custom/gpu-box:8000"));
        QVERIFY(s.clientConfig().extraHeaders.isEmpty());
    }

    void theToolModeRoundTrips()
    {
        AppSettings s = AppSettings::load();
        QCOMPARE(s.toolMode, AgentOptions::ToolMode::Auto);
        s.toolMode = AgentOptions::ToolMode::CodeBlocks;
        s.save();
        QCOMPARE(AppSettings::load().toolMode, AgentOptions::ToolMode::CodeBlocks);
        QCOMPARE(AppSettings::load().agentOptions().toolMode, AgentOptions::ToolMode::CodeBlocks);
    }

    void everySettingRoundTripsThroughTheFileUnderItsOneKey()
    {
        AppSettings s = AppSettings::load();
        s.provider = QStringLiteral("ollama");
        s.baseUrl = QStringLiteral("http://127.0.0.1:11434/v1");
        s.model = QStringLiteral("qwen");
        s.toolMode = AgentOptions::ToolMode::Native;
        s.maxTurns = 7;
        s.modelIdleTimeoutS = 300;
        s.askFirst = true;
        s.tokenBudget = 123456789012;
        s.costBudgetUsd = 0.75;
        s.defaultContextTokens = 65536;
        s.toolOutputLimit = 4096;
        s.consoleScrollback = 5000;
        s.language = QStringLiteral("de");
        s.theme = QStringLiteral("dark");
        s.image = QStringLiteral("other:1");
        s.engine = QStringLiteral("podman");
        s.engineContext = QStringLiteral("remote");
        s.runTimeoutS = 90;
        s.memory = QStringLiteral("2g");
        s.cpus = 1.5;
        s.outputCapMb = 32;
        s.workspaceQuotaMb = 100;
        s.network = true;
        s.fresh = true;
        s.runtime = QStringLiteral("runsc");
        s.preimports = QStringLiteral("polars, duckdb");
        s.warmSpare = false;
        s.idleStopS = 600;
        s.save();
        const AppSettings back = AppSettings::load();
        QCOMPARE(back.provider, s.provider);
        QCOMPARE(back.baseUrl, s.baseUrl);
        QCOMPARE(back.model, s.model);
        QCOMPARE(back.toolMode, s.toolMode);
        QCOMPARE(back.maxTurns, s.maxTurns);
        QCOMPARE(back.modelIdleTimeoutS, s.modelIdleTimeoutS);
        QCOMPARE(back.askFirst, s.askFirst);
        QCOMPARE(back.tokenBudget, s.tokenBudget);
        QCOMPARE(back.costBudgetUsd, s.costBudgetUsd);
        QCOMPARE(back.defaultContextTokens, s.defaultContextTokens);
        QCOMPARE(back.toolOutputLimit, s.toolOutputLimit);
        QCOMPARE(back.consoleScrollback, s.consoleScrollback);
        QCOMPARE(back.language, s.language);
        QCOMPARE(back.theme, s.theme);
        QCOMPARE(back.image, s.image);
        QCOMPARE(back.engine, s.engine);
        QCOMPARE(back.engineContext, s.engineContext);
        QCOMPARE(back.runTimeoutS, s.runTimeoutS);
        QCOMPARE(back.memory, s.memory);
        QCOMPARE(back.cpus, s.cpus);
        QCOMPARE(back.outputCapMb, s.outputCapMb);
        QCOMPARE(back.workspaceQuotaMb, s.workspaceQuotaMb);
        QCOMPARE(back.network, s.network);
        QCOMPARE(back.fresh, s.fresh);
        QCOMPARE(back.runtime, s.runtime);
        QCOMPARE(back.preimports, s.preimports);
        QCOMPARE(back.warmSpare, s.warmSpare);
        QCOMPARE(back.idleStopS, s.idleStopS);
        // One key each, every one of them in the file, nothing else but the key's absence.
        const QStringList keys = AppSettings::fileKeys();
        QCOMPARE(QSet<QString>(keys.begin(), keys.end()).size(), keys.size());
        QSettings file(s.settingsFile(), QSettings::IniFormat);
        QStringList written = file.allKeys();
        written.sort();
        QStringList expected = keys;
        expected.sort();
        QCOMPARE(written, expected);
    }

    void parsesModelListsOfEitherShape()
    {
        QString error;
        QCOMPARE(
            ModelCatalog::parseModelList(
                "{\"object\":\"list\",\"data\":[{\"id\":\"b\"},{\"id\":\"a\"},{\"id\":\"a\"}]}",
                &error),
            (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
        QVERIFY(error.isEmpty());
        QCOMPARE(ModelCatalog::parseModelList("{\"models\":[{\"name\":\"llama3:8b\"}]}", &error),
                 QStringList{QStringLiteral("llama3:8b")});
        ModelCatalog::parseModelList("<html>", &error);
        QVERIFY(!error.isEmpty());
    }

    void fetchesTheModelsOfAServer()
    {
        Testing::FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.setModels({QStringLiteral("qwen2.5-coder:7b"), QStringLiteral("llama3.1:8b")});
        ModelCatalog catalog;
        QSignalSpy ready(&catalog, &ModelCatalog::modelsReady);
        ClientConfig config;
        config.baseUrl = QUrl(server.baseUrl());
        catalog.fetch(config);
        QVERIFY(ready.wait(Sandcastle::Testing::kWaitMs));
        QCOMPARE(ready.first().at(0).toStringList(),
                 (QStringList{QStringLiteral("llama3.1:8b"), QStringLiteral("qwen2.5-coder:7b")}));

        server.setModels({}, 401);
        QSignalSpy failed(&catalog, &ModelCatalog::errorOccurred);
        catalog.fetch(config);
        QVERIFY(failed.wait(Sandcastle::Testing::kWaitMs));
        QVERIFY(failed.first().at(0).toString().contains(QStringLiteral("401")));
    }
};

QTEST_GUILESS_MAIN(TestAppSettings)
#include "tst_appsettings.moc"
