#include "runbudget.h"

namespace Sandcastle {

void RunBudget::startRun()
{
    m_promptTokens = 0;
    m_completionTokens = 0;
    m_cachedTokens = 0;
    m_cacheWriteTokens = 0;
    clearErrorStreak();
}

void RunBudget::clearErrorStreak()
{
    m_identicalErrors = 0;
    m_lastErrorSignature.clear();
}

std::optional<RunBudget::Stop> RunBudget::check(const AgentOptions &options, int turnsTaken) const
{
    const QString error = QStringLiteral("error");
    if (m_identicalErrors >= kMaxIdenticalErrors) {
        return Stop{QStringLiteral("repeated_error"),
                    error,
                    QStringLiteral("Stopped: the last %1 tool results were the same error, so the "
                                   "agent was going round in circles. Change the request or the "
                                   "code and ask again.")
                        .arg(kMaxIdenticalErrors)};
    }
    if (options.tokenBudget > 0 && tokensUsed() >= options.tokenBudget) {
        return Stop{QStringLiteral("token_budget"),
                    error,
                    QStringLiteral("Stopped: this run used %1 tokens, over its budget of %2 (raise "
                                   "the token budget in the settings).")
                        .arg(tokensUsed())
                        .arg(options.tokenBudget)};
    }
    if (options.costBudgetUsd > 0) {
        if (!options.profile.hasPrice()) {
            return Stop{QStringLiteral("cost_budget"),
                        error,
                        QStringLiteral("Stopped: a cost budget is set, but the price of this model "
                                       "is not known, so the cost cannot be kept under it. Add the "
                                       "model to models.json in the data folder, or clear the "
                                       "cost budget.")};
        }
        const double spent = cost(options.profile);
        if (spent >= options.costBudgetUsd) {
            return Stop{QStringLiteral("cost_budget"),
                        error,
                        QStringLiteral("Stopped: this run cost $%1, over its budget of $%2 (raise "
                                       "the cost budget in the settings).")
                            .arg(spent, 0, 'f', 4)
                            .arg(options.costBudgetUsd, 0, 'f', 4)};
        }
    }
    if (turnsTaken >= options.maxTurns) {
        return Stop{QStringLiteral("max_turns"),
                    QStringLiteral("max_turns"),
                    QStringLiteral("Stopped after %1 model turns without an answer (the turn "
                                   "limit; raise it in the settings or with --max-turns).")
                        .arg(options.maxTurns)};
    }
    return std::nullopt;
}

void RunBudget::addUsage(const Usage &usage)
{
    if (!usage.isKnown())
        return;
    m_promptTokens += qMax(0, usage.promptTokens);
    m_completionTokens += qMax(0, usage.completionTokens);
    m_cachedTokens += qMax(0, usage.cachedPromptTokens);
    m_cacheWriteTokens += qMax(0, usage.cacheWriteTokens);
    // The server counted the request we estimated: learn how far off the estimate is.
    if (m_lastEstimate > 0 && usage.promptTokens > 0)
        m_tokenRatio = qBound(0.5, double(usage.promptTokens) / double(m_lastEstimate), 4.0);
}

void RunBudget::noteToolResult(const nlohmann::json &result)
{
    // A result that is an error just like the last two means the model is going round in
    // circles: stop rather than burn turns.
    const bool isError = result.value("status", std::string()) != "ok";
    const std::string signature = isError ? result.value("status", std::string()) + "|"
                                                + result.value("error", std::string())
                                          : std::string();
    m_identicalErrors
        = isError && signature == m_lastErrorSignature ? m_identicalErrors + 1 : (isError ? 1 : 0);
    m_lastErrorSignature = signature;
}

} // namespace Sandcastle
