// `static`: seed 002's static-seed baseline (002_dc7a58c43ca85137 §5,
// "静态源URL爬虫"): every round starts again from the crawl's original seeds
// with the same budget. In this engine a round's known pages are fetched
// again only when planned, so "start from the seeds" is planned as: the
// seeds, then every known page in breadth-first order from them (priority
// 1 / (1 + hops), ties by relevance), cut at the round's budget; new links
// found on the way are followed as in round 0. `topichub` plans the same way
// from its THub seeds, so the two differ only in where they start.
#include "crawl/rounds/round_graph.h"
#include "strategies/tda/tda_round_policies.h"

namespace topicrawl {
namespace {

class StaticRoundPolicy : public RoundPolicy {
 public:
  std::string_view Name() const override { return "static"; }
  Status Plan(const RoundRequest& request, RoundHistory& history, RoundPlan* plan) override {
    auto g = RoundGraph::Read(history);
    if (!g.ok()) return g.status();
    std::vector<double> tie;
    for (const TopicHubPage& p : g->hub.pages) tie.push_back(p.sim);
    plan->revisits = RevisitsByDistance(*g, g->Find(history.OriginalSeeds()), tie);
    TruncateToBudget(&plan->revisits, request.budget);
    plan->seeds = history.OriginalSeeds();
    plan->follow_new_links = true;
    plan->note = "static: " + std::to_string(plan->seeds.size()) + " original seeds, " +
                 std::to_string(plan->revisits.size()) + " revisits";
    return Status::Ok();
  }
};

}  // namespace

StatusOr<std::unique_ptr<RoundPolicy>> NewStaticRoundPolicy(const RoundPolicyContext&) {
  return std::unique_ptr<RoundPolicy>(new StaticRoundPolicy());
}

}  // namespace topicrawl
