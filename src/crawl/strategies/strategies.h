// Constructors of the shipped strategies, one .cc each; the registry
// (crawl/strategy_registry.cc) lists them by name.
#ifndef TOPICRAWL_CRAWL_STRATEGIES_STRATEGIES_H_
#define TOPICRAWL_CRAWL_STRATEGIES_STRATEGIES_H_

#include <memory>

#include "crawl/crawl_strategy.h"

namespace topicrawl {

StatusOr<std::unique_ptr<CrawlStrategy>> NewBfsStrategy(const StrategyContext& context);
StatusOr<std::unique_ptr<CrawlStrategy>> NewBestFirstStrategy(const StrategyContext& context);
StatusOr<std::unique_ptr<CrawlStrategy>> NewSharkSearchStrategy(const StrategyContext& context);
StatusOr<std::unique_ptr<CrawlStrategy>> NewWangLandauStrategy(const StrategyContext& context);
StatusOr<std::unique_ptr<CrawlStrategy>> NewAnnealingStrategy(const StrategyContext& context);
StatusOr<std::unique_ptr<CrawlStrategy>> NewNbLinkStrategy(const StrategyContext& context);
StatusOr<std::unique_ptr<CrawlStrategy>> NewTdaStrategy(const StrategyContext& context);

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_STRATEGIES_STRATEGIES_H_
