#include "crawl/crawler.h"

#include <pthread.h>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/hash.h"
#include "core/thread_cpu.h"
#include "core/thread_pool.h"
#include "crawl/crawl_strategy.h"
#include "crawl/dedup.h"
#include "crawl/strategy_state.h"
#include "fetch/charset.h"
#include "fetch/fetcher.h"
#include "frontier/frontier.h"
#include "frontier/link_selector.h"
#include "parse/html_parser.h"
#include "robots/robots_cache.h"
#include "store/crawl_store.h"
#include "url/url.h"
#include "url/url_filter.h"

namespace topicrawl {
namespace {

// A fetched page after the parse pool is done with it.
struct ProcessedPage {
  FetchResult fetch;
  DecodedText decoded;
  ParsedPage page;
  PageAssessment assessment;
  std::string parse_error;  // non-empty: parsing threw; stored as parse_error
};

FetcherOptions MakeFetcherOptions(const CrawlConfig& c) {
  FetcherOptions o;
  o.user_agent = c.user_agent;
  o.connect_to = c.connect_to;
  o.cacert = c.cacert;
  o.proxy = c.proxy;
  o.allow_private = c.allow_private;
  o.connect_timeout_s = c.connect_timeout_s;
  o.total_timeout_s = c.total_timeout_s;
  o.low_speed_time_s = static_cast<long>(c.low_speed_time_s);
  o.max_body_bytes = static_cast<size_t>(c.max_body_bytes);
  o.max_redirects = c.max_redirects;
  return o;
}

FrontierOptions MakeFrontierOptions(const CrawlConfig& c, const CrawlStrategy& strategy) {
  FrontierOptions o;
  o.keep_max_on_duplicate = strategy.KeepMaxOnDuplicate();
  if (strategy.FocusGated()) o.focus_tolerance = c.focus_tolerance;
  o.max_connections_per_host = c.per_host_connections;
  o.min_delay_s = c.delay_s;
  o.max_in_flight = static_cast<size_t>(c.concurrency);
  o.max_retries = static_cast<uint32_t>(c.max_retries);
  o.max_pages_per_host = static_cast<uint64_t>(c.max_pages_per_host);
  o.spill_dir = c.out_dir + "/spill";
  return o;
}

// Owns the CrawlStore during the crawl loop and runs every store call on its
// own thread, in submission order. Why: the crawl thread also drives all
// transfers, and SQLite rows (~100 links a page), WARC gzip and the payload
// SHA-1 cost ~1 ms of CPU a page there (perf, dev web, bfs), which saturated
// it and starved the fetch queue (3-13 of 64 in flight). The store keeps its
// one-thread contract: it is only touched by this thread between Start() and
// Stop(). Pages still queued at a kill -9 were never committed, so their URLs
// are simply fetched again on resume (their frontier rows are still state 0).
class StoreWriter {
 public:
  // At most `max_queued` operations wait; Post() blocks beyond that, which
  // bounds memory (bodies) and pushes back on the crawl thread.
  StoreWriter(CrawlStore* store, size_t max_queued) : store_(store), max_queued_(max_queued) {}
  ~StoreWriter() { Stop(); }

  void Start() {
    thread_ = std::thread([this] {
      pthread_setname_np(pthread_self(), "tr-store");
      Loop();
    });
  }

