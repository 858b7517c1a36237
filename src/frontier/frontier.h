// Frontier: the crawl's queue of links to fetch, with politeness.
//
// Flow (docs/ARCHITECTURE.md): Add() admits a scored link (exact dedup on
// url_id); Next() hands out a CrawlTask from a host that may be contacted now,
// chosen by the strategy's LinkSelector; Complete() returns the host slot and
// feeds back the outcome (back-off, Retry-After, retries); Requeue() puts a
// task back untouched (e.g. robots.txt still unknown).
//
// Politeness, per host = lower-case host[:port] of the URL:
//   - at most `max_connections_per_host` requests in flight;
//   - request starts spaced by max(min_delay_s, SetHostMinDelay floor);
//   - a sick URL is not a sick host (frontier_health.cc, docs/ARCHITECTURE.md
//     "Back-off"): a transient failure of one URL (timeout after connecting,
//     reset mid-transfer, 502/504) re-queues only that URL, due after
//     retry_delay_s * 2^attempt (capped); the host's other URLs go on.
//     Host-wide signals (429/503, DNS failure, could not connect, or
//     host_backoff_after consecutive failures across URLs) back the whole
//     host off base * 2^(k-1) seconds, capped at backoff_max_s (60 s);
//     Retry-After extends it up to max_retry_after_s. Any non-transient
//     outcome (a success, a 404) resets the counts;
//   - a host with host_failure_budget consecutive transient failures is
//     given up: its queued URLs (and any admitted later) come back from
//     TakeAbandoned() for the caller to record with HostFailureReason();
//   - HoldHost()/ReleaseHost() park a host (robots.txt pending).
// Workers never sleep: Next() returns nullopt when no host is ready and
// NextWakeup() says when one will be. Ready hosts are found through a timer
// heap and two ordered indexes, never by scanning all hosts.
//
// Memory: the seen-set costs <= 16 bytes per URL ever admitted (SeenSet);
// queued links live in RAM up to `max_in_ram_per_host` per host and
// `max_in_ram_total` overall, the rest spills to `spill_dir` (SpillFile),
// costing ~20-36 bytes of RAM per spilled link for its url_id -> (score,
// host) index. Serving order with spill is approximate: a host's spilled
// links come back (best segment head first) when its in-RAM queue drains or
// when its best spilled link beats its in-RAM best while the in-RAM queue is
// at most half full. Each segment is sorted, so links of one spill batch
// come back in order; a spilled link may wait behind worse links that
// arrived after it was spilled.
//
// Thread-safety: none. The Frontier is owned and used by the crawl thread.
#ifndef TOPICRAWL_FRONTIER_FRONTIER_H_
#define TOPICRAWL_FRONTIER_FRONTIER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "core/clock.h"
#include "core/crawl_task.h"
#include "core/fetch_status.h"
#include "core/status.h"
#include "frontier/indexed_heap.h"
#include "frontier/link_selector.h"
#include "frontier/seen_set.h"
#include "frontier/spill_file.h"

