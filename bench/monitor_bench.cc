// What `crawl --serve` adds to the crawl thread (issue #18: overhead on
// pages/s <= 2 %), measured in isolation so that the figure does not drown in
// a shared machine's run-to-run noise (Google Benchmark, CPU time):
//
//   BM_OnPage                 CrawlMonitor::OnPage for one stored page (10 %
//                             relevant, so the recent-pages list moves too)
//   BM_Publish/<hosts>        one snapshot: stats, the host table copied from
//                             a frontier with <hosts> hosts, a full series
//
// The crawl thread calls OnPage once a page and Publish once every 500 ms,
// so the added CPU a page is OnPage + Publish * 2 / (pages/s); docs/guides/api.md
// divides that by the crawl's measured CPU a page.
#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/hash.h"
#include "crawl/crawl_monitor.h"
#include "frontier/frontier.h"
#include "frontier/link_selector.h"

namespace topicrawl {
namespace {

void BM_OnPage(benchmark::State& state) {
  CrawlMonitor monitor;
  monitor.SetStrategy("best-first", 0.3);
  const std::string url = "http://docs.example.org/manual/section/page-12345.html";
  const std::string title = "A page title of ordinary length for a manual page";
  MonitoredPage m;
  m.ok = true;
  m.status = "ok";
  m.url = &url;
  m.title = &title;
  m.relevance = 0.4;
  m.link_score = 0.3;
  uint64_t i = 0;
  for (auto _ : state) {
    m.id = static_cast<PageId>(i);
    m.host = static_cast<HostId>(i % 200);
    m.relevant = (i % 10) == 0;
    monitor.OnPage(m);
    ++i;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_OnPage);

void BM_Publish(benchmark::State& state) {
  const size_t hosts = static_cast<size_t>(state.range(0));
  Clock& clock = *SystemClock();
  FrontierOptions o;
  o.min_delay_s = 0;
  auto frontier =
      std::move(Frontier::Create(o, &clock, std::move(MakeLinkSelector("bfs")).value()))
          .value();
  for (size_t i = 0; i < hosts * 20; ++i) {
    LinkCandidate c;
    c.url = "http://host" + std::to_string(i % hosts) + ".example.com/p/" +
            std::to_string(i) + ".html";
    c.url_id = Hash64(c.url);
    c.score = 0.5;
    frontier->Add(std::move(c));
  }
  CrawlMonitor monitor;
  CrawlStats stats;
  const std::string url = "http://docs.example.org/manual/page.html";
  const std::string title = "title";
  MonitoredPage m;
  m.ok = true;
  m.relevant = true;
  m.status = "ok";
  m.url = &url;
  m.title = &title;
  for (size_t i = 0; i < 1000; ++i) {
    m.host = static_cast<HostId>(i % hosts);
    monitor.OnPage(m);
  }
  // A long crawl: the series holds its maximum of points.
  TimePoint t = clock.Now();
  for (int i = 0; i < 3600; ++i) {
    t += std::chrono::seconds(1);
    monitor.Publish(stats, nullptr, t, 0, "running");
  }
  for (auto _ : state) {
    t += std::chrono::milliseconds(500);
    ++stats.pages_ok;
    monitor.Publish(stats, frontier.get(), t, 0, "running");
  }
  state.counters["hosts"] = static_cast<double>(frontier->Hosts());
}
BENCHMARK(BM_Publish)->Arg(15)->Arg(1000)->Arg(10000);

}  // namespace
}  // namespace topicrawl

BENCHMARK_MAIN();