  // Queues AddPage(page). Its id is the store's next id (ids follow call order).
  void AddPage(PageRecord page) {
    Op op;
    op.page = std::move(page);
    Push(std::move(op));
  }
  // Queues an operation whose status is ignored (events, meta).
  void Post(std::function<void(CrawlStore*)> fn) {
    Op op;
    op.fn = std::move(fn);
    Push(std::move(op));
  }
  bool failed() const { return failed_.load(std::memory_order_acquire); }
  Status error() const {
    std::lock_guard<std::mutex> lock(mu_);
    return error_;
  }
  // Runs every queued operation and joins the thread; the store belongs to
  // the caller again.
  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!thread_.joinable()) return;
      stopping_ = true;
    }
    has_work_.notify_one();
    thread_.join();
  }

 private:
  struct Op {
    std::optional<PageRecord> page;
    std::function<void(CrawlStore*)> fn;
  };

  void Push(Op op) {
    std::unique_lock<std::mutex> lock(mu_);
    has_room_.wait(lock, [this] { return queue_.size() < max_queued_; });
    queue_.push_back(std::move(op));
    if (queue_.size() == 1) has_work_.notify_one();
  }

  void Loop() {
    std::deque<Op> batch;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mu_);
        if (queue_.empty() && !stopping_) {
          // Idle: commit an old batch so readers see recent pages.
          lock.unlock();
          store_->CommitIfDue();
          lock.lock();
          has_work_.wait_for(lock, std::chrono::milliseconds(100),
                             [this] { return !queue_.empty() || stopping_; });
        }
        if (queue_.empty() && stopping_) return;
        batch.swap(queue_);
      }
      has_room_.notify_all();
      for (Op& op : batch) {
        if (op.page) {
          if (failed()) continue;
          auto id = store_->AddPage(std::move(*op.page));
          if (!id.ok()) {
            std::lock_guard<std::mutex> lock(mu_);
            error_ = id.status();
            failed_.store(true, std::memory_order_release);
          }
        } else if (op.fn) {
          op.fn(store_);
        }
      }
      batch.clear();
    }
  }

  CrawlStore* const store_;
  const size_t max_queued_;
  mutable std::mutex mu_;
  std::condition_variable has_work_;
  std::condition_variable has_room_;
  std::deque<Op> queue_;  // guarded by mu_
  bool stopping_ = false;  // guarded by mu_
  Status error_;           // guarded by mu_; the first AddPage error
  std::atomic<bool> failed_{false};
  std::thread thread_;
};

}  // namespace

class Crawler::Impl {
 public:
  Impl(CrawlConfig config, const std::atomic<bool>* stop)
      : config_(std::move(config)), stop_(stop), clock_(SystemClock()) {}

  Status Run();
  const CrawlStats& stats() const { return stats_; }
  bool interrupted() const { return interrupted_; }

 private:
  Status Setup();
  Status BuildFilters();
  Status SeedOrResume();
  void Dispatch();
  bool CheckRobots(const CrawlTask& task);
  void OnRobotsFetched(FetchResult result);
  void OnPageFetched(FetchResult result);
  void Process(FetchResult result);  // parse pool
  void DrainProcessed();
  void StoreProcessed(ProcessedPage p);
  void StoreFailure(FetchResult result);
  Status AddPageRecord(PageRecord rec);
  bool Admissible(const Outlink& link, uint32_t child_depth, bool page_nofollow) const;
  bool Finished();
  bool RefillFromStrategy();  // true when the strategy queued something
  void CheckpointState();     // periodic save of the strategy's state
  void Progress(bool final);
  Duration PollWait();

  CrawlConfig config_;
  const std::atomic<bool>* stop_;
  Clock* clock_;
  std::unique_ptr<CrawlStore> store_;
  std::unique_ptr<CrawlStrategy> strategy_;
  std::unique_ptr<Frontier> frontier_;
  std::unique_ptr<Fetcher> fetcher_;
  std::unique_ptr<RobotsCache> robots_;
  std::unique_ptr<ThreadPool> pool_;
  std::unique_ptr<StoreWriter> writer_;  // owns store_ during the loop
  UrlFilterChain filters_{FilterDecision::kAccept};
  ParseOptions parse_options_;

  std::mutex processed_mu_;
  std::deque<ProcessedPage> processed_;  // guarded by processed_mu_
  size_t parsing_ = 0;                   // submitted to the pool, not drained
  size_t page_fetches_ = 0;              // page transfers in flight
  // robots.txt host key -> frontier hosts parked until it arrives.
  std::map<std::string, std::vector<HostId>> robots_waiting_;

