// Cost of one selection step of the sampling selectors (seed 000) on a
// synthetic frontier: N queued links over H hosts, scores uniform in [0, 1).
// One iteration = Frontier::Next() (the selector's Select: for wang-landau
// 1..5 Monte Carlo steps of regional competition + roulette + acceptance)
// followed by Requeue() of the task, so the queue keeps its size. The
// target: wang-landau within 2x from 10^4 to 10^6 links.
//
//   build-bench/bench/wl_bench --benchmark_filter=Select
//
// Also: one warm-started PageRank update (3 sweeps) on a synthetic graph.
#include <benchmark/benchmark.h>

#include <memory>
#include <random>
#include <string>

#include "core/clock.h"
#include "core/hash.h"
#include "frontier/frontier.h"
#include "graph/link_graph.h"
#include "graph/page_rank.h"

namespace topicrawl {
namespace {

std::unique_ptr<Frontier> Fill(const std::string& selector, int64_t links,
                               int64_t hosts, Clock* clock) {
  FrontierOptions o;
  o.min_delay_s = 0;
  o.max_connections_per_host = 1 << 20;
  o.max_in_flight = 1 << 30;
  o.max_in_ram_total = static_cast<size_t>(links) + 16;
  o.max_in_ram_per_host = static_cast<size_t>(links) + 16;
  auto f = Frontier::Create(o, clock, std::move(MakeLinkSelector(selector)).value());
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

void Select(benchmark::State& state, const std::string& selector) {
  FakeClock clock;
  auto f = Fill(selector, state.range(0), state.range(1), &clock);
  for (auto _ : state) {
    auto task = f->Next();
    benchmark::DoNotOptimize(task);
    f->Requeue(std::move(*task));
  }
  state.counters["queued"] = static_cast<double>(f->Queued());
  state.counters["hosts"] = static_cast<double>(state.range(1));
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
