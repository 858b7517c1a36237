// Cost of one selection step of the sampling selectors (seed 000) on a
// synthetic frontier: N queued links over H hosts, scores uniform in [0, 1).
// One iteration = Frontier::Next() (the selector's Select: for wang-landau
// 1..5 Monte Carlo steps of regional competition + roulette + acceptance),
// Complete() and Add() of one fresh link, so the queue keeps its size and
// every selector pays for touching cold links as in a crawl. The target:
// wang-landau within 2x from 10^4 to 10^6 links.
//
//   build-bench/bench/wl_bench --benchmark_filter=Select
//
// Also: one warm-started PageRank update (3 sweeps) on a synthetic graph.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <random>
#include <string>

#include "core/clock.h"
#include "core/hash.h"
#include "frontier/frontier.h"
#include "graph/link_graph.h"
#include "graph/page_rank.h"
#include "strategies/baselines/annealing_link_selector.h"
#include "strategies/wang_landau/wang_landau_link_selector.h"

namespace topicrawl {
namespace {

std::unique_ptr<Frontier> Fill(std::unique_ptr<LinkSelector> selector,
                               int64_t links, int64_t hosts, Clock* clock) {
  FrontierOptions o;
  o.min_delay_s = 0;
  o.max_connections_per_host = 1 << 20;
  o.max_in_flight = 1 << 30;
  o.max_in_ram_total = static_cast<size_t>(links) + 16;
  o.max_in_ram_per_host = static_cast<size_t>(links) + 16;
  auto f = Frontier::Create(o, clock, std::move(selector));
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> score(0.0, 1.0);
  for (int64_t i = 0; i < links; ++i) {
    LinkCandidate c;
    c.url = "http://h" + std::to_string(i % hosts) + ".t/" + std::to_string(i);
    c.url_id = Hash64(c.url);
    c.score = score(rng);
    (*f)->Add(std::move(c));
  }
  return std::move(f).value();
}

void Select(benchmark::State& state, const std::string& name) {
  FakeClock clock;
  auto wl = std::make_shared<WangLandauState>(WangLandauOptions{});
  std::unique_ptr<LinkSelector> selector =
      name == "wang-landau" ? NewWangLandauLinkSelector(LinkSelectorOptions{}, wl)
      : name == "annealing" ? NewAnnealingLinkSelector(LinkSelectorOptions{})
                            : std::move(MakeLinkSelector(name)).value();
  const int64_t links = state.range(0), hosts = state.range(1);
  auto f = Fill(std::move(selector), links, hosts, &clock);
  // Steady state of a crawl: every page handed out is completed and one new
  // link (fresh URL, random host and score) arrives, so each step touches a
  // link that has not been touched before, whatever the selector.
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> score(0.0, 1.0);
  int64_t next = links;
  for (auto _ : state) {
    auto task = f->Next();
    benchmark::DoNotOptimize(task);
    f->Complete(*task, HostFeedback{});
    LinkCandidate c;
    c.url = "http://h" + std::to_string(next % hosts) + ".t/" + std::to_string(next);
    c.url_id = Hash64(c.url);
    c.score = score(rng);
    ++next;
    f->Add(std::move(c));
  }
  state.counters["queued"] = static_cast<double>(f->Queued());
  state.counters["hosts"] = static_cast<double>(state.range(1));
  if (name == "wang-landau") {
    state.counters["mc_steps/page"] =
        static_cast<double>(wl->stats.steps) / static_cast<double>(state.iterations());
  }
}

void BM_SelectWangLandau(benchmark::State& s) { Select(s, "wang-landau"); }
void BM_SelectRegionRoulette(benchmark::State& s) { Select(s, "region-roulette"); }
void BM_SelectAnnealing(benchmark::State& s) { Select(s, "annealing"); }
void BM_SelectBestFirst(benchmark::State& s) { Select(s, "best-first"); }

void Grid(benchmark::internal::Benchmark* b) {
  for (int64_t links : {10'000, 100'000, 1'000'000}) {
    for (int64_t hosts : {100, 1'000, 10'000}) b->Args({links, hosts});
  }
  b->Iterations(200'000)->Unit(benchmark::kNanosecond);
}
BENCHMARK(BM_SelectWangLandau)->Apply(Grid);
BENCHMARK(BM_SelectRegionRoulette)->Apply(Grid);
BENCHMARK(BM_SelectAnnealing)->Apply(Grid);
BENCHMARK(BM_SelectBestFirst)->Apply(Grid);

// The selector's own work, without the Frontier's bookkeeping: Select() on
// a static view of N links over H hosts (per-host score arrays in host
// order, aggregates precomputed), as the Frontier exposes them in O(1).
class StaticView : public SelectionView {
 public:
  StaticView(int64_t links, int64_t hosts) : scores_(hosts), stats_(hosts) {
    std::mt19937_64 rng(4);
    std::uniform_real_distribution<double> score(0.0, 1.0);
    for (int64_t i = 0; i < links; ++i) scores_[i % hosts].push_back(score(rng));
    for (int64_t h = 0; h < hosts; ++h) {
      auto& v = scores_[h];
      std::sort(v.begin(), v.end(), std::greater<>());
      HostStats& st = stats_[h];
      st.count = st.in_ram = v.size();
      for (double x : v) st.sum_score += x;
      st.max_score = v.empty() ? 0 : v[0];
      if (st.mean_score() > stats_[best_mean_].mean_score()) best_mean_ = h;
      if (!v.empty() && v[0] > scores_[best_][0]) best_ = h;
    }
  }
  size_t ReadyHosts() const override { return scores_.size(); }
  std::optional<LinkRef> GlobalBest() const override { return LinkRef{best_, 0}; }
  std::optional<HostId> BestMeanHost() const override { return best_mean_; }
  HostStats Stats(HostId h) const override { return stats_[h]; }
  LinkRef Top(HostId h) const override { return LinkRef{h, 0}; }
  LinkInfo At(LinkRef r) const override {
    LinkInfo info;
    info.score = info.priority = scores_[r.host][r.slot];
    return info;
  }

 private:
  std::vector<std::vector<double>> scores_;
  std::vector<HostStats> stats_;
  HostId best_ = 0, best_mean_ = 0;
};

void BM_WangLandauSelectOnly(benchmark::State& state) {
  StaticView view(state.range(0), state.range(1));
  auto wl = std::make_shared<WangLandauState>(WangLandauOptions{});
  auto selector = NewWangLandauLinkSelector(LinkSelectorOptions{}, wl);
  for (auto _ : state) benchmark::DoNotOptimize(selector->Select(view));
  state.counters["mc_steps/page"] =
      static_cast<double>(wl->stats.steps) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_WangLandauSelectOnly)->Apply(Grid);

// One PageRank update (3 warm Gauss-Seidel sweeps) on N nodes with 10
// random out-links each.
void BM_PageRankUpdate(benchmark::State& state) {
  const int64_t n = state.range(0);
  LinkGraph g;
  for (int64_t i = 0; i < n; ++i) g.AddNode(static_cast<UrlId>(i));
  std::mt19937_64 rng(2);
  std::uniform_int_distribution<NodeId> pick(0, static_cast<NodeId>(n - 1));
  std::vector<NodeId> out(10);
  for (int64_t i = 0; i < n; ++i) {
    for (auto& t : out) t = pick(rng);
    g.SetOutlinks(static_cast<NodeId>(i), out);
  }
  PageRank pr;
  for (auto _ : state) benchmark::DoNotOptimize(pr.Update(g));
  state.counters["edges"] = static_cast<double>(g.EdgeCount());
}
BENCHMARK(BM_PageRankUpdate)->Arg(10'000)->Arg(100'000)->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace topicrawl

BENCHMARK_MAIN();
