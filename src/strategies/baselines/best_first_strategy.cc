// Best-first, "OPS" in seed 000 (strategy "best-first"): always fetch the
// queued link with the highest R(l) = a R(anchor_l) + (1 - a) R(P_l)
// (seed 000 eq. 5, a = topic alpha, default 0.3).
#include "scoring/relevance_link_scorer.h"
#include "strategies/baselines/baseline_strategies.h"
#include "strategies/baselines/topic_strategy.h"

namespace topicrawl {

StatusOr<Strategy> NewBestFirstStrategy(
    const StrategyContext& context) {
  auto rel = TopicStrategy::LoadRelevance(context, /*require_topic=*/true);
  if (!rel.ok()) return rel.status();
  auto scorer = std::make_unique<RelevanceLinkScorer>(*rel);
  return ComposeTopicStrategy(std::make_shared<TopicStrategy>(
      "best-first", "best-first", *rel, std::move(scorer), context));
}

}  // namespace topicrawl
