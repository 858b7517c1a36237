// "ata": the anchor-text-analysis baseline of seed 004 (004_d65f8d41b01a9f7d
// §4.2): JLSE without the web link graph, sim(u) = sim_anchor(u) (eq. 3
// with sim_predicted = 0); everything else (page NB, result pages, eq. 10)
// is JLSE's. Parameters: [strategy.ata], the keys of [strategy.jlse].
#include "strategies/jlse/jlse_strategy.h"

namespace topicrawl {

StatusOr<Strategy> NewAtaStrategy(const StrategyContext& context) {
  return NewJlseFamilyStrategy(context, "ata", /*use_graph=*/false);
}

}  // namespace topicrawl
