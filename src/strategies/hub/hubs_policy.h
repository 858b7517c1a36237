// Seed 003's round policy `hubs` (hubs_policy.cc); the registry
// (strategies/round_registry.cc) lists it.
#ifndef TOPICRAWL_STRATEGIES_HUB_HUBS_POLICY_H_
#define TOPICRAWL_STRATEGIES_HUB_HUBS_POLICY_H_

#include <memory>

#include "crawl/rounds/round_policy.h"

namespace topicrawl {

StatusOr<std::unique_ptr<RoundPolicy>> NewHubsRoundPolicy(const RoundPolicyContext& context);

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_HUB_HUBS_POLICY_H_
