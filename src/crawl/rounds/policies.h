// Constructors of the generic round policies, one .cc each; the registry
// (strategies/round_registry.cc) lists them by name with the policies of
// the strategy families.
#ifndef TOPICRAWL_CRAWL_ROUNDS_POLICIES_H_
#define TOPICRAWL_CRAWL_ROUNDS_POLICIES_H_

#include <memory>

#include "crawl/rounds/round_policy.h"

namespace topicrawl {

StatusOr<std::unique_ptr<RoundPolicy>> NewFullRoundPolicy(const RoundPolicyContext& context);
StatusOr<std::unique_ptr<RoundPolicy>> NewAdaptiveRoundPolicy(const RoundPolicyContext& context);
StatusOr<std::unique_ptr<RoundPolicy>> NewNutchRoundPolicy(const RoundPolicyContext& context);

// adaptive_policy.cc, exposed for tests: Cho & Garcia-Molina's estimator of
// the change rate per access, r = -log((n - X + 0.5) / (n + 0.5)), and the
// revisit value of a URL in `round`.
double ChangeRatePerAccess(double n, double x);
// prior: the prior change rate per round of the URL's group (see
// adaptive_policy.cc).
double AdaptiveRevisitValue(const KnownUrl& url, int round, double prior);

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_ROUNDS_POLICIES_H_
