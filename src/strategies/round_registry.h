// The explicit list of round policies: the generic ones (crawl/rounds/) and
// those of the strategy families (strategies/<family>/). Adding a policy =
// one .cc, one line in round_registry.cc, one CMake line, one test.
#ifndef TOPICRAWL_STRATEGIES_ROUND_REGISTRY_H_
#define TOPICRAWL_STRATEGIES_ROUND_REGISTRY_H_

#include <memory>
#include <string>
#include <vector>

#include "crawl/rounds/round_policy.h"

namespace topicrawl {

// The round policy called `name`; an unknown name is an error that lists
// the known ones. Matches crawl/rounds/round_policy.h's RoundPolicyFactory.
StatusOr<std::unique_ptr<RoundPolicy>> MakeRoundPolicy(const std::string& name,
                                                       const RoundPolicyContext& context);
// The registered names, in registry order.
std::vector<std::string> RoundPolicyNames();

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_ROUND_REGISTRY_H_