  PageId next_page_id_ = 1;
  Status error_;  // first storage error; stops the crawl
  CrawlStats stats_;
  bool interrupted_ = false;
  TimePoint started_{};
  TimePoint last_progress_{};
  int64_t last_progress_pages_ = 0;
  TimePoint next_state_save_{};
};

Status Crawler::Impl::Setup() {
  auto store = CrawlStore::Open(config_.out_dir,
                                config_.resume ? OpenMode::kResume : OpenMode::kCreate);
  if (!store.ok()) return store.status();
  store_ = std::move(store).value();

  StrategyContext ctx;
  ctx.topic_file = config_.topic_file;
  ctx.out_dir = config_.out_dir;
  ctx.rng_seed = config_.rng_seed;
  ctx.dedup_ignore_scheme = config_.dedup_ignore_scheme;
  auto strategy = MakeCrawlStrategy(config_.strategy, ctx);
  if (!strategy.ok()) return strategy.status();
  strategy_ = std::move(strategy).value();
  // Parse only the link contexts somebody reads: the strategy's, plus the
  // text context that the links table stores.
  const LinkContextNeeds needs = strategy_->NeededLinkContexts();
  if (!needs.text && !config_.store_links) parse_options_.context_window_words = 0;
  if (!needs.dom) parse_options_.dom_delta = 0;
  parse_options_.keep_raw_href = false;  // nothing downstream reads it

  // Queued links beyond the in-RAM cap spill here; rebuilt from crawl.db on
  // resume, so the file is scratch space.
  std::error_code ec;
  std::filesystem::create_directories(config_.out_dir + "/spill", ec);
  if (ec) return Status::Error("cannot create " + config_.out_dir + "/spill: " + ec.message());
  auto selector = strategy_->MakeSelector();
  if (!selector.ok()) return selector.status();
  auto frontier = Frontier::Create(MakeFrontierOptions(config_, *strategy_), clock_,
                                   std::move(selector).value());
  if (!frontier.ok()) return frontier.status();
  frontier_ = std::move(frontier).value();

  FetcherOptions fo = MakeFetcherOptions(config_);
  Status fs = ValidateFetcherOptions(fo);
  if (!fs.ok()) return fs;
  fetcher_ = NewCurlFetcher(fo, clock_);

  RobotsCacheOptions ro;
  ro.user_agent = config_.robots_agent;
  robots_ = std::make_unique<RobotsCache>(clock_, ro);
  pool_ = std::make_unique<ThreadPool>(static_cast<size_t>(config_.parse_threads), "tr-parse");

  Status s = BuildFilters();
  if (!s.ok()) return s;
  s = store_->SaveConfigSnapshot(CrawlConfigToToml(config_));
  if (!s.ok()) return s;
  store_->SetMeta("strategy", config_.strategy);
  store_->SetMeta("rng_seed", std::to_string(config_.rng_seed));
  if (strategy_->Beta() >= 0) store_->SetMeta("beta", std::to_string(strategy_->Beta()));
  return SeedOrResume();
}

Status Crawler::Impl::BuildFilters() {
  // Scope rules answer accept / reject / no opinion; the last opinion wins.
  if (!config_.include_hosts.empty()) {
    filters_ = UrlFilterChain(FilterDecision::kReject);
    filters_.Add(NewHostUrlFilter(config_.include_hosts, FilterDecision::kAccept, true));
  }
  for (const auto& re : config_.include_regex) {
    auto f = NewRegexUrlFilter(re, FilterDecision::kAccept);
    if (!f.ok()) return Status::Error("--include-regex: " + f.status().message());
    if (config_.include_hosts.empty()) filters_ = UrlFilterChain(FilterDecision::kReject);
    filters_.Add(std::move(f).value());
  }
  if (!config_.exclude_hosts.empty()) {
    filters_.Add(NewHostUrlFilter(config_.exclude_hosts, FilterDecision::kReject, true));
  }
  for (const auto& re : config_.exclude_regex) {
    auto f = NewRegexUrlFilter(re, FilterDecision::kReject);
    if (!f.ok()) return Status::Error("--exclude-regex: " + f.status().message());
    filters_.Add(std::move(f).value());
  }
  filters_.Add(NewMaxLengthUrlFilter(kMaxUrlLength, FilterDecision::kReject));
  return Status::Ok();
}

