#include <app/appsettings.h>
#include <support/fakeopenaiserver.h>
#include <support/mcpservers.h>
#include <support/testtimeouts.h>
#include <ui/settings/mcppage.h>
#include <ui/settings/settingsdialog.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

using namespace Sandcastle;

class TestSettingsDialog : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    AppSettings settings(const QString &baseUrl) const
    {
        AppSettings s;
        s.dataDir = m_dir.path();
        s.provider = QStringLiteral("custom");
        s.baseUrl = baseUrl;
        s.model = QStringLiteral("fake-model");
        return s;
    }

private Q_SLOTS:
    void choosingAProviderFillsInItsAddress()
    {
        SettingsDialog dialog(settings(QStringLiteral("http://127.0.0.1:9/v1")));
        dialog.providerBox()->setCurrentIndex(
            dialog.providerBox()->findData(QStringLiteral("ollama")));
        QCOMPARE(dialog.baseUrlEdit()->text(), QStringLiteral("http://localhost:11434/v1"));
        dialog.providerBox()->setCurrentIndex(
            dialog.providerBox()->findData(QStringLiteral("lmstudio")));
        QCOMPARE(dialog.settings().baseUrl, QStringLiteral("http://localhost:1234/v1"));
        QCOMPARE(dialog.settings().provider, QStringLiteral("lmstudio"));
    }

    void theApiFormatFollowsTheProviderOrTheChoice()
    {
        SettingsDialog dialog(settings(QStringLiteral("http://127.0.0.1:9/v1")));
        QComboBox *format = dialog.apiFormatBox();
        auto *thinking = dialog.findChild<QSpinBox *>(QStringLiteral("thinkingBudget"));
        auto *caching = dialog.findChild<QCheckBox *>(QStringLiteral("promptCaching"));
        QVERIFY(thinking && caching);
        // A custom server: Chat Completions; thinking and caching are Anthropic's, so off.
        QCOMPARE(format->currentData().toString(), QStringLiteral("auto"));
        QVERIFY(format->itemText(0).contains(QStringLiteral("Chat Completions")));
        QVERIFY(!thinking->isEnabled());
        // Anthropic's preset: its URL, and "Automatic" now means Messages.
        dialog.providerBox()->setCurrentIndex(
            dialog.providerBox()->findData(QStringLiteral("anthropic")));
        QCOMPARE(dialog.baseUrlEdit()->text(), QStringLiteral("https://api.anthropic.com/v1"));
        QVERIFY(format->itemText(0).contains(QStringLiteral("Messages")));
        QVERIFY(thinking->isEnabled() && caching->isEnabled());
        QCOMPARE(dialog.settings().wireFormat(), WireFormat::Messages);
        // OpenAI's own server: Responses; the same preset at a proxy: Chat Completions.
        dialog.providerBox()->setCurrentIndex(
            dialog.providerBox()->findData(QStringLiteral("openai")));
        QCOMPARE(dialog.settings().wireFormat(), WireFormat::Responses);
        dialog.baseUrlEdit()->setText(QStringLiteral("https://proxy.example/v1"));
        QVERIFY(format->itemText(0).contains(QStringLiteral("Chat Completions")));
        QCOMPARE(dialog.settings().wireFormat(), WireFormat::ChatCompletions);
        // A choice wins over the provider, and is saved.
        format->setCurrentIndex(format->findData(QStringLiteral("messages")));
        QVERIFY(thinking->isEnabled());
        thinking->setValue(500);
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        QVERIFY(dialog.statusLabel()->text().contains(QStringLiteral("1024")));
        thinking->setValue(4096);
        caching->setChecked(false);
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        const ClientConfig config = dialog.settings().clientConfig();
        QCOMPARE(config.format, WireFormat::Messages);
        QCOMPARE(config.thinkingBudget, 4096);
        QVERIFY(!config.promptCaching);
        QFile file(m_dir.filePath(QStringLiteral("settings.ini")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("format=messages"));
        QVERIFY(text.contains("thinkingBudget=4096"));
        QVERIFY(text.contains("promptCaching=false"));
    }

    void refreshListsTheServersModels()
    {
        Testing::FakeOpenAiServer server;
        QVERIFY(server.listen());
        server.setModels({QStringLiteral("fake-model"), QStringLiteral("fake-coder")});
        SettingsDialog dialog(settings(server.baseUrl()));
        QSignalSpy refreshed(&dialog, &SettingsDialog::modelsRefreshed);
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("refreshModels")),
                          Qt::LeftButton);
        QVERIFY(refreshed.wait(Sandcastle::Testing::kWaitMs));
        QCOMPARE(refreshed.first().at(0).toInt(), 2);
        QCOMPARE(dialog.modelBox()->count(), 2);
        QCOMPARE(dialog.modelBox()->currentText(), QStringLiteral("fake-model"));
    }

    void aBadUrlIsRefusedWithAReason()
    {
        SettingsDialog dialog(settings(QStringLiteral("http://127.0.0.1:9/v1")));
        dialog.baseUrlEdit()->setText(QStringLiteral("localhost:11434"));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        QVERIFY(dialog.statusLabel()->text().contains(QStringLiteral("http://")));
    }

    // Four pages, each field with its line of help; a wrong field is said as it is typed, OK
    // waits for it, and OK pressed anyway shows the field's page with the field focused.
    void settingsComeInPagesAndRefuseWrongFieldsBeforeOk()
    {
        SettingsDialog dialog(settings(QStringLiteral("http://127.0.0.1:9/v1")));
        dialog.modelBox()->setCurrentText(QStringLiteral("a-model"));
        QStringList names;
        for (int page = 0; page < dialog.pages()->count(); ++page)
            names << dialog.pages()->tabText(page);
        QCOMPARE(names,
                 (QStringList{QStringLiteral("Model"),
                              QStringLiteral("Agent"),
                              QStringLiteral("Sandbox"),
                              QStringLiteral("Engine"),
                              QStringLiteral("MCP servers"),
                              QStringLiteral("Appearance")}));
        QVERIFY(dialog.findChildren<QLabel *>(QStringLiteral("fieldHelp")).size() >= 15);
        QVERIFY(dialog.okButton()->isEnabled());

        auto *memory = dialog.findChild<QLineEdit *>(QStringLiteral("memory"));
        QVERIFY(memory);
        memory->setText(QStringLiteral("lots"));
        QVERIFY(!dialog.okButton()->isEnabled());
        QVERIFY(dialog.statusLabel()->text().contains(QStringLiteral("512m")));
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        QCOMPARE(dialog.pages()->currentWidget()->objectName(), QStringLiteral("sandboxPage"));
        QTRY_VERIFY(memory->hasFocus());
        memory->setText(QStringLiteral("2g"));
        QVERIFY(dialog.okButton()->isEnabled());
        QVERIFY(dialog.statusLabel()->text().isEmpty());

        dialog.findChild<QLineEdit *>(QStringLiteral("wheelhouse"))
            ->setText(QStringLiteral("/nonexistent/wheels"));
        QVERIFY(!dialog.okButton()->isEnabled());
        QVERIFY(dialog.statusLabel()->text().contains(QStringLiteral("/nonexistent/wheels")));
    }

    // The MCP page: the person's mcp.json listed, a server tested (the real one answers with
    // its tools), a new one added; OK writes the file, a bad entry keeps the dialog open.
    void theMcpPageListsTestsAndAddsServers()
    {
        SANDCASTLE_REQUIRE_MCP_SERVERS();
        QTemporaryDir data;
        McpConfigFile file;
        file.servers << Sandcastle::Testing::everythingOverStdio();
        QVERIFY(file.write(data.filePath(QStringLiteral("mcp.json"))));
        AppSettings s = settings(QStringLiteral("http://127.0.0.1:9/v1"));
        s.dataDir = data.path();
        SettingsDialog dialog(s);
        dialog.modelBox()->setCurrentText(QStringLiteral("a-model"));
        McpPage *page = dialog.mcpPage();
        QVERIFY(page->findChild<QLabel *>(QStringLiteral("mcpWarning"))
                    ->text()
                    .contains(QStringLiteral("not in the sandbox")));
        QCOMPARE(page->list()->count(), 1);
        QVERIFY(page->list()->item(0)->text().startsWith(QStringLiteral("everything")));
        page->testServer();
        // The server is started (node) and asked for its tools.
        QTRY_VERIFY_WITH_TIMEOUT(page->testReport().contains(QStringLiteral("• echo")),
                                 Sandcastle::Testing::kWaitMs);
        page->addServer();
        QCOMPARE(page->list()->count(), 2);
        auto *name = page->findChild<QLineEdit *>(QStringLiteral("mcpName"));
        auto *command = page->findChild<QLineEdit *>(QStringLiteral("mcpCommand"));
        QTest::keyClicks(name, QStringLiteral("files"));
        QTest::keyClicks(command, QStringLiteral("npx"));
        QTest::keyClicks(
            page->findChild<QLineEdit *>(QStringLiteral("mcpArgs")),
            QStringLiteral("-y @modelcontextprotocol/server-filesystem \"/tmp/my data\""));
        page->findChild<QComboBox *>(QStringLiteral("mcpApproval"))->setCurrentIndex(0);
        // A name taken twice is refused, with the page in front.
        name->selectAll();
        QTest::keyClicks(name, QStringLiteral("everything"));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        QVERIFY(dialog.statusLabel()->text().contains(QStringLiteral("Two MCP servers")));
        name->selectAll();
        QTest::keyClicks(name, QStringLiteral("files"));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        const Result<McpConfigFile> saved
            = McpConfigFile::read(data.filePath(QStringLiteral("mcp.json")));
        QVERIFY(saved);
        QCOMPARE(saved.value().servers.size(), 2);
        const McpServerConfig *files = saved.value().find(QStringLiteral("files"));
        QVERIFY(files);
        QCOMPARE(files->args.last(), QStringLiteral("/tmp/my data"));
        QCOMPARE(files->approval, McpApproval::Always);
    }

    void acceptingSavesEverythingButTheKey()
    {
        SettingsDialog dialog(settings(QStringLiteral("http://127.0.0.1:9/v1")));
        dialog.modelBox()->setCurrentText(QStringLiteral("chosen-model"));
        dialog.keyEdit()->setText(QStringLiteral("sk-typed-secret"));
        dialog.findChild<QDoubleSpinBox *>(QStringLiteral("cpus"))->setValue(0.5);
        dialog.findChild<QSpinBox *>(QStringLiteral("outputCap"))->setValue(8);
        dialog.findChild<QSpinBox *>(QStringLiteral("workspaceQuota"))->setValue(300);
        QTemporaryDir wheels;
        dialog.findChild<QLineEdit *>(QStringLiteral("wheelhouse"))
            ->setText(QLatin1Char(' ') + wheels.path() + QLatin1Char(' '));
        dialog.findChild<QSpinBox *>(QStringLiteral("buildLimit"))->setValue(5);
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(dialog.settings().apiKey, QStringLiteral("sk-typed-secret"));
        QFile file(m_dir.filePath(QStringLiteral("settings.ini")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("chosen-model"));
        QVERIFY(!text.contains("sk-typed-secret"));
        // The limits reach the sandbox's command line.
        const SandboxConfig config
            = dialog.settings().sandboxConfig(QStringLiteral("c1"), m_dir.path());
        QCOMPARE(config.cpus, QStringLiteral("0.5"));
        QCOMPARE(config.outputHardCapBytes, qint64(8) * 1024 * 1024);
        QCOMPARE(config.workspaceQuotaBytes, qint64(300) * 1024 * 1024);
        QVERIFY(config.runArguments(QStringLiteral("box"), 1).contains(QStringLiteral("0.5")));
        QVERIFY(text.contains("cpus=0.5"));
        QVERIFY(text.contains("outputCapMb=8"));
        QVERIFY(text.contains("workspaceQuotaMb=300"));
        // A project environment's build: the wheelhouse and the time limit.
        const EnvironmentRequest request
            = dialog.settings().environmentRequest(m_dir.path(), EnvironmentSpec(), true);
        QCOMPARE(request.wheelhouse, wheels.path());
        QCOMPARE(request.timeoutMs, 5 * 60 * 1000);
        QVERIFY(text.contains(QByteArray(QByteArray("wheelhouse=") + wheels.path().toUtf8())));
        QVERIFY(text.contains("buildTimeoutS=300"));
    }
};

QTEST_MAIN(TestSettingsDialog)
#include "tst_settingsdialog.moc"
