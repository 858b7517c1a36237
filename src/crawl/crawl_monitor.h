// CrawlMonitor: what a running crawl shows to the outside (the REST server,
// the dashboard, /metrics) and the two requests it accepts from there (add
// seeds, stop), without the outside ever touching the frontier or the store.
//
// Crawl thread side (no locks in the per-page path):
//   OnPage()   per stored page: per-host counters, harvest window, the last
//              relevant pages. Plain member updates.
//   Publish()  at most every `publish_interval` (checked by PublishDue()):
//              builds a fresh immutable CrawlSnapshot (stats, host table from
//              the frontier, recent pages, the rate series) and swaps the
//              shared pointer under a mutex held only for the swap.
//   TakeSeeds() drains seeds posted by AddSeeds() (an atomic flag makes the
//              common "nothing pending" case one load).
// Any thread:
//   Snapshot() the latest published snapshot (copy-on-publish: readers keep
//              theirs alive as long as they need it; never blocks the loop).
//   AddSeeds() / RequestStop().
#ifndef TOPICRAWL_CRAWL_CRAWL_MONITOR_H_
#define TOPICRAWL_CRAWL_CRAWL_MONITOR_H_

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "core/crawl_task.h"
#include "crawl/crawler.h"

namespace topicrawl {

class Frontier;

struct HostSnapshot {
  std::string host;            // lower-case host[:port]
  int64_t fetched = 0;         // pages stored ok
  int64_t failed = 0;          // pages stored with another status
  size_t queued = 0;           // links waiting (RAM + spilled)
  uint32_t in_flight = 0;
  int backoff_level = 0;       // consecutive transient failures (0 = none)
  bool held = false;           // parked (robots.txt pending)
  double next_fetch_in_s = 0;  // until the host may be contacted (<= 0: ready)
  double min_delay_s = 0;      // Crawl-delay floor
  std::string last_status;     // FetchStatus name of its last page
};

struct RecentPage {
  PageId id = 0;
  std::string url;
  std::string title;
  double relevance = 0;
  double link_score = 0;
  uint32_t depth = 0;
  int64_t fetched_at_ms = 0;
};

struct SeriesPoint {
  double t = 0;  // seconds since the start of this session
  int64_t pages_ok = 0;
  int64_t pages_failed = 0;
  int64_t relevant = 0;
};

struct CrawlSnapshot {
  CrawlStats stats;
  std::string state = "starting";  // starting, running, stopping, finished
  std::string strategy;
  double beta = -1;  // relevance threshold (< 0: the strategy has none)
  int64_t harvest_window = 0;          // pages in the window (<= window size)
  int64_t harvest_window_relevant = 0;
  int64_t published_at_ms = 0;  // unix ms
  std::vector<HostSnapshot> hosts;
  std::vector<RecentPage> recent_relevant;  // newest first
  std::vector<SeriesPoint> series;          // one point per publish, oldest first
  // --render (docs/guides/javascript.md): the mode, pages rendered so far,
  // and each decided host's auto-mode decision with its evidence.
  std::string render_mode = "never";
  int64_t pages_rendered = 0;
  std::vector<std::string> render_decisions;
};

struct CrawlMonitorOptions {
  Duration publish_interval = std::chrono::milliseconds(500);
  size_t harvest_window = 500;   // harvest over the last N pages stored ok
  size_t recent_relevant = 50;   // kept in the snapshot
  size_t series_points = 3600;   // at most; older points are thinned out
};

// One stored page as the crawl thread reports it.
struct MonitoredPage {
  PageId id = 0;
  HostId host = 0;
  bool ok = false;
  bool relevant = false;
  double relevance = 0;
  double link_score = 0;
  uint32_t depth = 0;
  int64_t fetched_at_ms = 0;
  std::string_view status;  // FetchStatus name
  const std::string* url = nullptr;
  const std::string* title = nullptr;
};

class CrawlMonitor {
 public:
  explicit CrawlMonitor(CrawlMonitorOptions options = {});

  // --- crawl thread ---
  void SetStrategy(std::string name, double beta);
  void SetRender(std::string mode, int64_t rendered, std::vector<std::string> decisions);
  void OnPage(const MonitoredPage& page);
  bool PublishDue(TimePoint now) const { return now >= next_publish_; }
  // `frontier` may be null (no host table). `state` as in CrawlSnapshot.
  void Publish(const CrawlStats& stats, const Frontier* frontier, TimePoint now,
               int64_t unix_ms, const char* state);
  bool seeds_pending() const { return seeds_pending_.load(std::memory_order_acquire); }
  std::vector<std::string> TakeSeeds();

  // --- any thread ---
  std::shared_ptr<const CrawlSnapshot> Snapshot() const;
  void AddSeeds(std::vector<std::string> urls);
  void RequestStop();
  bool stop_requested() const { return stop_.load(std::memory_order_acquire); }
  // Wakes the crawl loop after AddSeeds/RequestStop (set by the crawler).
  void SetWakeup(std::function<void()> wake);

 private:
  struct HostCounts {
    int64_t fetched = 0;
    int64_t failed = 0;
    std::string last_status;
  };

  const CrawlMonitorOptions options_;
  // Crawl thread only.
  std::string strategy_;
  double beta_ = -1;
  std::string render_mode_ = "never";
  int64_t pages_rendered_ = 0;
  std::vector<std::string> render_decisions_;
  std::vector<HostCounts> hosts_;      // by HostId
  std::deque<bool> window_;            // relevant flags of the last ok pages
  int64_t window_relevant_ = 0;
  std::deque<RecentPage> recent_;      // newest first
  std::vector<SeriesPoint> series_;
  TimePoint start_{};
  bool started_ = false;
  TimePoint next_publish_{};

  mutable std::mutex mu_;  // guards snapshot_, seeds_, wake_
  std::shared_ptr<const CrawlSnapshot> snapshot_;
  std::vector<std::string> seeds_;
  std::function<void()> wake_;
  std::atomic<bool> seeds_pending_{false};
  std::atomic<bool> stop_{false};
};

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_CRAWL_MONITOR_H_
