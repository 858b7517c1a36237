// Simulated-annealing crawler (strategy "annealing"): the SA baseline of
// seed 000 (ref. [28], He, Cheng, Cai 2009) and, with host memory, its
// FCSA-host baseline (ref. [16], Liu, Li, Jiang 2019: "comprehensive
// priority and host information").
//
//   * R(P), R(l): as best-first / Wang-Landau (seed 000 eq. 3-5);
//   * host memory (our reconstruction of FCSA-host; the seed gives no
//     formula): the score of a link l to host h is
//         s(l) = (1 - w) R(l) + w M(h),
//     M(h) = mean R(P) of the pages fetched from h so far (M(h) = R(l) while
//     none is: no memory, no bonus). w = host_weight, default 0.3; w = 0 is
//     plain SA. Scores are fixed when a link is queued;
//   * selection: the "annealing" LinkSelector: a neighbour from the winning
//     region replaces the global best with probability exp(-delta / T),
//     T = max(T0 rate^k, T_min) (strategies/baselines/annealing_link_selector.cc);
//   * every link is admitted (as best-first).
//
// Parameters: [strategy.annealing] t0 = 0.2, rate = 0.9998, t_min = 0.001,
// host_weight = 0.3 (unknown keys are errors). Finish() writes
// annealing_stats.tsv (steps, worse links taken, final temperature).
//
// Saved state (section "annealing" v1, after TopicStrategy's "topic"): the
// selection counters (the temperature is T(steps)), the RNG, and the host
// memory sorted by host.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <sstream>
#include <mutex>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "scoring/relevance_link_scorer.h"
#include "strategies/baselines/annealing_link_selector.h"
#include "strategies/baselines/baseline_strategies.h"
#include "strategies/baselines/topic_strategy.h"
#include "text/topic.h"
#include "url/url.h"

namespace topicrawl {
namespace {

struct SaParams {
  AnnealingOptions anneal;
  double host_weight = 0.3;
};

StatusOr<SaParams> ReadParams(const StrategyParams& p) {
  auto unknown = p.UnknownKeys({"t0", "rate", "t_min", "host_weight"});
  if (!unknown.empty()) {
    return Status::Error("[strategy.annealing]: unknown key '" + unknown[0] + "'");
  }
  SaParams s;
  auto t0 = p.Number("t0", s.anneal.t0);
  auto rate = p.Number("rate", s.anneal.rate);
  auto t_min = p.Number("t_min", s.anneal.t_min);
  auto w = p.Number("host_weight", s.host_weight);
  for (const auto* v : {&t0, &rate, &t_min, &w}) {
    if (!v->ok()) return v->status();
  }
  s.anneal = {*t0, *rate, *t_min};
  s.host_weight = *w;
  if (Status st = s.anneal.Validate(); !st.ok()) return st;
  if (!(s.host_weight >= 0 && s.host_weight <= 1)) {
    return Status::Error("annealing: host_weight must be in [0, 1]");
  }
  return s;
}

class AnnealingStrategy : public TopicStrategy {
 public:
  AnnealingStrategy(std::shared_ptr<TopicRelevance> rel, SaParams params,
                    const StrategyContext& context)
      : TopicStrategy("annealing", "annealing", rel,
                      std::make_unique<RelevanceLinkScorer>(rel), context),
        params_(params),
        state_(std::make_shared<AnnealingState>(params.anneal, context.rng_seed)) {}

  StatusOr<std::unique_ptr<LinkSelector>> MakeSelector() override {
    LinkSelectorOptions so;
    so.seed = rng_seed();
    return NewAnnealingLinkSelector(so, state_);
  }

  void Assess(const CrawlTask& task, const ParsedPage& page,
              PageAssessment* out) override {
    TopicStrategy::Assess(task, page, out);
    const double w = params_.host_weight;
    if (w == 0) return;
    std::lock_guard<std::mutex> lock(mu_);
    for (size_t i = 0; i < out->links.size(); ++i) {
      PageAssessment::Link& link = out->links[i];
      auto it = hosts_.find(UrlHostPort(page.links[i].url));
      if (it == hosts_.end() || it->second.pages == 0) continue;
      const double memory = it->second.sum_relevance / it->second.pages;
      link.score = (1 - w) * link.score + w * memory;
      if (!link.explanation.empty() && link.explanation.back() == '}') {
        char buf[48];
        std::snprintf(buf, sizeof buf, ",\"host_memory\":%.4f}", memory);
        link.explanation.pop_back();
        link.explanation += buf;
      }
    }
  }

