// `adaptive`: revisit the pages whose expected payoff is highest.
//
// Change rate: Cho & Garcia-Molina, "Estimating frequency of change" (ACM
// TOIT 3(3), 2003), section 4 -- for a page accessed n times at a regular
// interval I of which X accesses detected a change, the bias-reduced
// estimator of the change rate per interval is
//     r = -log((n - X + 0.5) / (n + 0.5))          (their eq. 9)
// Here an "access" is a revisit (the first fetch cannot detect a change),
// and I is the page's mean number of rounds between fetches, so the rate
// per round is r / I. A change is any new content, trivial ones included:
// a page whose only edit is a restored link (a hub of new pages: same text,
// new href) is exactly the page a recrawl must see again.
//
// The estimator says r = 0 after one unchanged revisit (n = 1, X = 0), which
// would never revisit the page again; it is therefore blended with a prior
// rate as kPriorWeight pseudo-observations:
//     lambda_i = (kPriorWeight * prior_i + n * r / I) / (kPriorWeight + n)
// Pages without revisit history (n = 0: round 1, or newly found pages) get
// the prior rate. The prior is per page:
//     prior_i = kPriorRate + rho * d_i
// kPriorRate for edits of the page's own text, plus the rate at which it
// gains a link to a page new in the round: a new page is linked from pages
// that link to many pages more often than from leaves, so with rho = the
// share of the known pages that were new last round (kPriorNewShare before
// any round gave evidence) and d_i the page's outlinks, rho * d_i is the
// expected number of new pages it links to per round. Most changes a
// recrawl must see are such link gains (the hubs of new pages), and a page
// with no revisit history has nothing else to go by.
//
// Value of revisiting page i in round K, last fetched in round k_i:
//     P_i = 1 - exp(-lambda_i * (K - k_i))    (Poisson: changed since then)
//     V_i = P_i * w_i,  w_i = 1 + R_i         (R_i: relevance, 1 without topic)
//           * (1 + kHubBonus) when its last fetch yielded new URLs
// The relevance weight at most doubles a value: the change probability
// decides, relevance breaks near-ties. The budget keeps the highest V_i.
// The round starts from the original seeds (new pages linked from them).
#include <cmath>

#include "crawl/rounds/policies.h"

namespace topicrawl {
namespace {

constexpr double kPriorRate = 0.3;    // changes per round before any evidence
constexpr double kPriorWeight = 1.0;  // ... worth this many revisits
constexpr double kHubBonus = 1.0;     // last fetch found new URLs
constexpr double kPriorNewShare = 0.01;  // new pages per known page and round, before evidence

class AdaptiveRoundPolicy : public RoundPolicy {
 public:
  std::string_view Name() const override { return "adaptive"; }

  Status Plan(const RoundRequest& request, RoundHistory& history, RoundPlan* plan) override {
    int64_t known = 0;
    Status s = history.ForEachUrl([&](const KnownUrl& u) {
      known += u.page_id != 0 && !u.gone();
      return true;
    });
    if (!s.ok()) return s;
    const RoundSummary& last = history.LastRoundSummary();
    const double rho = last.round >= 1 && known > 0
                           ? static_cast<double>(last.new_pages) / static_cast<double>(known)
                           : kPriorNewShare;
    int64_t with_history = 0;
    s = history.ForEachUrl([&](const KnownUrl& u) {
      if (u.page_id == 0 || u.gone()) return true;  // no stored version
      const double v = Value(u, request.round, rho);
      if (u.fetches > 1) ++with_history;
      plan->revisits.push_back({u.url_id, v});
      return true;
    });
    if (!s.ok()) return s;
    TruncateToBudget(&plan->revisits, request.budget);
    plan->seeds = history.OriginalSeeds();
    plan->note = "adaptive: " + std::to_string(plan->revisits.size()) + " revisits, " +
                 std::to_string(with_history) + " pages with change history, link-gain rate " +
                 std::to_string(rho) + " per outlink";
    return Status::Ok();
  }

  // The estimator (public for tests through ChangeRate below).
  static double Value(const KnownUrl& u, int round, double rho) {
    const double n = u.fetches > 0 ? u.fetches - 1.0 : 0.0;  // revisits
    const double prior = kPriorRate + rho * u.out_links;
    double lambda = prior;
    if (n > 0) {
      const double x = std::min<double>(n, u.changes + u.trivial_changes);
      const double rate = ChangeRatePerAccess(n, x);
      const double span = std::max(1, u.last_round - u.first_round);
      lambda = (kPriorWeight * prior + n * rate / (span / n)) / (kPriorWeight + n);
    }
    const double elapsed = std::max(1, round - u.last_round);
    const double p = 1.0 - std::exp(-lambda * elapsed);
    double w = 1.0 + u.relevance.value_or(1.0);
    if (u.new_links_last > 0) w *= 1.0 + kHubBonus;
    return p * w;
  }
};

}  // namespace

double ChangeRatePerAccess(double n, double x) {
  return -std::log((n - x + 0.5) / (n + 0.5));
}

double AdaptiveRevisitValue(const KnownUrl& url, int round, double rho) {
  return AdaptiveRoundPolicy::Value(url, round, rho);
}

StatusOr<std::unique_ptr<RoundPolicy>> NewAdaptiveRoundPolicy(const RoundPolicyContext&) {
  return std::unique_ptr<RoundPolicy>(new AdaptiveRoundPolicy());
}

}  // namespace topicrawl
