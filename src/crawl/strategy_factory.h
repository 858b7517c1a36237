// StrategyFactory: how the crawl loop gets its strategy. A header of its
// own so that crawler.h (read by the server and the cluster) names the
// factory without the strategy contract (crawl/crawl_strategy.h).
#ifndef TOPICRAWL_CRAWL_STRATEGY_FACTORY_H_
#define TOPICRAWL_CRAWL_STRATEGY_FACTORY_H_

#include <functional>
#include <string>

#include "core/status.h"

namespace topicrawl {

struct Strategy;         // crawl/crawl_strategy.h
struct StrategyContext;  // crawl/crawl_strategy.h

// Makes the strategy called `name`. The crawl loop is handed one (the
// explicit list, strategies/strategy_registry.h, sits above the families,
// so nothing in crawl/ or below names a strategy). An unknown name is an
// error that lists the known ones.
using StrategyFactory = std::function<StatusOr<Strategy>(const std::string& name,
                                                          const StrategyContext& context)>;

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_STRATEGY_FACTORY_H_