Status Crawler::Impl::SeedOrResume() {
  if (store_->resumed()) {
    // What the strategy had learned (DIR/state/strategy.bin) first: the
    // queue below is rebuilt with the stored scores either way.
    bool restored = false;
    Status rs = RestoreStrategyState(strategy_.get(), config_.out_dir, &restored);
    if (!rs.ok()) return rs;
    store_->AddEvent("state", restored ? "strategy state restored" : "no saved strategy state");
    // Rebuild the seen-set (every admitted URL) and the queue (state 0).
    auto stats = store_->LoadPageStats();
    if (!stats.ok()) return stats.status();
    next_page_id_ = stats->max_page_id + 1;
    stats_.pages_ok = stats->ok_pages;
    stats_.pages_failed = stats->pages - stats->ok_pages;
    Status s = store_->LoadFrontier([this](const FrontierRecord& r) {
      if (r.state == 0) {
        frontier_->Add({r.url, r.url_id, r.depth, r.parent_id, r.anchor, r.score});
      } else {
        frontier_->MarkSeen(r.url_id, r.url);
      }
      return true;
    });
    if (!s.ok()) return s;
    return store_->AddEvent("resume", "queued=" + std::to_string(frontier_->Queued()));
  }
  std::vector<FrontierRecord> rows;
  for (const auto& seed : config_.seeds) {
    auto url = ResolveLink("", seed);
    if (!url) {
      store_->AddEvent("bad_seed", seed);
      std::fprintf(stderr, "warning: seed is not a crawlable URL: %s\n", seed.c_str());
      continue;
    }
    LinkCandidate c{*url, DedupId(*url, config_.dedup_ignore_scheme), 0, 0, "",
                    strategy_->SeedScore()};
    if (frontier_->Add(c) == AddResult::kAdded) {
      rows.push_back({c.url_id, c.url, 0, 0, "", c.score, "{\"seed\":true}", 0});
    }
  }
  if (rows.empty()) return Status::Error("no crawlable seed URL");
  store_->SetMeta("started_at", std::to_string(clock_->UnixMillis()));
  Status s = store_->AddSeeds(rows);
  if (!s.ok()) return s;
  // Commit the seeds now: from here on the directory is resumable.
  return store_->Flush();
}

bool Crawler::Impl::CheckRobots(const CrawlTask& task) {
  // Returns true when the task may be fetched now. Otherwise the task has
  // been parked (robots.txt pending) or recorded (denied).
  if (!config_.respect_robots) return true;
  std::string key = RobotsHostKey(task.url);
  auto lookup = robots_->Lookup(key);
  if (lookup.state != RobotsCache::State::kReady) {
    frontier_->HoldHost(task.host_id);
    frontier_->Requeue(task);
    robots_waiting_[key].push_back(task.host_id);
    if (lookup.state == RobotsCache::State::kUnknown) {
      robots_->MarkPending(key);
      CrawlTask robots_task;
      robots_task.url = RobotsUrl(key);
      robots_task.host_id = task.host_id;
      fetcher_->Submit(std::move(robots_task), FetchKind::kRobots);
    }
    return false;
  }
  if (!robots_->Allowed(task.url, config_.robots_agent)) {
    ++stats_.robots_denied;
    FetchResult denied;
    denied.task = task;
    denied.status = FetchStatus::kRobotsDenied;
    denied.error = "disallowed by robots.txt";
    denied.fetched_at_unix_ms = clock_->UnixMillis();
    frontier_->Complete(task, {FetchStatus::kRobotsDenied, 0, -1});
    StoreFailure(std::move(denied));
    return false;
  }
  return true;
}

