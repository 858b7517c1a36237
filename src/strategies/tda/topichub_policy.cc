// `topichub`: seed 002's TopicHub seed re-selection between rounds
// (002_dc7a58c43ca85137 §3.1, graph/topic_hub.h). Before each round:
//   1. the store's URLs and links become the crawl graph (crawl/rounds/
//      round_graph.h): Sim(p) = the page's relevance, relevant when >= the
//      topic's beta, fresh when first fetched in the round just finished
//      (hub_fresh = "first-fetch", the default: ~93-95 % of those pages are
//      old pages a round reaches for the first time on the evolved dev web,
//      so eq. 2's Sfreq mostly measures exploration; "new" counts only the
//      pages new to the web, closer to the seed's update frequency, but
//      found fewer new relevant pages in the 5-seed rounds: docs/strategies/tda.md),
//      sites = hosts; T = days between the last two rounds (4 h when the
//      store does not know);
//   2. RunTopicHub: Sfreq (eq. 2), SiteRank/TSI (eq. 1, 3), per site the
//      THub pages (eq. 4-6, Algorithm 1), global weight (eq. 7), top N;
//   3. the round's seeds are those N THub pages (N = seeds_per_round of
//      [strategy.tda], default 50). The revisit budget is shared out by
//      their eq.-7 weight (hub_budget = "weight", the default): each seed
//      gets budget x w_i / sum w and spends it breadth-first inside its own
//      site (RevisitsBySeedWeight). Reason: with one breadth-first order
//      from all seeds at once (hub_budget = "breadth", the first version,
//      the way `static` plans from the original seeds) a site's share of the
//      budget followed its seed's out-degree, not its weight -- on the
//      evolved dev web erlang's man_index.html (TSI 0.005-0.019, hundreds of
//      links one hop away) took 4,414 of ~16,000 fetches while qt (TSI
//      0.11-0.44, half the new relevant pages) got 814 (docs/strategies/tda.md). New
//      links are followed in both.
// The seeds and their weights of every round are appended to
// OUT/topichub-seeds.tsv (round, rank, weight, TSI, I(p), url).
#include <cstdio>
#include <fstream>

#include "crawl/rounds/round_graph.h"
#include "strategies/tda/tda_round_policies.h"
#include "text/topic.h"

namespace topicrawl {
namespace {

class TopicHubRoundPolicy : public RoundPolicy {
 public:
  TopicHubRoundPolicy(TopicHubOptions options, bool by_weight, RoundGraph::Fresh fresh,
                      std::string out_dir)
      : options_(options), by_weight_(by_weight), fresh_(fresh), out_dir_(std::move(out_dir)) {}
  std::string_view Name() const override { return "topichub"; }

  Status Plan(const RoundRequest& request, RoundHistory& history, RoundPlan* plan) override {
    auto g = RoundGraph::Read(history, fresh_);
    if (!g.ok()) return g.status();
    TopicHubOptions o = options_;
    const double days = history.LastRoundSummary().days_since_previous;
    if (days > 0) o.days_between_rounds = days;
    TopicHubResult r = RunTopicHub(g->hub, o);
    std::vector<uint32_t> seeds;
    for (const ThubPage& t : r.seeds) {
      seeds.push_back(t.page);
      plan->seeds.push_back(g->url[t.page]);
    }
    if (seeds.empty()) {  // nothing relevant yet: fall back to the original seeds
      plan->seeds = history.OriginalSeeds();
      seeds = g->Find(plan->seeds);
    }
    if (by_weight_ && !r.seeds.empty()) {
      std::vector<double> w;
      for (const ThubPage& t : r.seeds) w.push_back(t.weight);
      plan->revisits = RevisitsBySeedWeight(*g, seeds, w, request.budget);
    } else {
      std::vector<double> tie(g->url.size(), 0);
      for (const ThubPage& t : r.seeds) tie[t.page] = std::min(0.999, t.weight);
      plan->revisits = RevisitsByDistance(*g, seeds, tie);
      TruncateToBudget(&plan->revisits, request.budget);
    }
    plan->follow_new_links = true;
    plan->note = std::string(by_weight_ ? "topichub (budget by weight): " : "topichub: ") + std::to_string(r.seeds.size()) + " THub seeds of " +
                 std::to_string(r.thub_pages) + " over " + std::to_string(g->sites.size()) +
                 " sites, " + std::to_string(plan->revisits.size()) + " revisits";
    WriteSeeds(request.round, r, *g);
    return Status::Ok();
  }

 private:
  void WriteSeeds(int round, const TopicHubResult& r, const RoundGraph& g) const {
    if (out_dir_.empty()) return;
    std::ofstream out(out_dir_ + "/topichub-seeds.tsv", std::ios::app);
    for (size_t i = 0; i < r.seeds.size(); ++i) {
      const ThubPage& t = r.seeds[i];
      out << round << '\t' << i + 1 << '\t' << t.weight << '\t' << t.site_weight << '\t'
          << t.page_weight << '\t' << g.url[t.page] << '\n';
    }
  }

  TopicHubOptions options_;
  bool by_weight_ = true;
  RoundGraph::Fresh fresh_ = RoundGraph::Fresh::kFirstFetched;
  std::string out_dir_;
};

}  // namespace

StatusOr<std::unique_ptr<RoundPolicy>> NewTopicHubRoundPolicy(const RoundPolicyContext& context) {
  TopicHubOptions options;
  bool by_weight = true;
  RoundGraph::Fresh fresh = RoundGraph::Fresh::kFirstFetched;
  if (!context.topic_file.empty()) {
    auto topic = LoadTopicFile(context.topic_file);
    if (!topic.ok()) return topic.status();
    const StrategyParams& p = topic->Strategy("tda");
    auto n = p.Integer("seeds_per_round", static_cast<int64_t>(options.seeds));
    auto a = p.Number("hub_alpha", options.freq_alpha);
    auto ia = p.Number("hub_a", options.importance_a);
    auto b = p.Number("hub_beta", options.cap_beta);
    auto budget = p.String("hub_budget", "weight");
    auto fresh_text = p.String("hub_fresh", "first-fetch");
    for (const Status& s : {n.status(), a.status(), ia.status(), b.status(), budget.status(),
                            fresh_text.status()}) {
      if (!s.ok()) return s;
    }
    if (*budget != "weight" && *budget != "breadth") {
      return Status::Error("[strategy.tda] hub_budget must be \"weight\" or \"breadth\", not \"" +
                           *budget + "\"");
    }
    by_weight = *budget == "weight";
    if (*fresh_text != "new" && *fresh_text != "first-fetch") {
      return Status::Error("[strategy.tda] hub_fresh must be \"new\" or \"first-fetch\", not \"" +
                           *fresh_text + "\"");
    }
    fresh = *fresh_text == "new" ? RoundGraph::Fresh::kNewToWeb : RoundGraph::Fresh::kFirstFetched;
    if (*n < 1) return Status::Error("[strategy.tda] seeds_per_round must be >= 1");
    options.seeds = static_cast<size_t>(*n);
    options.freq_alpha = *a;
    options.importance_a = *ia;
    options.cap_beta = *b;
  }
  return std::unique_ptr<RoundPolicy>(new TopicHubRoundPolicy(options, by_weight, fresh, context.out_dir));
}

}  // namespace topicrawl
