// `full`: the baseline of every incremental-crawl comparison -- fetch every
// known page again, each round (Cho & Garcia-Molina 2000 call it the
// "uniform" or batch crawler). Every URL with a stored version is fetched;
// gone pages are not asked again (404/410 is final on the benchmark webs;
// they stay in the store with their history), nor URLs that never gave a
// version (robots denials, external hosts, errors). A stored page whose last
// revisit failed transiently is retried. The round starts from
// the original seeds, so pages newly linked from them are found.
//
// Priority: the page's relevance (1 when it has none), so that a budget
// keeps the most relevant pages.
#include "crawl/rounds/policies.h"

namespace topicrawl {
namespace {

class FullRoundPolicy : public RoundPolicy {
 public:
  std::string_view Name() const override { return "full"; }

  Status Plan(const RoundRequest& request, RoundHistory& history, RoundPlan* plan) override {
    Status s = history.ForEachUrl([&](const KnownUrl& u) {
      // Pages with a stored version only: URLs that never gave one (robots
      // denials, external hosts, errors) are not what a recrawl refreshes.
      if (u.page_id == 0 || u.gone()) return true;
      plan->revisits.push_back({u.url_id, u.relevance.value_or(1.0)});
      return true;
    });
    if (!s.ok()) return s;
    TruncateToBudget(&plan->revisits, request.budget);
    plan->seeds = history.OriginalSeeds();
    plan->note = "full: " + std::to_string(plan->revisits.size()) + " revisits";
    return Status::Ok();
  }
};

}  // namespace

StatusOr<std::unique_ptr<RoundPolicy>> NewFullRoundPolicy(const RoundPolicyContext&) {
  return std::unique_ptr<RoundPolicy>(new FullRoundPolicy());
}

}  // namespace topicrawl
