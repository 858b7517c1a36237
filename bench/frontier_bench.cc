// Frontier hot paths (Google Benchmark).
//
//   BM_AddThenNext/<links>/<hosts>   Add + Next + Complete throughput
//   BM_RegionRouletteStep/<queued>/<hosts>
//                                    one Next() of region-roulette at a
//                                    constant queue (untimed Requeue);
//                                    must stay within 2x from 1e4 to 1e6
//   BM_BestFirstStep/<queued>/<hosts> the same for best-first
//   BM_SeenSetInsert/<n>             seen-set inserts; bytes_per_url counter
//   BM_SpillScale/<links>            Add <links> over 10^4 hosts with spilling
//                                    (1e6 in RAM) then drain; reports peak RSS
//                                    (run with --benchmark_filter=SpillScale)
#include <benchmark/benchmark.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/hash.h"
#include "frontier/frontier.h"
#include "frontier/seen_set.h"

namespace topicrawl {
namespace {

FrontierOptions Unthrottled() {
  FrontierOptions o;
  o.min_delay_s = 0;
  o.max_connections_per_host = 1 << 30;
  o.max_in_flight = size_t{1} << 40;
  return o;
}

std::vector<LinkCandidate> MakeLinks(size_t n, size_t hosts, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> score(0.0, 1.0);
  std::vector<LinkCandidate> links(n);
  for (size_t i = 0; i < n; ++i) {
    LinkCandidate& c = links[i];
    c.url = "http://host" + std::to_string(rng() % hosts) +
            ".example.com/section/page-" + std::to_string(i) + ".html";
    c.url_id = Hash64(c.url);
    c.score = score(rng);
    c.depth = 1;
  }
  return links;
}

std::unique_ptr<Frontier> MakeFrontier(const FrontierOptions& o, Clock* clock,
                                       const char* selector) {
  return std::move(Frontier::Create(o, clock,
                                    std::move(MakeLinkSelector(selector)).value()))
      .value();
}

// The machine is shared: CPU time of this thread, not wall time.
double ThreadCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

long PeakRssKiB() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

void BM_AddThenNext(benchmark::State& state) {
  const size_t n = state.range(0);
  const size_t hosts = state.range(1);
  std::vector<LinkCandidate> links = MakeLinks(n, hosts, 1);
  FakeClock clock;
  double seen_bytes_per_url = 0;
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<LinkCandidate> batch = links;
    auto f = MakeFrontier(Unthrottled(), &clock, "best-first");
    state.ResumeTiming();
    for (LinkCandidate& c : batch) f->Add(std::move(c));
    while (auto t = f->Next()) f->Complete(*t, HostFeedback{});
    seen_bytes_per_url =
        static_cast<double>(f->SeenBytes()) / static_cast<double>(f->SeenCount());
    state.PauseTiming();
    f.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.counters["seen_bytes_per_url"] = seen_bytes_per_url;
}
BENCHMARK(BM_AddThenNext)
    ->Args({100'000, 100})
    ->Args({100'000, 10'000})
    ->Args({1'000'000, 10'000})
    ->Unit(benchmark::kMillisecond);

// The selection step: Next() = select among ready hosts + take the link.
// Timed per batch of kBatch Next() calls (manual time = thread CPU time);
// the batch is then Requeue()d untimed, so the queue keeps its size and
// contents and nothing else grows (no seen-set or allocator churn).
void SelectionStep(benchmark::State& state, const char* selector) {
  constexpr size_t kBatch = 1000;
  const size_t n = state.range(0);
  const size_t hosts = state.range(1);
  FakeClock clock;
  auto f = MakeFrontier(Unthrottled(), &clock, selector);
  for (LinkCandidate& c : MakeLinks(n, hosts, 2)) f->Add(std::move(c));
  std::vector<CrawlTask> taken;
  taken.reserve(kBatch);
  for (auto _ : state) {
    double start = ThreadCpuSeconds();
    for (size_t i = 0; i < kBatch; ++i) taken.push_back(*f->Next());
    state.SetIterationTime(ThreadCpuSeconds() - start);
    for (CrawlTask& t : taken) f->Requeue(std::move(t));
    taken.clear();
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
  state.counters["queued"] = static_cast<double>(f->Queued());
}

void BM_RegionRouletteStep(benchmark::State& state) {
  SelectionStep(state, "region-roulette");
}
void BM_BestFirstStep(benchmark::State& state) {
  SelectionStep(state, "best-first");
}
void SelectionArgs(benchmark::internal::Benchmark* b) {
  for (int64_t queued : {10'000, 100'000, 1'000'000}) {
    for (int64_t hosts : {100, 1'000, 10'000}) b->Args({queued, hosts});
  }
  b->UseManualTime();
}
BENCHMARK(BM_RegionRouletteStep)->Apply(SelectionArgs);
BENCHMARK(BM_BestFirstStep)->Apply(SelectionArgs);

void BM_SeenSetInsert(benchmark::State& state) {
  const size_t n = state.range(0);
  std::mt19937_64 rng(3);
  std::vector<uint64_t> ids(n);
  for (uint64_t& id : ids) id = rng();
  double bytes_per_url = 0;
  for (auto _ : state) {
    SeenSet s;
    for (uint64_t id : ids) s.Insert(id);
    bytes_per_url = static_cast<double>(s.MemoryBytes()) / s.size();
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.counters["bytes_per_url"] = bytes_per_url;
}
BENCHMARK(BM_SeenSetInsert)
    ->Arg(1'000'000)
    ->Arg(10'000'000)
    ->Unit(benchmark::kMillisecond);

void BM_SpillScale(benchmark::State& state) {
  const size_t n = state.range(0);
  char dir[] = "/tmp/frontier_benchXXXXXX";
  if (mkdtemp(dir) == nullptr) {
    state.SkipWithError("mkdtemp failed");
    return;
  }
  FakeClock clock;
  FrontierOptions o = Unthrottled();
  o.spill_dir = dir;
  o.max_in_ram_total = 1'000'000;
  size_t served = 0;
  double spilled = 0;
  for (auto _ : state) {
    auto f = MakeFrontier(o, &clock, "best-first");
    std::mt19937_64 rng(4);
    std::uniform_real_distribution<double> score(0.0, 1.0);
    for (size_t i = 0; i < n; ++i) {
      LinkCandidate c;
      c.url = "http://host" + std::to_string(rng() % 10'000) +
              ".example.com/section/page-" + std::to_string(i) + ".html";
      c.url_id = Hash64(c.url);
      c.score = score(rng);
      f->Add(std::move(c));
    }
    spilled = static_cast<double>(f->Spilled());
    state.counters["peak_rss_mib_after_add"] = PeakRssKiB() / 1024.0;
    while (auto t = f->Next()) {
      f->Complete(*t, HostFeedback{});
      ++served;
    }
    if (!f->spill_status().ok()) state.SkipWithError("spill failed");
  }
  state.counters["spilled"] = spilled;
  state.counters["served"] = static_cast<double>(served);
  state.counters["peak_rss_mib"] = PeakRssKiB() / 1024.0;
  std::string cmd = std::string("rm -rf ") + dir;
  if (system(cmd.c_str()) != 0) state.SkipWithError("cleanup failed");
}
BENCHMARK(BM_SpillScale)
    ->Arg(10'000'000)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

}  // namespace
}  // namespace topicrawl

BENCHMARK_MAIN();
