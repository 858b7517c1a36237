// Seed 002's tda strategy (tda_strategy.cc); the registry
// (strategies/strategy_registry.cc) lists it as "tda".
#ifndef TOPICRAWL_STRATEGIES_TDA_TDA_STRATEGY_H_
#define TOPICRAWL_STRATEGIES_TDA_TDA_STRATEGY_H_

#include <memory>
#include <string>

#include "crawl/crawl_strategy.h"

namespace topicrawl {

StatusOr<Strategy> NewTdaStrategy(const StrategyContext& context);

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_TDA_TDA_STRATEGY_H_
