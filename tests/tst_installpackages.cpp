#include <app/agent/installtool.h>
#include <app/project/projectenvironment.h>

#include <QtTest>

using namespace Sandcastle;

// install_packages' arguments and how the packages join the project's files (pure parts; the
// tool against the daemon is in tst_packages).
class TestInstallPackages : public QObject
{
    Q_OBJECT

    static nlohmann::json parse(const char *json) { return nlohmann::json::parse(json); }

private slots:
    void argumentsNeedAReasonAndAPackage_data()
    {
        QTest::addColumn<QByteArray>("arguments");
        QTest::addColumn<QString>("error");
        QTest::newRow("no reason")
            << QByteArray(R"({"pip": ["rich"]})") << QStringLiteral("reason");
        QTest::newRow("empty reason")
            << QByteArray(R"({"pip": ["rich"], "reason": ""})") << QStringLiteral("reason");
        QTest::newRow("nothing") << QByteArray(R"({"reason": "x"})")
                                 << QStringLiteral("at least one");
        QTest::newRow("empty lists") << QByteArray(R"({"pip": [], "apt": [], "reason": "x"})")
                                     << QStringLiteral("at least one");
        QTest::newRow("not a list")
            << QByteArray(R"({"pip": "rich", "reason": "x"})") << QStringLiteral("list");
        QTest::newRow("not strings")
            << QByteArray(R"({"apt": [1], "reason": "x"})") << QStringLiteral("strings");
    }

    void argumentsNeedAReasonAndAPackage()
    {
        QFETCH(QByteArray, arguments);
        QFETCH(QString, error);
        const auto request
            = InstallPackagesTool::request(nlohmann::json::parse(arguments.toStdString()));
        QVERIFY(!request);
        QVERIFY2(request.error().contains(error), qPrintable(request.error()));
    }

    void argumentsAreRead()
    {
        const auto request = InstallPackagesTool::request(
            parse(R"({"pip": [" rich ", "polars>=0.20"], "apt": ["jq"], "reason": "tables"})"));
        QVERIFY(request);
        QCOMPARE(request.value().pip,
                 (QStringList{QStringLiteral("rich"), QStringLiteral("polars>=0.20")}));
        QCOMPARE(request.value().apt, QStringList{QStringLiteral("jq")});
        QCOMPARE(request.value().reason, QStringLiteral("tables"));
    }

    void theToolAlwaysGoesToTheInstallerAndRefusesAReadOnlyFolder()
    {
        int calls = 0;
        InstallPackagesTool tool(
            [&calls](const InstallPackagesTool::Request &, const Tool::Done &done) {
                ++calls;
                done({{"status", "ok"}});
            });
        QCOMPARE(tool.name(), QStringLiteral("install_packages"));
        QVERIFY(!tool.needsApproval()); // the installer asks, whatever the ask-first setting
        nlohmann::json answer;
        tool.invoke(parse(R"({"pip": ["rich"], "reason": "x"})"),
                    ToolContext{QStringLiteral("/w")},
                    [&answer](const nlohmann::json &result) { answer = result; });
        QCOMPARE(calls, 1);
        QCOMPARE(answer.value("status", std::string()), std::string("ok"));
        tool.invoke(parse(R"({"pip": ["rich"], "reason": "x"})"),
                    ToolContext{QStringLiteral("/w"), nullptr, QStringLiteral("owned by root")},
                    [&answer](const nlohmann::json &result) { answer = result; });
        QCOMPARE(calls, 1);
        QVERIFY(answer.value("error", std::string()).find("read-only") != std::string::npos);
    }

    void packagesAreAppendedOnceAndNamesAreChecked()
    {
        const EnvironmentSpec spec
            = EnvironmentSpec::parse("numpy\nScikit_Learn>=1.0", "jq\n", QStringLiteral("/w"));
        const auto files
            = ProjectEnvironment::withPackages(spec,
                                               {QStringLiteral("rich"),
                                                QStringLiteral("scikit-learn"),
                                                QStringLiteral("polars[all]>=0.20,<1")},
                                               {QStringLiteral("jq"), QStringLiteral("graphviz")});
        QVERIFY2(files, qPrintable(files.error()));
        QCOMPARE(files.value().first,
                 QByteArray("numpy\nScikit_Learn>=1.0\nrich\npolars[all]>=0.20,<1\n"));
        QCOMPARE(files.value().second, QByteArray("jq\ngraphviz\n"));

        for (const char *bad : {"--index-url=https://x",
                                "https://x/pkg.whl",
                                "./pkg",
                                "-e .",
                                "pkg @ https://x",
                                "rich; os.system('x')"}) {
            const auto refused = ProjectEnvironment::withPackages(spec, {QLatin1String(bad)}, {});
            QVERIFY2(!refused, bad);
            QVERIFY(refused.error().contains(QStringLiteral("not a package name")));
        }
        const auto badApt = ProjectEnvironment::withPackages(spec, {}, {QStringLiteral("-o=x")});
        QVERIFY(!badApt);
        QVERIFY(badApt.error().contains(QStringLiteral("Debian package")));
    }

    void theSummaryNamesBothFiles()
    {
        const EnvironmentSpec spec = EnvironmentSpec::parse("rich\n", "jq\n", QStringLiteral("/w"));
        QCOMPARE(ProjectEnvironment::describe(spec), QStringLiteral("pip: rich; apt: jq"));
    }
};

QTEST_GUILESS_MAIN(TestInstallPackages)
#include "tst_installpackages.moc"