namespace topicrawl {

// A scored link offered to the frontier. `url` must be a canonical absolute
// http(s) URL; `url_id` is Hash64 of its de-duplication key.
struct LinkCandidate {
  std::string url;
  UrlId url_id = 0;
  uint32_t depth = 0;
  PageId parent_page_id = 0;
  std::string anchor;
  double score = 0;
};

enum class AddResult {
  kAdded,           // queued
  kDuplicate,       // url_id seen before; nothing changed
  kRescored,        // still queued and keep_max_on_duplicate raised its score
  kBudgetExceeded,  // the host's max_pages_per_host is spent; not marked seen
  kRejected,        // no host in the URL; not marked seen
  kNotAdmitted,     // AddIf's admission test said no; not marked seen
};
std::string_view AddResultName(AddResult result);

// The outcome of one request, as the frontier needs it.
struct HostFeedback {
  FetchStatus status = FetchStatus::kOk;
  int http_code = 0;
  double retry_after_s = -1;  // parsed Retry-After in seconds, -1 when absent
  // The host could not be reached at all (refused/unreachable on connect,
  // connect timeout): a host-wide signal even for a non-HTTP failure.
  bool host_unreachable = false;
};

// A host's health as the back-off policy sees it (for status lines/events).
struct HostHealth {
  uint32_t consecutive_failures = 0;  // transient, since the last good answer
  uint32_t total_failures = 0;        // transient, whole crawl
  int backoff_level = 0;              // k of the current host back-off; 0: none
  bool failed = false;                // over host_failure_budget: given up
  TimePoint next_start{};             // no request starts before this
  std::string last_failure;           // e.g. "timeout", "http_error 503"
};

// Why nothing can be fetched right now (see Frontier::Waiting).
struct WaitReport {
  TimePoint next{TimePoint::max()};  // earliest possible fetch; max: none timed
  size_t hosts_backed_off = 0;       // host-wide back-off in force
  size_t hosts_delayed = 0;          // only the politeness delay
  size_t hosts_held = 0;             // robots.txt pending
  size_t hosts_busy = 0;             // every connection in use
  size_t retries_delayed = 0;        // URLs waiting out their own retry delay
  std::string worst_host;            // the backed-off host with most failures
  uint32_t worst_failures = 0;
};

enum class CompleteResult {
  kFinal,        // the URL's fate is decided; record `status` with it
  kRetryQueued,  // transient failure; re-queued with attempt + 1
  kUnknownTask,  // the task was not in flight; nothing changed
};

struct FrontierOptions {
  // Politeness.
  int max_connections_per_host = 2;
  double min_delay_s = 1.0;  // between request starts to one host; 0 allowed
  size_t max_in_flight = 64;  // global concurrency limit
  // Host-wide back-off (host signals only): base * 2^(k-1), capped.
  double backoff_base_s = 1.0;
  double backoff_max_s = 60.0;
  double max_retry_after_s = 120.0;  // longer Retry-After values are capped
  uint32_t max_retries = 2;          // transient failures re-queued per URL
  // Per-URL retry delay: the n-th retry (n = 1, 2, ...) of a URL is due
  // retry_delay_s * 2^(n-1) after the failure, capped at backoff_max_s.
  double retry_delay_s = 2.0;
  // This many consecutive transient failures (different URLs) of one host
  // count as a host-wide signal. 0: only explicit host signals.
  uint32_t host_backoff_after = 3;
  // Consecutive transient failures after which the host is given up (Nutch
  // fetcher.max.exceptions.per.queue). 0: never.
  uint32_t host_failure_budget = 6;
  // Admission.
  uint64_t max_pages_per_host = 0;  // 0 = unlimited; counts admitted URLs
  // Seed 001: a link found again while still queued keeps the higher score.
  bool keep_max_on_duplicate = false;
  // Focus gate for parallel crawling. < 0: off. Otherwise, for selectors
  // whose priority follows the score (best-first and its kin), Next() hands
  // out a link only when its priority is within `focus_tolerance` of the
  // best priority queued on ANY host that is not held or backing off --
  // busy hosts and hosts waiting out their delay included -- and returns
  // nullopt ("nothing now") otherwise. Without it, a crawler with many
  // connections fills every idle one with the best link of *some* ready host,
  // which on a few-host web degenerates into round-robin over hosts.
  double focus_tolerance = -1;
  // Spilling; disabled when spill_dir is empty.
  std::string spill_dir;
  size_t max_in_ram_per_host = 10'000;  // >= 2
  size_t max_in_ram_total = 1'000'000;  // >= 2
};

// A queued link as shown to ForEachQueued / RescoreAll.
struct QueuedLinkView {
  UrlId url_id = 0;
  HostId host = 0;
  std::string_view url;
  std::string_view anchor;
  uint32_t depth = 0;
  PageId parent_page_id = 0;
  uint64_t seq = 0;
  double score = 0;
};

class Frontier {
 public:
  // Fails only when the spill file cannot be created in options.spill_dir.
  // `clock` must outlive the frontier.
  static StatusOr<std::unique_ptr<Frontier>> Create(
      const FrontierOptions& options, Clock* clock,
      std::unique_ptr<LinkSelector> selector);
  ~Frontier();
  Frontier(const Frontier&) = delete;
  Frontier& operator=(const Frontier&) = delete;

