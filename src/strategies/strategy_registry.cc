#include "strategies/strategy_registry.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "strategies/baselines/baseline_strategies.h"
#include "strategies/jlse/jlse_strategy.h"
#include "strategies/naive_bayes/nb_link_strategy.h"
#include "strategies/tda/tda_strategy.h"
#include "strategies/wang_landau/wang_landau_strategy.h"
#include "strategies/online/online_strategy.h"

namespace topicrawl {
namespace {

using Factory = std::function<StatusOr<Strategy>(const StrategyContext&)>;

const std::vector<std::pair<std::string, Factory>>& Registry() {
  static const auto* registry = new std::vector<std::pair<std::string, Factory>>{
      {"bfs", NewBfsStrategy},
      {"best-first", NewBestFirstStrategy},
      {"shark-search", NewSharkSearchStrategy},
      {"wang-landau", NewWangLandauStrategy},
      {"annealing", NewAnnealingStrategy},
      {"nb-link", NewNbLinkStrategy},
      {"jlse", NewJlseStrategy},
      {"ata", NewAtaStrategy},
      {"tda", NewTdaStrategy},
      {"online", NewOnlineStrategy},
  };
  return *registry;
}

}  // namespace

StatusOr<Strategy> MakeCrawlStrategy(
    const std::string& name, const StrategyContext& context) {
  for (const auto& [n, factory] : Registry()) {
    if (n == name) return factory(context);
  }
  std::string known;
  for (const auto& n : CrawlStrategyNames()) known += (known.empty() ? "" : ", ") + n;
  return Status::Error("unknown strategy '" + name + "'; known: " + known);
}

std::vector<std::string> CrawlStrategyNames() {
  std::vector<std::string> names;
  for (const auto& [n, f] : Registry()) names.push_back(n);
  return names;
}

}  // namespace topicrawl