void Crawler::Impl::OnRobotsFetched(FetchResult result) {
  std::string key = RobotsHostKey(result.task.url);
  robots_->OnFetched(key, result.http_code, result.body, result.status);
  writer_->Post([detail = key + " " + std::string(FetchStatusName(result.status)) + " " +
                          std::to_string(result.http_code)](CrawlStore* store) {
    store->AddEvent("robots", detail);
  });
  auto delay = robots_->CrawlDelay(key);
  auto it = robots_waiting_.find(key);
  if (it == robots_waiting_.end()) return;
  for (HostId host : it->second) {
    // Crawl-delay is a floor on top of the configured delay.
    if (delay) frontier_->SetHostMinDelay(host, std::min(*delay, 60.0));
    frontier_->ReleaseHost(host);
  }
  robots_waiting_.erase(it);
}

void Crawler::Impl::Dispatch() {
  while (!Finished()) {
    // Never dispatch more page fetches than the page budget can still use,
    // and keep the parse backlog bounded.
    if (config_.max_pages > 0 &&
        stats_.pages_ok + static_cast<int64_t>(page_fetches_ + parsing_) >=
            config_.max_pages) {
      return;
    }
    if (parsing_ > static_cast<size_t>(4 * config_.concurrency)) return;
    // Deterministic mode: select the next URL only once the previous page's
    // links are in the frontier, so selection never depends on timing.
    if (config_.deterministic && page_fetches_ + parsing_ > 0) return;
    if (fetcher_->InFlight() >= static_cast<size_t>(config_.concurrency)) return;
    std::optional<CrawlTask> task = frontier_->Next();
    if (!task) return;
    if (!CheckRobots(*task)) continue;
    ++page_fetches_;
    fetcher_->Submit(std::move(*task), FetchKind::kPage);
  }
}

void Crawler::Impl::OnPageFetched(FetchResult result) {
  --page_fetches_;
  HostFeedback fb{result.status, result.http_code, result.retry_after_s};
  CompleteResult cr = frontier_->Complete(result.task, fb);
  if (cr == CompleteResult::kRetryQueued) {
    ++stats_.retries;
    return;
  }
  if (result.status != FetchStatus::kOk) {
    StoreFailure(std::move(result));
    return;
  }
  // A redirect target is the same page: never fetch it again.
  if (!result.final_url.empty() && result.final_url != result.task.url) {
    frontier_->MarkSeen(DedupId(result.final_url, config_.dedup_ignore_scheme),
                        result.final_url);
  }
  ++parsing_;
  pool_->Submit([this, r = std::move(result)]() mutable { Process(std::move(r)); });
}

void Crawler::Impl::Process(FetchResult result) {
  // Parse pool: CPU work only, no shared state but the strategy's
  // (thread-safe) statistics.
  ProcessedPage p;
  try {
    p.decoded = DecodeToUtf8(result.body, result.content_type);
    const std::string& base = result.final_url.empty() ? result.task.url : result.final_url;
    p.page = ParseHtml(p.decoded.utf8, base, parse_options_);
    strategy_->Assess(result.task, p.page, &p.assessment);
  } catch (const std::exception& e) {
    p.parse_error = e.what();
  }
  p.assessment.links.resize(p.page.links.size());
  p.fetch = std::move(result);
  {
    std::lock_guard<std::mutex> lock(processed_mu_);
    processed_.push_back(std::move(p));
  }
  fetcher_->Wakeup();
}

void Crawler::Impl::DrainProcessed() {
  std::deque<ProcessedPage> batch;
  {
    std::lock_guard<std::mutex> lock(processed_mu_);
    batch.swap(processed_);
  }
  for (auto& p : batch) {
    --parsing_;
    if (error_.ok()) StoreProcessed(std::move(p));
  }
}

