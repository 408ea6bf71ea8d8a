#include <app/agent/modelprofiles.h>
#include <app/agent/runbudget.h>

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace Sandcastle;

namespace {
Usage usage(int prompt, int completion)
{
    Usage u;
    u.promptTokens = prompt;
    u.completionTokens = completion;
    return u;
}
} // namespace

class TestRunBudget : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aFreshRunMayGoOnUntilTheTurnLimit()
    {
        AgentOptions options;
        options.maxTurns = 2;
        RunBudget budget;
        QVERIFY(!budget.check(options, 0));
        QVERIFY(!budget.check(options, 1));
        const auto stop = budget.check(options, 2);
        QVERIFY(stop);
        QCOMPARE(stop->limit, QStringLiteral("max_turns"));
        QCOMPARE(stop->status, QStringLiteral("max_turns"));
        QVERIFY(stop->message.contains(QStringLiteral("2 model turns")));
    }

    void tokensCountAcrossTurnsAndEndTheRunAtTheBudget()
    {
        AgentOptions options;
        options.tokenBudget = 100;
        RunBudget budget;
        budget.addUsage(usage(40, 10));
        QVERIFY(!budget.check(options, 1));
        budget.addUsage(usage(45, 5));
        QCOMPARE(budget.tokensUsed(), qint64(100));
        const auto stop = budget.check(options, 2);
        QVERIFY(stop);
        QCOMPARE(stop->limit, QStringLiteral("token_budget"));
        QCOMPARE(stop->status, QStringLiteral("error"));
        budget.addUsage(Usage()); // unknown: nothing counted
        QCOMPARE(budget.tokensUsed(), qint64(100));
        budget.startRun();
        QCOMPARE(budget.tokensUsed(), qint64(0));
        QVERIFY(!budget.check(options, 0));
    }

    void theCostBudgetNeedsAPriceAndStopsAtIt()
    {
        AgentOptions options;
        options.costBudgetUsd = 0.06;
        RunBudget budget;
        QCOMPARE(budget.check(options, 0)->limit, QStringLiteral("cost_budget")); // no price
        QVERIFY(budget.check(options, 0)->message.contains(QStringLiteral("models.json")));
        options.profile = {1000.0, 1000.0, 0};
        QVERIFY(!budget.check(options, 0));
        budget.addUsage(usage(42, 7));
        QVERIFY(qAbs(budget.cost(options.profile) - 0.049) < 1e-9);
        QVERIFY(!budget.check(options, 1));
        budget.addUsage(usage(42, 7));
        QCOMPARE(budget.check(options, 2)->limit, QStringLiteral("cost_budget"));
    }

    void cachedInputIsPricedAtItsOwnPrice()
    {
        const ModelProfile claude
            = ModelProfiles::builtIn().lookup(QStringLiteral("claude-sonnet-4-5-20250929"));
        QCOMPARE(claude.inputPerMTok, 3.0);
        QCOMPARE(claude.cachedInputPrice(), 0.30);
        QCOMPARE(claude.cacheWritePrice(), 3.75);
        // A million tokens of prompt: 600k read from the cache, 100k written to it, 300k fresh.
        QVERIFY(qAbs(claude.cost(1'000'000, 0, 600'000, 100'000) - (0.9 + 0.18 + 0.375)) < 1e-12);
        // A server cannot report more cached than was sent.
        QCOMPARE(claude.cost(1000, 0, 5000, 5000), claude.cost(1000, 0, 1000, 0));
        // No cached price known: cached input costs what input costs.
        const ModelProfile plain{1.0, 2.0, 0};
        QCOMPARE(plain.cost(1'000'000, 0, 500'000, 0), 1.0);

        RunBudget budget;
        Usage turn = usage(1000, 10);
        turn.cachedPromptTokens = 800;
        budget.addUsage(turn);
        budget.addUsage(turn);
        budget.addUsage(usage(500, 5)); // a server that says nothing of its cache
        QCOMPARE(budget.cachedTokens(), qint64(1600));
        QCOMPARE(budget.cacheWriteTokens(), qint64(0));
        QCOMPARE(budget.cost(claude), claude.cost(2500, 25, 1600, 0));
        budget.startRun();
        QCOMPARE(budget.cachedTokens(), qint64(0));
    }

    void thePriceFileCarriesCachedPrices()
    {
        QTemporaryDir dir;
        const QString path = ModelProfiles::fileIn(dir.path());
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"my-model": {"input_per_mtok": 2, "output_per_mtok": 8,
                      "cached_input_per_mtok": 0.2, "cache_write_per_mtok": 2.5},
                      "no-cache-price": {"input_per_mtok": 1, "output_per_mtok": 1,
                      "cached_input_per_mtok": -3}})");
        file.close();
        ModelProfiles table;
        QVERIFY(table.loadFile(path));
        QCOMPARE(table.lookup(QStringLiteral("my-model")).cachedInputPrice(), 0.2);
        QCOMPARE(table.lookup(QStringLiteral("my-model")).cacheWritePrice(), 2.5);
        // A negative price is no price: the input price stands in.
        QCOMPARE(table.lookup(QStringLiteral("no-cache-price")).cachedInputPrice(), 1.0);
        const QString copy = dir.filePath(QStringLiteral("copy.json"));
        QVERIFY(table.saveFile(copy));
        ModelProfiles again;
        QVERIFY(again.loadFile(copy));
        QCOMPARE(again.lookup(QStringLiteral("my-model")).cachedInputPerMTok, 0.2);
        QCOMPARE(again.lookup(QStringLiteral("my-model")).cacheWritePerMTok, 2.5);
        QCOMPARE(again.lookup(QStringLiteral("no-cache-price")).cachedInputPerMTok, -1.0);
    }

    void threeIdenticalErrorsInARowStopTheRunAndASuccessResetsTheStreak()
    {
        AgentOptions options;
        RunBudget budget;
        const nlohmann::json error = {{"status", "error"}, {"error", "NameError"}};
        budget.noteToolResult(error);
        budget.noteToolResult(error);
        budget.noteToolResult({{"status", "ok"}});
        budget.noteToolResult(error);
        budget.noteToolResult({{"status", "error"}, {"error", "TypeError"}});
        budget.noteToolResult(error);
        QVERIFY(!budget.check(options, 1));
        budget.noteToolResult(error);
        budget.noteToolResult(error);
        QCOMPARE(budget.check(options, 1)->limit, QStringLiteral("repeated_error"));
        budget.resume();
        QVERIFY(!budget.check(options, 1));
    }

    void theServersCountTeachesTheEstimateWithinBounds()
    {
        RunBudget budget;
        QCOMPARE(budget.tokenRatio(), 1.0);
        budget.addUsage(usage(150, 1)); // no estimate to compare with
        QCOMPARE(budget.tokenRatio(), 1.0);
        budget.noteEstimate(100);
        budget.addUsage(usage(150, 1));
        QCOMPARE(budget.tokenRatio(), 1.5);
        budget.addUsage(usage(10000, 1));
        QCOMPARE(budget.tokenRatio(), 4.0);
        budget.addUsage(usage(1, 1));
        QCOMPARE(budget.tokenRatio(), 0.5);
        budget.startRun(); // learnt across runs
        QCOMPARE(budget.tokenRatio(), 0.5);
    }
};

QTEST_GUILESS_MAIN(TestRunBudget)
#include "tst_runbudget.moc"