  void OnPageStored(const CrawlTask& task, PageId /*id*/, const ParsedPage& /*page*/,
                    const PageAssessment& assessment, Frontier* /*frontier*/) override {
    std::lock_guard<std::mutex> lock(mu_);
    HostMemory& h = hosts_[UrlHostPort(task.url)];
    h.sum_relevance += assessment.relevance;
    ++h.pages;
  }

  Status Finish() override {
    Status df = TopicStrategy::Finish();
    if (out_dir().empty()) return df;
    const std::string path = out_dir() + "/annealing_stats.tsv";
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f) return Status::Error("cannot write " + path);
    const AnnealingStats& s = state_->stats;
    std::fprintf(f,
                 "key\tvalue\nsteps\t%lld\nequal_or_better\t%lld\nworse_accepted\t%lld\n"
                 "best_taken\t%lld\nfinal_temperature\t%.6g\nhost_weight\t%.3f\n",
                 static_cast<long long>(s.steps), static_cast<long long>(s.equal_or_better),
                 static_cast<long long>(s.worse_accepted),
                 static_cast<long long>(s.best_taken),
                 state_->options.Temperature(s.steps), params_.host_weight);
    if (std::fclose(f) != 0) return Status::Error("cannot write " + path);
    return df;
  }

 protected:
  void SaveMore(StateWriter* w) const override {
    w->Section("annealing", 1);
    const AnnealingStats& s = state_->stats;
    w->I64(s.steps);
    w->I64(s.equal_or_better);
    w->I64(s.worse_accepted);
    w->I64(s.best_taken);
    std::ostringstream rng;
    rng << state_->rng;
    w->Str(rng.str());
    std::vector<std::pair<std::string, HostMemory>> hosts;
    {
      std::lock_guard<std::mutex> lock(mu_);
      hosts.assign(hosts_.begin(), hosts_.end());
    }
    std::sort(hosts.begin(), hosts.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    w->U64(hosts.size());
    for (const auto& [host, m] : hosts) {
      w->Str(host);
      w->F64(m.sum_relevance);
      w->I64(m.pages);
    }
  }

  Status RestoreMore(StateReader* r) override {
    uint32_t version;
    if (Status s = r->Section("annealing", 1, &version); !s.ok()) return s;
    AnnealingStats st;
    std::string rng_text;
    uint64_t n = 0;
    if (!r->I64(&st.steps, "steps") || !r->I64(&st.equal_or_better, "equal_or_better") ||
        !r->I64(&st.worse_accepted, "worse_accepted") ||
        !r->I64(&st.best_taken, "best_taken") || !r->Str(&rng_text, "rng") ||
        !r->Count(&n, 24, "hosts")) {
      return r->status();
    }
    std::mt19937_64 rng;
    std::istringstream in(rng_text);
    in >> rng;
    if (!in || st.steps < 0) return Status::Error("annealing: bad RNG state or step count");
    absl::flat_hash_map<std::string, HostMemory> hosts;
    for (uint64_t i = 0; i < n; ++i) {
      std::string host;
      HostMemory m;
      if (!r->Str(&host, "host") || !r->F64(&m.sum_relevance, "host relevance") ||
          !r->I64(&m.pages, "host pages")) {
        return r->status();
      }
      hosts[host] = m;
    }
    state_->stats = st;
    state_->rng = rng;
    std::lock_guard<std::mutex> lock(mu_);
    hosts_ = std::move(hosts);
    return Status::Ok();
  }

 private:
  struct HostMemory {
    double sum_relevance = 0;
    int64_t pages = 0;
  };
  SaParams params_;
  std::shared_ptr<AnnealingState> state_;
  mutable std::mutex mu_;  // guards hosts_ (Assess runs on the parse pool)
  absl::flat_hash_map<std::string, HostMemory> hosts_;
};

}  // namespace

StatusOr<Strategy> NewAnnealingStrategy(
    const StrategyContext& context) {
  auto rel = TopicStrategy::LoadRelevance(context, /*require_topic=*/true);
  if (!rel.ok()) return rel.status();
  auto params = ReadParams((*rel)->topic().Strategy("annealing"));
  if (!params.ok()) return params.status();
  return ComposeTopicStrategy(std::make_shared<AnnealingStrategy>(*rel, *params, context));
}

}  // namespace topicrawl
