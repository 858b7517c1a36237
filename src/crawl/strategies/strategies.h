// Constructors of the shipped strategies, one .cc each; the registry
// (crawl/strategy_registry.cc) lists them by name.
#ifndef TOPICRAWL_CRAWL_STRATEGIES_STRATEGIES_H_
#define TOPICRAWL_CRAWL_STRATEGIES_STRATEGIES_H_

#include <memory>
#include <string>

#include "crawl/crawl_strategy.h"

namespace topicrawl {

StatusOr<std::unique_ptr<CrawlStrategy>> NewBfsStrategy(const StrategyContext& context);
StatusOr<std::unique_ptr<CrawlStrategy>> NewBestFirstStrategy(const StrategyContext& context);
StatusOr<std::unique_ptr<CrawlStrategy>> NewSharkSearchStrategy(const StrategyContext& context);
StatusOr<std::unique_ptr<CrawlStrategy>> NewWangLandauStrategy(const StrategyContext& context);
StatusOr<std::unique_ptr<CrawlStrategy>> NewAnnealingStrategy(const StrategyContext& context);
StatusOr<std::unique_ptr<CrawlStrategy>> NewNbLinkStrategy(const StrategyContext& context);
// Seed 004: JLSE and its anchor-only baseline ATA (jlse_strategy.cc,
// ata_strategy.cc); `name` selects the [strategy.<name>] table.
StatusOr<std::unique_ptr<CrawlStrategy>> NewJlseStrategy(const StrategyContext& context);
StatusOr<std::unique_ptr<CrawlStrategy>> NewAtaStrategy(const StrategyContext& context);
StatusOr<std::unique_ptr<CrawlStrategy>> NewJlseFamilyStrategy(const StrategyContext& context,
                                                               const std::string& name,
                                                               bool use_graph);
StatusOr<std::unique_ptr<CrawlStrategy>> NewTdaStrategy(const StrategyContext& context);

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_STRATEGIES_STRATEGIES_H_
