// `adaptive`: revisit the pages whose expected payoff is highest.
//
// Change rate: Cho & Garcia-Molina, "Estimating frequency of change" (ACM
// TOIT 3(3), 2003), section 4 -- for a page accessed n times at a regular
// interval I of which X accesses detected a change, the bias-reduced
// estimator of the change rate per interval is
//     r = -log((n - X + 0.5) / (n + 0.5))          (their eq. 9)
// Here an "access" is a revisit (the first fetch cannot detect a change),
// and I is the page's mean number of rounds between fetches, so the rate
// per round is lambda = r / I. Trivial changes (template edits, SimHash
// distance <= 3) do not count as changes.
//
// Value of revisiting page i in round K, last fetched in round k_i:
//     P_i = 1 - exp(-lambda_i * (K - k_i))    (Poisson: changed since then)
//     V_i = P_i * w_i,  w_i = kFloor + R_i    (R_i: relevance, 1 without topic)
//           * (1 + kHubBonus) when its last fetch yielded new URLs
// Pages without revisit history (n = 0: round 1, or newly found pages) get
// the prior rate kPriorRate per round. The budget keeps the highest V_i.
// The round starts from the original seeds (new pages linked from them).
#include <cmath>

#include "crawl/rounds/policies.h"

namespace topicrawl {
namespace {

constexpr double kPriorRate = 0.3;   // changes per round before any evidence
constexpr double kFloor = 0.1;       // an irrelevant page still has some value
constexpr double kHubBonus = 1.0;    // last fetch found new URLs

class AdaptiveRoundPolicy : public RoundPolicy {
 public:
  std::string_view Name() const override { return "adaptive"; }

  Status Plan(const RoundRequest& request, RoundHistory& history, RoundPlan* plan) override {
    int64_t with_history = 0;
    Status s = history.ForEachUrl([&](const KnownUrl& u) {
      if (u.first_round < 0 || u.gone()) return true;
      if (u.page_id == 0 && u.last_state != UrlState::kFailed) return true;
      const double v = Value(u, request.round);
      if (u.fetches > 1) ++with_history;
      plan->revisits.push_back({u.url_id, v});
      return true;
    });
    if (!s.ok()) return s;
    TruncateToBudget(&plan->revisits, request.budget);
    plan->seeds = history.OriginalSeeds();
    plan->note = "adaptive: " + std::to_string(plan->revisits.size()) + " revisits, " +
                 std::to_string(with_history) + " pages with change history";
    return Status::Ok();
  }

  // The estimator (public for tests through ChangeRate below).
  static double Value(const KnownUrl& u, int round) {
    const double n = u.fetches > 0 ? u.fetches - 1.0 : 0.0;  // revisits
    double lambda = kPriorRate;
    if (n > 0) {
      const double rate = ChangeRatePerAccess(n, u.changes);
      const double span = std::max(1, u.last_round - u.first_round);
      lambda = rate / (span / n);
    }
    const double elapsed = std::max(1, round - u.last_round);
    const double p = 1.0 - std::exp(-lambda * elapsed);
    double w = kFloor + u.relevance.value_or(1.0);
    if (u.new_links_last > 0) w *= 1.0 + kHubBonus;
    return p * w;
  }
};

}  // namespace

double ChangeRatePerAccess(double n, double x) {
  return -std::log((n - x + 0.5) / (n + 0.5));
}

double AdaptiveRevisitValue(const KnownUrl& url, int round) {
  return AdaptiveRoundPolicy::Value(url, round);
}

StatusOr<std::unique_ptr<RoundPolicy>> NewAdaptiveRoundPolicy(const RoundPolicyContext&) {
  return std::unique_ptr<RoundPolicy>(new AdaptiveRoundPolicy());
}

}  // namespace topicrawl
