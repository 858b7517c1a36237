// Seed 000's Wang-Landau strategy (wang_landau_strategy.cc); the registry
// (strategies/strategy_registry.cc) lists it as "wang-landau".
#ifndef TOPICRAWL_STRATEGIES_WANG_LANDAU_WANG_LANDAU_STRATEGY_H_
#define TOPICRAWL_STRATEGIES_WANG_LANDAU_WANG_LANDAU_STRATEGY_H_

#include <memory>
#include <string>

#include "crawl/crawl_strategy.h"

namespace topicrawl {

StatusOr<Strategy> NewWangLandauStrategy(const StrategyContext& context);

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_WANG_LANDAU_WANG_LANDAU_STRATEGY_H_
