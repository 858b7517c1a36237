// Constructors of the baseline strategies (seed 000's comparison set), one
// .cc each; the registry (strategies/strategy_registry.cc) lists them by name.
#ifndef TOPICRAWL_STRATEGIES_BASELINES_BASELINE_STRATEGIES_H_
#define TOPICRAWL_STRATEGIES_BASELINES_BASELINE_STRATEGIES_H_

#include <memory>
#include <string>

#include "crawl/crawl_strategy.h"

namespace topicrawl {

StatusOr<Strategy> NewBfsStrategy(const StrategyContext& context);
StatusOr<Strategy> NewBestFirstStrategy(const StrategyContext& context);
StatusOr<Strategy> NewSharkSearchStrategy(const StrategyContext& context);
StatusOr<Strategy> NewAnnealingStrategy(const StrategyContext& context);

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_BASELINES_BASELINE_STRATEGIES_H_