bool Crawler::Impl::Admissible(const Outlink& link, uint32_t child_depth,
                               bool page_nofollow) const {
  if (link.url.empty()) return false;
  if ((link.nofollow || page_nofollow) && !config_.follow_nofollow) return false;
  if (config_.max_depth >= 0 && child_depth > static_cast<uint32_t>(config_.max_depth)) {
    return false;
  }
  return filters_.Decide(link.url) != FilterDecision::kReject;
}

void Crawler::Impl::StoreProcessed(ProcessedPage p) {
  const FetchResult& f = p.fetch;
  const CrawlTask& task = f.task;
  PageId id = next_page_id_;
  PageRecord rec;
  rec.url_id = task.url_id;
  rec.url = task.url;
  rec.final_url = f.final_url == task.url ? "" : f.final_url;
  rec.status = p.parse_error.empty() ? FetchStatus::kOk : FetchStatus::kParseError;
  rec.http_code = f.http_code;
  rec.content_type = f.content_type;
  rec.charset = p.decoded.charset;
  rec.fetched_at = f.fetched_at_unix_ms;
  rec.depth = task.depth;
  rec.parent_id = task.parent_page_id;
  rec.anchor = task.anchor;
  rec.relevance = p.assessment.relevance;
  rec.link_score = task.score;
  rec.title = p.page.title;
  rec.error = p.parse_error.empty() ? p.page.warning : p.parse_error;
  rec.explanation = p.assessment.explanation;
  rec.request_head = std::move(p.fetch.request_head);
  rec.response_head = std::move(p.fetch.response_head);
  rec.body = std::move(p.fetch.body);  // p is ours: no 30 KB copy
  rec.remote_ip = f.remote_ip;

  const uint32_t child_depth = task.depth + 1;
  for (size_t i = 0; i < p.page.links.size(); ++i) {
    const Outlink& link = p.page.links[i];
    const PageAssessment::Link& a = p.assessment.links[i];
    if (link.url.empty()) continue;
    ++stats_.links_seen;
    if (!a.admit || !Admissible(link, child_depth, p.page.nofollow)) continue;
    LinkCandidate c{link.url, DedupId(link.url, config_.dedup_ignore_scheme),
                    child_depth, id, link.anchor, a.score};
    if (frontier_->Add(c) == AddResult::kAdded) {
      ++stats_.links_queued;
      rec.admitted.push_back({c.url_id, std::move(c.url), child_depth, id, std::move(c.anchor),
                              c.score, a.explanation, 0});
    }
  }
  if (writer_->failed()) {  // the crawl stops; Finished() picks up the error
    if (error_.ok()) error_ = writer_->error();
    return;
  }
  const bool ok = rec.status == FetchStatus::kOk;
  stats_.bytes += static_cast<int64_t>(rec.body.size());
  if (ok) {
    ++stats_.pages_ok;
    if (strategy_->Beta() >= 0 && p.assessment.relevance >= strategy_->Beta()) {
      ++stats_.relevant;
    }
  } else {
    ++stats_.pages_failed;
  }
  strategy_->OnPageStored(task, id, p.page, p.assessment, frontier_.get());
  // The strategy is done with the page: its link strings move into the links
  // rows instead of being copied (~100 links, ~300 allocations a page).
  if (config_.store_links) {
    rec.links.reserve(p.page.links.size());
    for (size_t i = 0; i < p.page.links.size(); ++i) {
      Outlink& link = p.page.links[i];
      if (link.url.empty()) continue;
      PageAssessment::Link& a = p.assessment.links[i];
      rec.links.push_back({std::move(link.url), std::move(link.anchor), std::move(link.context),
                           a.score, std::move(a.explanation)});
    }
  }
  AddPageRecord(std::move(rec));
}

