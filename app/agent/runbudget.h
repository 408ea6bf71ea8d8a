#pragma once

#include "agentoptions.h"

#include <app/llm/message.h>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace Sandcastle {

// The accounting of one agent run: the tokens and cost it used, how far the context estimate
// is off the server's count, and whether the tool results keep repeating one error. Before
// each model turn, check() says whether a limit ends the run. Pure: no signals, no clock.
class RunBudget
{
public:
    // Why a run ends before its next model turn.
    struct Stop
    {
        QString limit;   // "repeated_error", "token_budget", "cost_budget", "max_turns"
        QString status;  // the run's finished() status: "error" or "max_turns"
        QString message; // for the person
    };
    static constexpr int kMaxIdenticalErrors = 3;

    // A new run: the tokens, the cost and the error streak start again (the learnt ratio stays).
    void startRun();
    // The same run goes on after an error: only the error streak starts again.
    void resume() { clearErrorStreak(); }

    // The limit that ends the run before model turn number turnsTaken + 1, if any.
    std::optional<Stop> check(const AgentOptions &options, int turnsTaken) const;

    // What the server said a turn used; learns the estimate's error from the prompt count.
    void addUsage(const Usage &usage);
    // The estimated size of the request just sent (0: not estimated).
    void noteEstimate(qint64 tokens) { m_lastEstimate = tokens; }
    // A tool result as the model gets it: an error just like the last ones extends the streak.
    void noteToolResult(const nlohmann::json &result);

    qint64 tokensUsed() const { return m_promptTokens + m_completionTokens; }
    // Of the prompt tokens: read from the server's cache, and written to it.
    qint64 cachedTokens() const { return m_cachedTokens; }
    qint64 cacheWriteTokens() const { return m_cacheWriteTokens; }
    double cost(const ModelProfile &profile) const
    {
        return profile.cost(m_promptTokens, m_completionTokens, m_cachedTokens, m_cacheWriteTokens);
    }
    // The server's token count over our estimate, between 0.5 and 4.
    double tokenRatio() const { return m_tokenRatio; }

private:
    void clearErrorStreak();

    qint64 m_promptTokens = 0;
    qint64 m_completionTokens = 0;
    qint64 m_cachedTokens = 0;
    qint64 m_cacheWriteTokens = 0;
    double m_tokenRatio = 1.0;
    qint64 m_lastEstimate = 0;
    int m_identicalErrors = 0;
    std::string m_lastErrorSignature;
};

} // namespace Sandcastle
