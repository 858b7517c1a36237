// Crawler: the crawl loop. One crawl thread runs the fetch event loop, the
// frontier and robots; a parse pool decodes, parses and assesses pages; a
// store writer thread owns the CrawlStore while the loop runs (SQLite, WARC
// gzip and digests off the fetch thread, in call order). The path of one URL (see docs/ARCHITECTURE.md):
//
//   Frontier::Next -> robots check -> Fetcher::Submit ... Fetcher::Poll
//   -> parse pool: DecodeToUtf8, ParseHtml, PageJudge::Assess
//   -> crawl thread: Frontier::Add(outlinks), StrategyLearner::OnPageStored,
//      Frontier::Complete; CrawlStore::AddPage on the store writer thread.
//
// Every admitted URL ends as exactly one pages row with its FetchStatus.
#ifndef TOPICRAWL_CRAWL_CRAWLER_H_
#define TOPICRAWL_CRAWL_CRAWLER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "core/clock.h"
#include "core/status.h"
#include "crawl/crawl_config.h"
#include "crawl/strategy_factory.h"
#include "fetch/fetcher.h"

namespace topicrawl {

class CrawlMonitor;  // crawl/crawl_monitor.h
class ClusterRole;   // crawl/cluster_role.h

// Counters of a crawl, reported in the progress line and summary.
struct CrawlStats {
  int64_t pages_ok = 0;        // DP: pages stored with status ok
  int64_t pages_failed = 0;    // stored with any other status
  int64_t relevant = 0;        // pages with relevance >= topic beta (if any)
  int64_t robots_denied = 0;
  int64_t retries = 0;
  int64_t links_seen = 0;
  int64_t links_queued = 0;
  // New links not queued: their URL-trap pattern had spent its budget
  // (crawl/url_trap.h); counted per pattern in the `trap_links` event.
  int64_t links_trap_not_queued = 0;
  int64_t bytes = 0;
  int64_t links_spilled = 0;   // queued links the frontier wrote to disk (set at the close)
  size_t queued = 0;
  size_t hosts = 0;
  size_t in_flight = 0;
  double elapsed_s = 0;        // this run's (a resume does not count earlier runs)
  int64_t pages_ok_before = 0;  // pages_ok already stored when this run started (resume)
  // Pages counted in pages_ok by media type ("text/html", "application/pdf";
  // crawl/progress_eta.h's ContentTypeKey), over the same pages as pages_ok
  // (a resumed round: this run's pages, its fetch rows keep no type).
  std::map<std::string, int64_t> content_types;
  int64_t max_pages = 0;  // the budget eta_s counts to (0: none)
  // Seconds until pages_ok reaches max_pages at the rate of the last 30 s
  // (crawl/progress_eta.h); < 0 when unknown (no budget, no rate yet).
  double eta_s = -1;

  // Pages stored ok by this run per second of this run (a resume's rate is
  // over its own pages, not the directory's).
  double RunRate() const {
    return elapsed_s > 0 ? static_cast<double>(pages_ok - pages_ok_before) / elapsed_s : 0.0;
  }
};

// The fetcher options a crawl with config `c` uses (user agent, routes,
// timeouts, size limits, the private-address rule); also for the fetches a
// round makes outside the crawl loop (crawl/announce_collector.h).
FetcherOptions MakeFetcherOptions(const CrawlConfig& c);

class Crawler {
 public:
  // `config` must have passed ValidateCrawlConfig. `stop` (may be null) is
  // polled by the loop; setting it stops the crawl cleanly (resumable).
  // `make_strategy` builds config.strategy (strategies/strategy_registry.h's
  // MakeCrawlStrategy in the product; tests may hand in their own).
  Crawler(CrawlConfig config, const std::atomic<bool>* stop, StrategyFactory make_strategy);
  ~Crawler();

  // Runs the crawl to its end (page limit, empty frontier, or stop flag).
  // Errors of the outside world (cannot open the directory, bad topic file,
  // unknown strategy) are returned before any fetch.
  Status Run();

  // Optional: publish snapshots to and take requests (seeds, stop) from
  // `monitor` (crawl/crawl_monitor.h). Call before Run(); must outlive it.
  void SetMonitor(CrawlMonitor* monitor);
  // Optional: run as one worker of a clustered crawl (crawl/cluster_role.h).
  // Call before Run(); must outlive it.
  void SetClusterRole(ClusterRole* role);

  const CrawlStats& stats() const;
  bool interrupted() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_CRAWLER_H_
