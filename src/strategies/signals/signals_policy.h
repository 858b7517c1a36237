// Issue 34's round policy `signals` (signals_policy.cc): revisits what the
// sites announce (trusted sitemap lastmods, announced new URLs) before the
// adaptive estimator; the registry (strategies/round_registry.cc) lists it.
#ifndef TOPICRAWL_STRATEGIES_SIGNALS_SIGNALS_POLICY_H_
#define TOPICRAWL_STRATEGIES_SIGNALS_SIGNALS_POLICY_H_

#include <memory>

#include "crawl/rounds/round_policy.h"

namespace topicrawl {

StatusOr<std::unique_ptr<RoundPolicy>> NewSignalsRoundPolicy(const RoundPolicyContext& context);

}  // namespace topicrawl

#endif  // TOPICRAWL_STRATEGIES_SIGNALS_SIGNALS_POLICY_H_
