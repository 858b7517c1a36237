// Seed 004: JLSE and its anchor-only baseline ATA (jlse_strategy.cc,
// ata_strategy.cc); the registry (strategies/strategy_registry.cc) lists them.
#ifndef TOPICRAWL_STRATEGIES_JLSE_JLSE_STRATEGY_H_
#define TOPICRAWL_STRATEGIES_JLSE_JLSE_STRATEGY_H_

#include <memory>
#include <string>

#include "crawl/crawl_strategy.h"

namespace topicrawl {

StatusOr<Strategy> NewJlseStrategy(const StrategyContext& context);
StatusOr<Strategy> NewAtaStrategy(const StrategyContext& context);
// `name` selects the [strategy.<name>] table.
StatusOr<Strategy> NewJlseFamilyStrategy(const StrategyContext& context,
                                         const std::string& name, bool use_graph);

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_JLSE_JLSE_STRATEGY_H_
