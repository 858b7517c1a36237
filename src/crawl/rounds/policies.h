// Constructors of the shipped round policies, one .cc each; the registry
// (crawl/rounds/round_registry.cc) lists them by name.
#ifndef TOPICRAWL_CRAWL_ROUNDS_POLICIES_H_
#define TOPICRAWL_CRAWL_ROUNDS_POLICIES_H_

#include <memory>

#include "crawl/rounds/round_policy.h"

namespace topicrawl {

StatusOr<std::unique_ptr<RoundPolicy>> NewFullRoundPolicy(const RoundPolicyContext& context);
StatusOr<std::unique_ptr<RoundPolicy>> NewStaticRoundPolicy(const RoundPolicyContext& context);
StatusOr<std::unique_ptr<RoundPolicy>> NewTopicHubRoundPolicy(const RoundPolicyContext& context);

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_ROUNDS_POLICIES_H_
