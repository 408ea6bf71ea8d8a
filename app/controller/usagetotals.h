#pragma once

#include <nlohmann/json.hpp>

#include <QtGlobal>

namespace Sandcastle {

// The tokens and cost of one conversation across its runs. The agent reports each run's
// running cost; a price unknown once makes the sum unknown (negative) for good.
class UsageTotals
{
public:
    qint64 tokens() const { return m_tokens; }
    // The part of tokens() the model server read from its prompt cache (billed for less).
    qint64 cachedTokens() const { return m_cachedTokens; }
    // Negative when some run's price was not known.
    double costUsd() const { return m_costUsd; }
    bool costKnown() const { return m_costUsd >= 0; }

    // A new agent run starts: its cost counter starts at zero.
    void beginRun() { m_runCostSoFar = 0; }
    // One model turn: its tokens and the run's cost so far (negative: unknown price).
    void addTurn(int promptTokens, int completionTokens, double runCostSoFar, int cachedTokens = 0);
    void reset();

    // As stored in the conversation's settings under "usage".
    nlohmann::json toJson() const;
    static UsageTotals fromJson(const nlohmann::json &usage);

private:
    qint64 m_tokens = 0;
    qint64 m_cachedTokens = 0;
    double m_costUsd = 0;
    double m_runCostSoFar = 0;
};

} // namespace Sandcastle
