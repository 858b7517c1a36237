// BFS (strategy "bfs"): the unfocused baseline of every seed. Links are
// fetched in discovery order (FIFO across hosts, so depth by depth); pages
// still get R(P) when a topic is given, so harvest can be measured.
#include "strategies/baselines/baseline_strategies.h"
#include "strategies/baselines/topic_strategy.h"

namespace topicrawl {

StatusOr<Strategy> NewBfsStrategy(const StrategyContext& context) {
  auto rel = TopicStrategy::LoadRelevance(context, /*require_topic=*/false);
  if (!rel.ok()) return rel.status();
  return ComposeTopicStrategy(std::make_shared<TopicStrategy>("bfs", "bfs", *rel, nullptr, context));
}

}  // namespace topicrawl