void Crawler::Impl::StoreFailure(FetchResult f) {
  PageRecord rec;
  rec.url_id = f.task.url_id;
  rec.url = f.task.url;
  rec.final_url = f.final_url == f.task.url ? "" : f.final_url;
  rec.status = f.status;
  rec.http_code = f.http_code;
  rec.content_type = f.content_type;
  rec.fetched_at = f.fetched_at_unix_ms ? f.fetched_at_unix_ms : clock_->UnixMillis();
  rec.depth = f.task.depth;
  rec.parent_id = f.task.parent_page_id;
  rec.anchor = f.task.anchor;
  rec.link_score = f.task.score;
  rec.error = std::move(f.error);
  rec.request_head = std::move(f.request_head);
  rec.response_head = std::move(f.response_head);
  rec.body = std::move(f.body);
  rec.remote_ip = std::move(f.remote_ip);
  if (AddPageRecord(std::move(rec)).ok()) ++stats_.pages_failed;
}

Status Crawler::Impl::AddPageRecord(PageRecord rec) {
  // The store assigns ids in call order, so the id is known now; a failed
  // write stops the crawl (Finished) and Run() returns its error.
  if (writer_->failed()) {
    if (error_.ok()) error_ = writer_->error();
    return error_;
  }
  writer_->AddPage(std::move(rec));
  ++next_page_id_;
  return Status::Ok();
}

bool Crawler::Impl::Finished() {
  if (error_.ok() && writer_->failed()) error_ = writer_->error();
  if (!error_.ok()) return true;
  if (stop_ && stop_->load()) {
    interrupted_ = true;
    return true;
  }
  if (config_.max_pages > 0 && stats_.pages_ok >= config_.max_pages) return true;
  if (frontier_->Queued() != 0 || fetcher_->InFlight() != 0 || parsing_ != 0) return false;
  return !RefillFromStrategy();
}

// The strategy's learned state goes to DIR/state/strategy.bin every
// kStateInterval, or less often when saving is slow (at most ~2 % of the
// crawl thread's time), and at the end of the crawl; a kill -9 loses at most
// one interval of learning (crawl/strategy_state.h).
void Crawler::Impl::CheckpointState() {
  constexpr auto kStateInterval = std::chrono::seconds(10);
  const TimePoint now = clock_->Now();
  if (now < next_state_save_) return;
  Status s = SaveStrategyState(*strategy_, config_.out_dir);
  const TimePoint done = clock_->Now();
  next_state_save_ = done + std::max<Duration>(kStateInterval, 50 * (done - now));
  if (!s.ok()) {
    std::fprintf(stderr, "warning: %s\n", s.message().c_str());
    writer_->Post([m = s.message()](CrawlStore* store) { store->AddEvent("state_error", m); });
  }
}

bool Crawler::Impl::RefillFromStrategy() {
  std::vector<FrontierRecord> rows;
  for (LinkCandidate& c : strategy_->Refill()) {
    if (config_.max_depth >= 0 && c.depth > static_cast<uint32_t>(config_.max_depth)) continue;
    if (filters_.Decide(c.url) == FilterDecision::kReject) continue;
    FrontierRecord row{c.url_id, c.url, c.depth, c.parent_page_id, c.anchor, c.score,
                       "{\"refill\":true}", 0};
    if (frontier_->Add(std::move(c)) == AddResult::kAdded) rows.push_back(std::move(row));
  }
  if (rows.empty()) return false;
  stats_.links_queued += static_cast<int64_t>(rows.size());
  // As frontier rows, so a resumed crawl still has them. The store belongs
  // to the writer thread while the loop runs; a failed write there is
  // sticky and stops the crawl at the next page.
  writer_->Post([rows = std::move(rows)](CrawlStore* store) {
    store->AddEvent("refill", std::to_string(rows.size()) + " links");
    store->AddSeeds(rows);
  });
  return true;
}

Duration Crawler::Impl::PollWait() {
  {
    std::lock_guard<std::mutex> lock(processed_mu_);
    if (!processed_.empty()) return Duration::zero();
  }
  Duration wait = std::chrono::milliseconds(100);
  TimePoint wake = frontier_->NextWakeup();
  TimePoint now = clock_->Now();
  if (wake <= now) {
    // A host is ready but nothing could be dispatched (concurrency or budget
    // full): wait for a transfer or a parsed page.
    return wait;
  }
  if (wake != TimePoint::max()) wait = std::min(wait, wake - now);
  return wait;
}

