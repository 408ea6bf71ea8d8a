#include <app/agent/runbudget.h>

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