  // Admits a link unless its url_id was seen (see AddResult).
  AddResult Add(LinkCandidate candidate);
  // As Add, but a new URL (not seen, with a host within its page budget) is
  // queued only when `admit(url)` returns true; `admit` is called for such
  // URLs only, and its true always ends in kAdded (the crawler's URL-trap
  // budget counts admissions this way: no duplicate, no undo).
  AddResult AddIf(LinkCandidate candidate, const std::function<bool(std::string_view)>& admit);

  // A task from a ready host chosen by the selector, or nullopt when no host
  // is ready or max_in_flight tasks are out. Marks a host slot busy and
  // starts the host's delay. The caller MUST later Complete() or Requeue().
  std::optional<CrawlTask> Next();

  // Releases the slot of a task from Next(). Applies back-off/Retry-After
  // and re-queues transient failures up to max_retries times.
  CompleteResult Complete(const CrawlTask& task, const HostFeedback& feedback);

  // Puts an in-flight task back (same score, attempt and discovery order)
  // and releases its slot; the host delay already started stays. Returns
  // false (and does nothing) when the task was not in flight.
  bool Requeue(CrawlTask task);

  // Host registry. InternHost() returns the id of the URL's host, creating
  // it; nullopt when the URL has no host.
  std::optional<HostId> InternHost(std::string_view url);
  // The same from a host key as HostKey() gives it ("host[:port]"), e.g. a
  // host whose politeness state arrives from another cluster worker.
  HostId InternHostKey(std::string_view key);
  // REQUIRES: host < Hosts().
  const std::string& HostKey(HostId host) const;
  // A held host hands out nothing until released. Unknown ids are ignored.
  void HoldHost(HostId host);
  void ReleaseHost(HostId host);
  // Crawl-delay floor for this host (seconds, clamped to >= 0).
  void SetHostMinDelay(HostId host, double seconds);
  // Politeness state of one host, for monitoring. REQUIRES: host < Hosts().
  struct HostInfo {
    size_t queued = 0;
    uint32_t in_flight = 0;
    int backoff_level = 0;
    bool held = false;
    TimePoint next_start{};
    double min_delay_s = 0;
  };
  HostInfo GetHostInfo(HostId host) const;

  // Sets the score of a queued link (in RAM: sift in place, O(log n); spilled:
  // takes effect when it is reloaded). False when the link is not queued.
  bool Rescore(UrlId url_id, double score);
  // Visits every queued link (in RAM and spilled; spilled ones are read from
  // disk). Order unspecified. `fn` must not call into the frontier.
  void ForEachQueued(const std::function<void(const QueuedLinkView&)>& fn);
  // Replaces every queued link's score by fn(link); rewrites the spill file.
  void RescoreAll(const std::function<double(const QueuedLinkView&)>& fn);

