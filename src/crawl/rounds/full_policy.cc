// `full`: the baseline of every incremental-crawl comparison -- fetch every
// known page again, each round (Cho & Garcia-Molina 2000 call it the
// "uniform" or batch crawler). Gone pages are not asked again (404/410 is
// final on the benchmark webs; they stay in the store with their history);
// URLs whose last fetch failed otherwise are retried. The round starts from
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
      if (u.first_round < 0 && u.last_state == UrlState::kNotFetched) return true;  // queued only
      if (u.gone()) return true;
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
