#include "usagetotals.h"

#include <algorithm>

namespace Sandcastle {

void UsageTotals::addTurn(int promptTokens,
                          int completionTokens,
                          double runCostSoFar,
                          int cachedTokens)
{
    m_tokens += std::max(0, promptTokens) + std::max(0, completionTokens);
    m_cachedTokens += std::clamp(cachedTokens, 0, std::max(0, promptTokens));
    if (runCostSoFar < 0 || m_costUsd < 0) {
        m_costUsd = -1;
        return;
    }
    m_costUsd += runCostSoFar - m_runCostSoFar;
    m_runCostSoFar = runCostSoFar;
}

void UsageTotals::reset()
{
    *this = UsageTotals();
}

nlohmann::json UsageTotals::toJson() const
{
    return {{"tokens", m_tokens}, {"cached_tokens", m_cachedTokens}, {"cost_usd", m_costUsd}};
}

UsageTotals UsageTotals::fromJson(const nlohmann::json &usage)
{
    UsageTotals totals;
    if (!usage.is_object())
        return totals;
    const auto tokens = usage.find("tokens");
    if (tokens != usage.end() && tokens->is_number_integer())
        totals.m_tokens = std::max<qint64>(0, tokens->get<qint64>());
    const auto cached = usage.find("cached_tokens");
    if (cached != usage.end() && cached->is_number_integer())
        totals.m_cachedTokens = std::clamp<qint64>(cached->get<qint64>(), 0, totals.m_tokens);
    const auto cost = usage.find("cost_usd");
    if (cost != usage.end() && cost->is_number())
        totals.m_costUsd = cost->get<double>();
    return totals;
}

} // namespace Sandcastle
