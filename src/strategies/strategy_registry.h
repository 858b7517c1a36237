// The explicit list of crawl strategies, above the families that implement
// them (strategies/<family>/). Adding a strategy = one .cc in its family,
// one line in strategy_registry.cc, one CMake line, one test.
#ifndef TOPICRAWL_STRATEGIES_STRATEGY_REGISTRY_H_
#define TOPICRAWL_STRATEGIES_STRATEGY_REGISTRY_H_

#include <memory>
#include <string>
#include <vector>

#include "crawl/crawl_strategy.h"

namespace topicrawl {

// The strategy called `name`; an unknown name is an error that lists the
// known ones. Matches crawl/crawl_strategy.h's StrategyFactory, so it can be
// handed to the Crawler as it is.
StatusOr<Strategy> MakeCrawlStrategy(
    const std::string& name, const StrategyContext& context);
// The registered names, in registry order.
std::vector<std::string> CrawlStrategyNames();

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_STRATEGY_REGISTRY_H_