void Crawler::Impl::Progress(bool final) {
  TimePoint now = clock_->Now();
  stats_.elapsed_s = std::chrono::duration<double>(now - started_).count();
  stats_.queued = frontier_->Queued();
  stats_.hosts = frontier_->Hosts();
  stats_.in_flight = fetcher_->InFlight();
  if (config_.progress_interval_ms <= 0 && !final) return;
  if (!final && now - last_progress_ < std::chrono::milliseconds(config_.progress_interval_ms)) {
    return;
  }
  double dt = std::chrono::duration<double>(now - last_progress_).count();
  double rate = dt > 0 ? (stats_.pages_ok - last_progress_pages_) / dt : 0;
  if (final) rate = stats_.elapsed_s > 0 ? stats_.pages_ok / stats_.elapsed_s : 0;
  std::fprintf(stderr,
               "[%7.1fs] pages %lld ok, %lld failed | %.0f pages/s | queue %zu | "
               "hosts %zu | in flight %zu | errors %lld%s\n",
               stats_.elapsed_s, static_cast<long long>(stats_.pages_ok),
               static_cast<long long>(stats_.pages_failed), rate, stats_.queued,
               stats_.hosts, stats_.in_flight, static_cast<long long>(stats_.pages_failed),
               final ? " (final)" : "");
  last_progress_ = now;
  last_progress_pages_ = stats_.pages_ok;
}

Status Crawler::Impl::Run() {
  Status s = Setup();
  if (!s.ok()) return s;
  started_ = last_progress_ = clock_->Now();
  next_state_save_ = started_ + std::chrono::seconds(10);
  writer_ = std::make_unique<StoreWriter>(store_.get(), 256);
  writer_->Start();
  while (!Finished()) {
    DrainProcessed();
    Dispatch();
    for (FetchResult& r : fetcher_->Poll(PollWait())) {
      if (r.task.url_id == 0) {  // robots.txt transfers carry no frontier id
        OnRobotsFetched(std::move(r));
      } else {
        OnPageFetched(std::move(r));
      }
    }
    Progress(false);
    CheckpointState();
  }
  // Let parsed pages land; abandon in-flight fetches (they are re-fetched on
  // resume: their frontier rows are still state 0).
  pool_->WaitIdle();
  DrainProcessed();
  // Where the CPU went (read while the threads still exist): the crawl
  // thread (fetching, frontier) is the process's own name.
  const std::string cpu = FormatThreadCpu(ThreadCpuSecondsByName());
  writer_->Stop();  // every queued page is in the store's batch now
  if (error_.ok() && writer_->failed()) error_ = writer_->error();
  Progress(true);
  if (config_.progress_interval_ms > 0 && !cpu.empty()) {
    std::fprintf(stderr, "cpu by thread: %s\n", cpu.c_str());
  }
  if (!cpu.empty()) store_->AddEvent("cpu", cpu);
  store_->SetMeta("finished_at", std::to_string(clock_->UnixMillis()));
  store_->AddEvent(interrupted_ ? "interrupted" : "finished",
                   "pages_ok=" + std::to_string(stats_.pages_ok));
  Status saved = SaveStrategyState(*strategy_, config_.out_dir);
  Status fin = strategy_->Finish();
  Status closed = store_->Close();
  if (!error_.ok()) return error_;
  if (!saved.ok()) return saved;
  if (!fin.ok()) return fin;
  return closed;
}

Crawler::Crawler(CrawlConfig config, const std::atomic<bool>* stop)
    : impl_(std::make_unique<Impl>(std::move(config), stop)) {}
Crawler::~Crawler() = default;
Status Crawler::Run() { return impl_->Run(); }
const CrawlStats& Crawler::stats() const { return impl_->stats(); }
bool Crawler::interrupted() const { return impl_->interrupted(); }

}  // namespace topicrawl
