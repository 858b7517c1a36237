// TopicHub (seed 002 §3.1) over a synthetic crawl graph of 10^6 pages:
// 1,000 sites x 1,000 pages, 10 out-links a page (8 inside the site, 2 to
// other sites; 10^7 links), 30 % of the pages relevant, half of them fresh.
// Target (issue 14): < 30 s and < 1 GiB for the whole run.
//
//   build/bench/topic_hub_bench --benchmark_counters_tabular=true
//
// Counters: cpu seconds of one RunTopicHub, thub pages, and the process's
// peak RSS (getrusage; includes the input graph, ~0.1 GiB of it).
#include <sys/resource.h>

#include <benchmark/benchmark.h>

#include <random>

#include "graph/topic_hub.h"

namespace topicrawl {
namespace {

TopicHubInput MakeInput(uint32_t sites, uint32_t pages_per_site) {
  std::mt19937_64 rng(2026);
  TopicHubInput in;
  in.site_count = sites;
  const uint32_t n = sites * pages_per_site;
  in.pages.resize(n);
  for (uint32_t p = 0; p < n; ++p) {
    TopicHubPage& page = in.pages[p];
    page.site = p / pages_per_site;
    page.crawled = true;
    page.relevant = rng() % 10 < 3;
    page.sim = page.relevant ? 0.5f + (rng() % 500) / 1000.0f : (rng() % 300) / 1000.0f;
    page.fresh = rng() % 2 == 0;
  }
  std::vector<uint32_t> offsets(n + 1);
  std::vector<uint32_t> targets;
  targets.reserve(size_t{n} * 10);
  for (uint32_t p = 0; p < n; ++p) {
    const uint32_t base = in.pages[p].site * pages_per_site;
    for (int k = 0; k < 8; ++k) targets.push_back(base + rng() % pages_per_site);
    for (int k = 0; k < 2; ++k) targets.push_back(rng() % n);
    offsets[p + 1] = targets.size();
  }
  in.links = CsrGraph::FromCsr(std::move(offsets), std::move(targets));
  return in;
}

void BM_TopicHubMillionPages(benchmark::State& state) {
  const TopicHubInput in = MakeInput(1000, 1000);
  TopicHubOptions options;
  options.seeds = 100;
  size_t thubs = 0;
  for (auto _ : state) {
    TopicHubResult r = RunTopicHub(in, options);
    thubs = r.thub_pages;
    benchmark::DoNotOptimize(r.seeds.data());
  }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  state.counters["pages"] = static_cast<double>(in.pages.size());
  state.counters["links"] = static_cast<double>(in.links.EdgeCount());
  state.counters["thub_pages"] = static_cast<double>(thubs);
  state.counters["peak_rss_MiB"] = ru.ru_maxrss / 1024.0;
}
BENCHMARK(BM_TopicHubMillionPages)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace
}  // namespace topicrawl

BENCHMARK_MAIN();