  // Hosts given up (host_failure_budget): their queued URLs, admitted ones
  // included, leave the queue and wait here until taken. Each must be
  // recorded by the caller (FetchStatus kHostFailed, HostFailureReason()).
  std::vector<CrawlTask> TakeAbandoned();
  // "N consecutive failures (last: timeout)"; empty when the host is fine.
  std::string HostFailureReason(HostId host) const;
  // REQUIRES: host < Hosts().
  HostHealth Health(HostId host) const;
  // Hand-over (cluster mode, docs/guides/scale-out.md): takes on the health another
  // process had for this host -- back-off level, failure counts, no start
  // before health.next_start; a failed host is given up here too (its URLs
  // come back from TakeAbandoned()). Never lowers what this frontier has.
  // Unknown ids are ignored.
  void AdoptHostHealth(HostId host, const HostHealth& health);
  // Why Next() has nothing now: counts of waiting hosts by reason, the
  // earliest possible fetch. O(hosts); for progress lines, not hot paths.
  WaitReport Waiting() const;

  // Resume: marks a URL as seen (already crawled or queued elsewhere). The
  // overload with the URL also charges the host's page budget.
  void MarkSeen(UrlId url_id);
  void MarkSeen(UrlId url_id, std::string_view url);
  bool Seen(UrlId url_id) const { return seen_.Contains(url_id); }

  // When Next() may next return a task: now if a host is ready, the earliest
  // host delay/back-off end otherwise, TimePoint::max() when only a
  // Complete() (or Add/Release) can make progress.
  TimePoint NextWakeup() const;

  // In RAM + spilled + retries waiting out their delay.
  size_t Queued() const { return queued_ + delayed_.size(); }
  size_t Spilled() const { return spilled_.size(); }
  size_t InFlight() const { return in_flight_.size(); }
  size_t Hosts() const { return hosts_.size(); }
  size_t SeenCount() const { return seen_.size(); }
  size_t SeenBytes() const { return seen_.MemoryBytes(); }
  // First spill I/O error (spilling stops after it); OK otherwise.
  const Status& spill_status() const { return spill_status_; }
  // Spill traffic so far: segments written and the links in them, reloads
  // and the links they brought back (for the closing report and benches).
  struct SpillCounts {
    uint64_t spills = 0, links_spilled = 0, reloads = 0, links_reloaded = 0;
  };
  const SpillCounts& spill_counts() const { return spill_counts_; }
  // Selections where the selector returned an invalid ref (a selector bug;
  // the global best was served instead).
  uint64_t selector_errors() const { return selector_errors_; }
  // Next() calls that the focus gate answered with "nothing now".
  uint64_t focus_waits() const { return focus_waits_; }

