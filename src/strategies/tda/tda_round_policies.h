// Seed 002's round policies `topichub` (topichub_policy.cc) and `static`
// (static_policy.cc); the registry (strategies/round_registry.cc) lists them.
#ifndef TOPICRAWL_STRATEGIES_TDA_TDA_ROUND_POLICIES_H_
#define TOPICRAWL_STRATEGIES_TDA_TDA_ROUND_POLICIES_H_

#include <memory>

#include "crawl/rounds/round_policy.h"

namespace topicrawl {

StatusOr<std::unique_ptr<RoundPolicy>> NewStaticRoundPolicy(const RoundPolicyContext& context);
StatusOr<std::unique_ptr<RoundPolicy>> NewTopicHubRoundPolicy(const RoundPolicyContext& context);

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_TDA_TDA_ROUND_POLICIES_H_
