// Shark-search (strategy "shark-search"; Hersovici et al. 1998): best-first
// on a potential score that mixes an inherited score (decayed by delta along
// paths of irrelevant pages) with anchor and anchor-context similarity. The
// inherited score and remaining depth of a queued link travel in the
// strategy's carry map (keyed by the link's dedup id) until the link's page
// is assessed. Parameters: the topic's [strategy.shark-search] table
// (strategies/baselines/shark_search_link_scorer.h documents them).
#include "strategies/baselines/baseline_strategies.h"
#include "strategies/baselines/shark_search_link_scorer.h"
#include "strategies/baselines/topic_strategy.h"

namespace topicrawl {
namespace {

class SharkSearchStrategy : public TopicStrategy {
 public:
  SharkSearchStrategy(std::shared_ptr<TopicRelevance> rel,
                      std::unique_ptr<SharkSearchLinkScorer> scorer,
                      const StrategyContext& context)
      : TopicStrategy("shark-search", "best-first", rel, nullptr, context) {
    EnableCarry(scorer->SeedCarry());
    SetLinkScorer(std::move(scorer));
  }
};

}  // namespace

StatusOr<Strategy> NewSharkSearchStrategy(
    const StrategyContext& context) {
  auto rel = TopicStrategy::LoadRelevance(context, /*require_topic=*/true);
  if (!rel.ok()) return rel.status();
  auto scorer = SharkSearchLinkScorer::Create(*rel);
  if (!scorer.ok()) return scorer.status();
  return ComposeTopicStrategy(std::make_shared<SharkSearchStrategy>(*rel, std::move(scorer).value(), context));
}

}  // namespace topicrawl