 private:
  // A queued link's payload, pooled; its heap item holds the order keys.
  struct Entry {
    UrlId url_id = 0;
    double score = 0;
    PageId parent_page_id = 0;
    uint32_t depth = 0;
    uint32_t attempt = 0;
    HostId host = 0;
    uint32_t handle = kNotInHeap;  // host-local heap handle; kNotInHeap: free
    std::string url;
    std::string anchor;
  };
  // Heap item of a queued link: the keys inline, so sampling and sifting
  // read one contiguous array (24 bytes per link).
  struct LinkItem {
    double priority;
    uint64_t seq;
    float score;
    uint32_t id;  // host-local handle (Host::entry_of, Host::slots)
  };
  // Handles are local to a host so that the slot writes of a sift stay in
  // one small array per host (a global one costs a cache miss per level).
  struct LinkOrder {
    using Item = LinkItem;
    std::vector<uint32_t>* slots;
    static uint32_t Id(const Item& item) { return item.id; }
    bool Before(const Item& a, const Item& b) const {
      if (a.priority != b.priority) return a.priority > b.priority;
      return a.seq < b.seq;
    }
    uint32_t& Slot(uint32_t handle) { return (*slots)[handle]; }
  };
  struct SpilledSegment {
    SpillSegment range;
    double head_priority = 0;
    uint64_t head_seq = 0;
  };
  struct Host {
    std::string key;
    IndexedHeap<LinkOrder> links;
    std::vector<uint32_t> slots;     // handle -> heap slot
    std::vector<uint32_t> entry_of;  // handle -> index into entries_
    std::vector<uint32_t> free_handles;
    LinkOrder order() { return LinkOrder{&slots}; }
    size_t count = 0;  // queued: in RAM + spilled
    double sum_score = 0;
    double max_bound = -std::numeric_limits<double>::infinity();
    uint32_t in_flight = 0;
    uint64_t admitted = 0;
    TimePoint next_start{};
    TimePoint retry_after_until{};  // the server's Retry-After, honoured
    double min_delay_s = 0;
    int backoff_level = 0;
    uint32_t consecutive_failures = 0;
    uint32_t total_failures = 0;
    bool failed = false;
    std::string last_failure;
    bool held = false;
    uint32_t top_slot = kNotInHeap;
    uint32_t any_slot = kNotInHeap;  // in any_by_top_ (focus gate)
    uint32_t mean_slot = kNotInHeap;
    uint32_t timer_slot = kNotInHeap;
    uint32_t size_slot = kNotInHeap;
    std::vector<SpilledSegment> segments;
    size_t spilled = 0;
  };
  // Host orders over the ready hosts (by top link, by mean score), the
  // waiting hosts (by wake-up time) and all non-empty hosts (by RAM size:
  // picks the victim when the global RAM cap is hit).
  struct TopItem {
    double priority;
    uint64_t seq;
    uint32_t id;
  };
  struct ByTop {
    using Item = TopItem;
    Frontier* f;
    static uint32_t Id(const Item& item) { return item.id; }
    bool Before(const Item& a, const Item& b) const {
      if (a.priority != b.priority) return a.priority > b.priority;
      if (a.seq != b.seq) return a.seq < b.seq;
      return a.id < b.id;
    }
    uint32_t& Slot(uint32_t h) { return f->hosts_[h].top_slot; }
  };
  // Same order as ByTop, over every host the focus gate considers.
  struct ByTopAny : ByTop {
    uint32_t& Slot(uint32_t h) { return f->hosts_[h].any_slot; }
  };
  struct MeanItem {
    double mean;
    uint32_t id;
  };
  struct ByMean {
    using Item = MeanItem;
    Frontier* f;
    static uint32_t Id(const Item& item) { return item.id; }
    bool Before(const Item& a, const Item& b) const {
      return a.mean != b.mean ? a.mean > b.mean : a.id < b.id;
    }
    uint32_t& Slot(uint32_t h) { return f->hosts_[h].mean_slot; }
  };
  struct WakeItem {
    TimePoint at;
    uint32_t id;
  };
  struct ByWakeup {
    using Item = WakeItem;
    Frontier* f;
    static uint32_t Id(const Item& item) { return item.id; }
    bool Before(const Item& a, const Item& b) const {
      return a.at != b.at ? a.at < b.at : a.id < b.id;
    }
    uint32_t& Slot(uint32_t h) { return f->hosts_[h].timer_slot; }
  };
  struct SizeItem {
    size_t size;
    uint32_t id;
  };
  struct ByRamSize {
    using Item = SizeItem;
    Frontier* f;
    static uint32_t Id(const Item& item) { return item.id; }
    bool Before(const Item& a, const Item& b) const {
      return a.size != b.size ? a.size > b.size : a.id < b.id;
    }
    uint32_t& Slot(uint32_t h) { return f->hosts_[h].size_slot; }
  };
  class View;
  // The spilled-link index: current score (float) and host.
  struct SpilledLink {
    float score;
    HostId host;
  };

  Frontier(const FrontierOptions& options, Clock* clock,
           std::unique_ptr<LinkSelector> selector);

