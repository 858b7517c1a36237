// Seed 001's Naive Bayes link strategy (nb_link_strategy.cc); the registry
// (strategies/strategy_registry.cc) lists it as "nb-link".
#ifndef TOPICRAWL_STRATEGIES_NAIVE_BAYES_NB_LINK_STRATEGY_H_
#define TOPICRAWL_STRATEGIES_NAIVE_BAYES_NB_LINK_STRATEGY_H_

#include <memory>
#include <string>

#include "crawl/crawl_strategy.h"

namespace topicrawl {

StatusOr<Strategy> NewNbLinkStrategy(const StrategyContext& context);

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_NAIVE_BAYES_NB_LINK_STRATEGY_H_