  // NaN -> 0, clamped to [-1e12, 1e12].
  static double SanitizeScore(double s);
  // Queue mechanics (frontier.cc).
  uint32_t NewEntry();
  void FreeEntry(uint32_t id);
  // entries_ index of the link at heap slot `slot` of `host`.
  uint32_t EntryAt(const Host& host, size_t slot) const {
    return host.entry_of[host.links.at(slot).id];
  }
  uint32_t NewHandle(Host& host, uint32_t entry);
  void FreeHandle(Host& host, uint32_t handle);
  // Puts an entry in its host heap and the RAM index (no queue counters).
  void LinkEntry(uint32_t id, uint64_t seq);
  // LinkEntry plus the host/queue counters: a newly queued link.
  void PushEntry(uint32_t id, uint64_t seq);
  CrawlTask TakeEntry(LinkRef ref);
  void QueueTask(CrawlTask&& task, uint64_t seq);
  // The entry of a queued in-RAM link, kNotInHeap when there is none.
  uint32_t FindInRam(UrlId url_id) const;
  void PurgeRamIndex();
  double ExactMax(const Host& host) const;
  // Back-off and host health (frontier_health.cc).
  struct DelayedRetry {
    TimePoint due;
    uint64_t seq;
    CrawlTask task;
  };
  struct DelayedLater {
    bool operator()(const DelayedRetry& a, const DelayedRetry& b) const {
      return a.due != b.due ? a.due > b.due : a.seq > b.seq;
    }
  };
  // Applies one outcome to the host's health; true when the task is to be
  // retried (it then sits in delayed_).
  bool ApplyFeedback(const CrawlTask& task, uint64_t seq,
                     const HostFeedback& feedback);
  void AbandonHost(HostId h);
  void PromoteDelayed();
  // Politeness state (frontier.cc).
  void Refresh(HostId h);
  void PromoteDue();
  double HostDelay(const Host& host) const;
  void RebuildHostIndexes();
  // Spill (frontier_spill.cc).
  void MaybeSpill(HostId h);
  bool SpillHost(HostId h);
  void MaybeReload(HostId h);
  void Reload(HostId h);
  bool BestSpilledBeats(const Host& host) const;
  void ForEachSpilled(HostId h,
                      const std::function<void(const SpillRecord&)>& fn);
  void RewriteSpill(const std::function<double(const QueuedLinkView&)>& fn);
  void MaybeTruncateSpill();

  FrontierOptions options_;
  Clock* clock_;
  std::unique_ptr<LinkSelector> selector_;
  std::unique_ptr<View> view_;
  std::unique_ptr<SpillFile> spill_;
  Status spill_status_;

  SeenSet seen_;
  std::vector<Entry> entries_;
  std::vector<uint32_t> free_entries_;
  // url_id -> entry of queued in-RAM links, plus up to in_ram_total_ + 1024
  // stale keys (taken links; see FindInRam).
  absl::flat_hash_map<UrlId, uint32_t> in_ram_;
  size_t stale_in_ram_ = 0;
  absl::flat_hash_map<UrlId, SpilledLink> spilled_;
  absl::flat_hash_map<UrlId, uint64_t> in_flight_;  // url_id -> seq
  absl::flat_hash_map<std::string, HostId> host_ids_;
  std::vector<Host> hosts_;

  ByTop by_top_{this};
  ByMean by_mean_{this};
  ByTopAny by_top_any_{{this}};
  ByWakeup by_wakeup_{this};
  ByRamSize by_ram_size_order_{this};
  IndexedHeap<ByTop> ready_by_top_;
  IndexedHeap<ByMean> ready_by_mean_;
  IndexedHeap<ByTopAny> any_by_top_;  // not held, not backing off, non-empty
  IndexedHeap<ByWakeup> timers_;
  IndexedHeap<ByRamSize> by_ram_size_;

  // Retries not yet due: a min-heap on `due` (std::push_heap/pop_heap).
  std::vector<DelayedRetry> delayed_;
  std::vector<CrawlTask> abandoned_;

  uint64_t next_seq_ = 0;
  size_t queued_ = 0;
  size_t in_ram_total_ = 0;
  uint64_t selector_errors_ = 0;
  uint64_t focus_waits_ = 0;
  SpillCounts spill_counts_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_FRONTIER_FRONTIER_H_
