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
#include "crawl/cluster_role.h"
#include "crawl/crawl_monitor.h"
#include "crawl/crawl_strategy.h"
#include "crawl/dedup.h"
#include "crawl/round_state.h"
#include "crawl/store_writer.h"
#include "crawl/strategy_state.h"
#include "crawl/url_trap.h"
#include "crawl/url_trap_restore.h"
#include "fetch/charset.h"
#include "fetch/fetcher.h"
#include "frontier/frontier.h"
#include "frontier/link_selector.h"
#include "parse/html_parser.h"
#include "robots/robots_cache.h"
#include "store/crawl_store.h"
#include "text/simhash.h"
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
  uint64_t digest = 0;      // Hash64 of the body (rounds: change detection)
  uint64_t simhash = 0;     // SimHash64 of the text (near-duplicates)
};

FetcherOptions MakeFetcherOptions(const CrawlConfig& c) {
  FetcherOptions o;
  o.user_agent = c.user_agent;
  o.connect_to = c.connect_to;
  o.resolve = c.resolve;
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
  o.retry_delay_s = c.retry_delay_s;
  o.backoff_max_s = c.backoff_max_s;
  o.max_retry_after_s = c.max_retry_after_s;
  o.host_failure_budget = static_cast<uint32_t>(c.host_failure_budget);
  o.max_pages_per_host = static_cast<uint64_t>(c.max_pages_per_host);
  o.spill_dir = c.out_dir + "/spill";
  return o;
}

}  // namespace

class Crawler::Impl {
 public:
  Impl(CrawlConfig config, const std::atomic<bool>* stop)
      : config_(std::move(config)),
        stop_(stop),
        clock_(SystemClock()),
        traps_(MakeTrapOptions(config_)) {}

  Status Run();
  const CrawlStats& stats() const { return stats_; }
  bool interrupted() const { return interrupted_; }
  CrawlMonitor* monitor_ = nullptr;  // optional (SetMonitor)
  ClusterRole* cluster_ = nullptr;   // optional (SetClusterRole)

 private:
  void ServeMonitor(TimePoint now, bool final);
  void ReportToMonitor(const PageRecord& rec, HostId host, bool relevant);
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
  // Rounds: a revisit answered 304 / with an equal digest / gone / failed.
  bool StoreKeptRevisit(FetchResult* result);
  void SetRoundFields(const FetchResult& f, PageRecord* rec);
  Status AddPageRecord(PageRecord rec);
  bool Admissible(const Outlink& link, uint32_t child_depth, bool page_nofollow) const;
  bool Finished();
  bool RefillFromStrategy();  // true when the strategy queued something
  void CheckpointState();     // periodic save of the strategy's state
  void Progress(bool final);
  Duration PollWait();
  // Back-off bookkeeping (issue #10): host state changes become events, URLs
  // of given-up hosts become host_failed rows.
  void NoteHostHealth(HostId host, const HostHealth& before);
  void RecordAbandoned();
  void RecordRefusal(const CrawlTask& task, FetchStatus status, std::string why);
  PageRecord TransferRecord(FetchResult& f);
  std::string WaitingReason();
  void ClusterTick(bool force);  // cluster mode: hand-off, release, take
  void ReportHostToCluster(UrlId url_id, bool ok, const std::string& url);
  static UrlTrapOptions MakeTrapOptions(const CrawlConfig& c) {
    UrlTrapOptions o;
    o.max_urls_per_pattern = static_cast<uint32_t>(c.max_urls_per_pattern);
    o.max_url_params = c.max_url_params;
    return o;
  }

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
  UrlTrapGuard traps_;
  // robots.txt host key -> why its address was refused (SSRF rule): the
  // host's URLs are recorded as refused_address, not robots_denied.
  std::map<std::string, std::string> refused_hosts_;
  // robots.txt host key -> why its robots.txt was unreachable (RFC 9309
  // 2.3.1.4: disallow all), the reason stored with each denied URL.
  std::map<std::string, std::string> robots_unreachable_;
  ParseOptions parse_options_;

  std::mutex processed_mu_;
  std::deque<ProcessedPage> processed_;  // guarded by processed_mu_
  size_t parsing_ = 0;                   // submitted to the pool, not drained
  size_t page_fetches_ = 0;              // page transfers in flight
  // robots.txt host key -> frontier hosts parked until it arrives.
  std::map<std::string, std::vector<HostId>> robots_waiting_;

  RoundState round_;  // round number, pending revisits, SimHash index
  PageId next_page_id_ = 1;
  Status error_;  // first storage error; stops the crawl
  CrawlStats stats_;
  bool interrupted_ = false;
  TimePoint started_{};
  TimePoint last_progress_{};
  int64_t last_progress_pages_ = 0;
  TimePoint next_state_save_{};
  TimePoint next_cluster_tick_{};
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
  if (!needs.text && !(config_.store_links && config_.store_link_details)) {
    parse_options_.context_window_words = 0;
  }
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
    // The summary's relevant count covers the directory, like pages_ok.
    if (strategy_->Beta() >= 0) {
      auto relevant = store_->CountRelevantPages(strategy_->Beta());
      if (!relevant.ok()) return relevant.status();
      stats_.relevant = *relevant;
    }
    // Rounds: the round's pending revisits are queued again (their frontier
    // rows are done since an earlier round), and --max-pages counts this
    // round's fetches only.
    std::vector<RevisitRecord> revisits;
    if (Status s = round_.Load(store_.get(), &revisits); !s.ok()) return s;
    if (round_.round() > 0) {
      stats_.pages_ok = stats_.pages_failed = 0;
      Status s = store_->ForEachFetch(round_.round(), [this](const FetchRow& f) {
        ++(f.state == UrlState::kFailed || f.state == UrlState::kGone ? stats_.pages_failed
                                                                      : stats_.pages_ok);
        return true;
      });
      if (!s.ok()) return s;
    }
    stats_.pages_ok_before = stats_.pages_ok;
    Status s = store_->LoadFrontier([this](const FrontierRecord& r) {
      if (r.state == 0) {
        frontier_->Add({r.url, r.url_id, r.depth, r.parent_id, r.anchor, r.score});
      } else if (round_.Find(r.url_id) == nullptr) {
        frontier_->MarkSeen(r.url_id, r.url);
      }
      return true;
    });
    if (!s.ok()) return s;
    for (const RevisitRecord& r : revisits) {
      frontier_->Add({r.url, r.url_id, r.depth, r.parent_id, r.anchor, r.priority});
    }
    // The trap budget goes on where it stopped (crawl/url_trap_restore.h).
    if (Status t = RestoreTrapCounts(store_.get(), &traps_, nullptr); !t.ok()) return t;
    return store_->AddEvent("resume", "round=" + std::to_string(round_.round()) +
                                          " revisits=" + std::to_string(revisits.size()) +
                                          " queued=" + std::to_string(frontier_->Queued()));
  }
  {
    std::vector<RevisitRecord> none;
    if (Status s = round_.Load(store_.get(), &none); !s.ok()) return s;
  }
  if (cluster_) return store_->AddEvent("cluster", "worker of a clustered crawl");
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
  if (auto refused = refused_hosts_.find(key); refused != refused_hosts_.end()) {
    RecordRefusal(task, FetchStatus::kPrivateAddress, refused->second);
    return false;
  }
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
    auto why = robots_unreachable_.find(key);
    denied.error = why == robots_unreachable_.end() ? "disallowed by robots.txt" : why->second;
    denied.fetched_at_unix_ms = clock_->UnixMillis();
    frontier_->Complete(task, {FetchStatus::kRobotsDenied, 0, -1});
    StoreFailure(std::move(denied));
    return false;
  }
  return true;
}

void Crawler::Impl::OnRobotsFetched(FetchResult result) {
  std::string key = RobotsHostKey(result.task.url);
  if (result.status == FetchStatus::kPrivateAddress) {
    // Not "unreachable": we refused the address. The host's URLs are
    // recorded as what they are (CheckRobots), with the address and rule.
    refused_hosts_[key] = result.error;
  }
  const bool unavailable = result.status == FetchStatus::kHttpError &&
                           result.http_code >= 400 && result.http_code < 500 &&
                           result.http_code != 429;
  if (result.status == FetchStatus::kOk || result.status == FetchStatus::kNotModified ||
      unavailable) {
    robots_unreachable_.erase(key);
  } else {
    robots_unreachable_[key] =
        "robots.txt unreachable (" + std::string(FetchStatusName(result.status)) +
        (result.http_code ? " " + std::to_string(result.http_code) : std::string()) + ": " +
        result.error + "), so RFC 9309 2.3.1.4 disallows the whole host";
  }
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
    // The focus window (CrawlConfig::focus_window): pages chosen before
    // their parents' links reached the frontier.
    if (config_.focus_window > 0 &&
        page_fetches_ + parsing_ >= static_cast<size_t>(config_.focus_window)) {
      return;
    }
    // Deterministic mode: select the next URL only once the previous page's
    // links are in the frontier, so selection never depends on timing.
    if (config_.deterministic && page_fetches_ + parsing_ > 0) return;
    if (fetcher_->InFlight() >= static_cast<size_t>(config_.concurrency)) return;
    std::optional<CrawlTask> task = frontier_->Next();
    if (!task) return;
    if (!CheckRobots(*task)) continue;
    // Retries were counted when first dispatched; planned revisits of a
    // round were admitted in an earlier round and are not trap candidates.
    if (std::string why = task->attempt == 0 && round_.Find(task->url_id) == nullptr
                              ? traps_.Check(task->url)
                              : std::string();
        !why.empty()) {
      RecordRefusal(*task, FetchStatus::kTrapRefused, std::move(why));
      continue;
    }
    round_.Prepare(&*task);
    ++page_fetches_;
    fetcher_->Submit(std::move(*task), FetchKind::kPage);
  }
}

void Crawler::Impl::OnPageFetched(FetchResult result) {
  --page_fetches_;
  HostFeedback fb{result.status, result.http_code, result.retry_after_s};
  fb.host_unreachable = result.host_unreachable;
  const bool transient = IsTransient(result.status, result.http_code);
  HostHealth before;
  if (transient && result.task.host_id < frontier_->Hosts()) {
    before = frontier_->Health(result.task.host_id);
  }
  CompleteResult cr = frontier_->Complete(result.task, fb);
  if (transient) NoteHostHealth(result.task.host_id, before);
  if (cr == CompleteResult::kRetryQueued) {
    ++stats_.retries;
    return;
  }
  if (StoreKeptRevisit(&result)) return;
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
    p.digest = Hash64(result.body);
    p.simhash = SimHash64(p.page.text);
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
  rec.digest = p.digest;
  rec.simhash = p.simhash;
  rec.out_links = static_cast<int64_t>(p.page.links.size());
  SetRoundFields(f, &rec);
  if (const RoundState::Revisit* rv = round_.Find(task.url_id)) {
    rec.fetch_state = RoundState::ClassifyChange(*rv, p.simhash);
    rec.version_id = rv->version_id;
    round_.Done(task.url_id);
  }
  if (rec.status == FetchStatus::kOk) {
    rec.near_duplicate_of = round_.NearDuplicateAndAdd(p.simhash, id, task.url_id);
  }
  const bool follow = round_.follow_new_links() &&
                      (rec.near_duplicate_of == 0 || config_.near_duplicate_follow_links);

  const uint32_t child_depth = task.depth + 1;
  for (size_t i = 0; follow && i < p.page.links.size(); ++i) {
    const Outlink& link = p.page.links[i];
    const PageAssessment::Link& a = p.assessment.links[i];
    if (link.url.empty()) continue;
    ++stats_.links_seen;
    if (!a.admit || !Admissible(link, child_depth, p.page.nofollow)) continue;
    LinkCandidate c{link.url, DedupId(link.url, config_.dedup_ignore_scheme),
                    child_depth, id, link.anchor, a.score};
    if (cluster_) {  // the cluster's seen-set decides; the owner queues it
      cluster_->Route(c);
      continue;
    }
    if (frontier_->Add(c) == AddResult::kAdded) {
      ++stats_.links_queued;
      // The admitting link's explanation only with --link-details, as for
      // the links rows: it was ~120 of a frontier row's ~230 bytes.
      rec.admitted.push_back({c.url_id, std::move(c.url), child_depth, id, std::move(c.anchor),
                              c.score, config_.store_link_details ? a.explanation : std::string(),
                              0});
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
  if (monitor_) {
    ReportToMonitor(rec, task.host_id,
                    ok && strategy_->Beta() >= 0 && p.assessment.relevance >= strategy_->Beta());
  }
  // The strategy is done with the page: its link strings move into the links
  // rows instead of being copied (~100 links, ~300 allocations a page).
  if (config_.store_links) {
    rec.links.reserve(p.page.links.size());
    for (size_t i = 0; i < p.page.links.size(); ++i) {
      Outlink& link = p.page.links[i];
      if (link.url.empty()) continue;
      PageAssessment::Link& a = p.assessment.links[i];
      if (config_.store_link_details) {
        rec.links.push_back({std::move(link.url), std::move(link.anchor),
                             std::move(link.context), a.score, std::move(a.explanation)});
      } else {
        rec.links.push_back({std::move(link.url), std::move(link.anchor), {}, a.score, {}});
      }
    }
  }
  AddPageRecord(std::move(rec));
}

// The parts of a pages row that come straight from the transfer (moves the
// heads, body and error out of `f`; its task stays usable).
PageRecord Crawler::Impl::TransferRecord(FetchResult& f) {
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
  return rec;
}

void Crawler::Impl::StoreFailure(FetchResult f) {
  PageRecord rec = TransferRecord(f);
  if (monitor_) ReportToMonitor(rec, f.task.host_id, false);
  SetRoundFields(f, &rec);
  rec.fetch_state =
      f.http_code == 404 || f.http_code == 410 ? UrlState::kGone : UrlState::kFailed;
  if (const RoundState::Revisit* rv = round_.Find(rec.url_id)) {
    // A revisit that never got an answer (robots, parse pool): the version
    // stays; no pages row.
    rec.store_version = false;
    rec.version_id = rv->version_id;
    rec.digest = rv->digest;
    rec.simhash = rv->simhash;
    rec.out_links = rv->out_links;
    rec.etag = rv->etag;
    rec.last_modified = rv->last_modified;
    round_.Done(rec.url_id);
    if (writer_->failed()) {
      if (error_.ok()) error_ = writer_->error();
      return;
    }
    ++stats_.pages_failed;
    writer_->AddPage(std::move(rec));
    return;
  }
  if (AddPageRecord(std::move(rec)).ok()) ++stats_.pages_failed;
}

void Crawler::Impl::RecordRefusal(const CrawlTask& task, FetchStatus status, std::string why) {
  FetchResult refused;
  refused.task = task;
  refused.status = status;
  refused.error = std::move(why);
  refused.fetched_at_unix_ms = clock_->UnixMillis();
  frontier_->Complete(task, {status, 0, -1});
  StoreFailure(std::move(refused));
}

void Crawler::Impl::NoteHostHealth(HostId host, const HostHealth& before) {
  if (host >= frontier_->Hosts()) return;
  HostHealth now = frontier_->Health(host);
  const std::string& key = frontier_->HostKey(host);
  if (now.failed && !before.failed) {
    std::string why = frontier_->HostFailureReason(host);
    std::fprintf(stderr, "warning: %s\n", why.c_str());
    writer_->Post([why](CrawlStore* store) { store->AddEvent("host_failed", why); });
  } else if (now.backoff_level > before.backoff_level) {
    double wait = std::chrono::duration<double>(now.next_start - clock_->Now()).count();
    char detail[512];
    std::snprintf(detail, sizeof(detail),
                  "%s backed off %.1f s: %u consecutive failures (last: %s), level %d",
                  key.c_str(), std::max(0.0, wait), now.consecutive_failures,
                  now.last_failure.c_str(), now.backoff_level);
    writer_->Post([d = std::string(detail)](CrawlStore* store) {
      store->AddEvent("host_backoff", d);
    });
  }
}

void Crawler::Impl::RecordAbandoned() {
  for (CrawlTask& task : frontier_->TakeAbandoned()) {
    FetchResult r;
    r.status = FetchStatus::kHostFailed;
    r.error = frontier_->HostFailureReason(task.host_id);
    r.fetched_at_unix_ms = clock_->UnixMillis();
    r.task = std::move(task);
    StoreFailure(std::move(r));
  }
}

std::string Crawler::Impl::WaitingReason() {
  WaitReport w = frontier_->Waiting();
  std::string out;
  auto add = [&out](const std::string& part) { out += (out.empty() ? "" : ", ") + part; };
  if (w.hosts_backed_off > 0) {
    add(std::to_string(w.hosts_backed_off) + " host" + (w.hosts_backed_off > 1 ? "s" : "") +
        " backed off (" + w.worst_host + ": " + std::to_string(w.worst_failures) + " failures)");
  }
  if (w.retries_delayed > 0) add(std::to_string(w.retries_delayed) + " URL retries delayed");
  if (w.hosts_held > 0) add(std::to_string(w.hosts_held) + " hosts wait for robots.txt");
  if (w.hosts_delayed > 0) add(std::to_string(w.hosts_delayed) + " hosts in politeness delay");
  if (w.hosts_busy > 0) add(std::to_string(w.hosts_busy) + " hosts busy");
  if (out.empty()) add("strategy or page budget");
  if (w.next != TimePoint::max()) {
    double s = std::chrono::duration<double>(w.next - clock_->Now()).count();
    char buf[64];
    std::snprintf(buf, sizeof(buf), "waiting %.0f s: ", std::max(0.0, s));
    return buf + out;
  }
  return "waiting: " + out;
}

void Crawler::Impl::SetRoundFields(const FetchResult& f, PageRecord* rec) {
  rec->round = round_.round();
  rec->fetch_state = UrlState::kNew;
  rec->revisit = round_.Find(f.task.url_id) != nullptr;
  rec->etag = f.etag;
  rec->last_modified = f.last_modified;
}

bool Crawler::Impl::StoreKeptRevisit(FetchResult* result) {
  // A revisit whose stored version stays valid is decided here, before any
  // parsing: 304, an equal body digest, gone (404/410) or another failure.
  // Changed bodies go on to the parse pool like new pages.
  const RoundState::Revisit* rv = round_.Find(result->task.url_id);
  if (rv == nullptr) return false;
  const uint64_t digest = result->status == FetchStatus::kOk ? Hash64(result->body) : 0;
  PageRecord::RevisitProfile profile;
  std::optional<UrlState> state = RoundState::ClassifyBeforeParse(*rv, *result, digest, &profile);
  if (!state) return false;
  FetchResult& f = *result;
  PageRecord rec = TransferRecord(f);
  if (*state == UrlState::kUnchanged) rec.status = FetchStatus::kOk;
  rec.round = round_.round();
  rec.revisit = true;
  rec.fetch_state = *state;
  rec.store_version = false;
  rec.version_id = rv->version_id;
  rec.revisit_profile = profile;
  // The version's digest, SimHash and validators carry forward (a 304 may
  // send fresh validators).
  rec.digest = rv->digest;
  rec.simhash = rv->simhash;
  rec.out_links = rv->out_links;
  rec.etag = f.etag.empty() ? rv->etag : f.etag;
  rec.last_modified = f.last_modified.empty() ? rv->last_modified : f.last_modified;
  round_.Done(rec.url_id);
  if (writer_->failed()) {
    if (error_.ok()) error_ = writer_->error();
    return true;
  }
  stats_.bytes += static_cast<int64_t>(rec.body.size());
  ++(*state == UrlState::kUnchanged ? stats_.pages_ok : stats_.pages_failed);
  writer_->AddPage(std::move(rec));  // no page id: the version stays
  return true;
}

Status Crawler::Impl::AddPageRecord(PageRecord rec) {
  // The store assigns ids in call order, so the id is known now; a failed
  // write stops the crawl (Finished) and Run() returns its error.
  if (writer_->failed()) {
    if (error_.ok()) error_ = writer_->error();
    return error_;
  }
  const UrlId url_id = rec.url_id;
  const bool ok = rec.status == FetchStatus::kOk;
  std::string url = cluster_ ? rec.url : std::string();
  writer_->AddPage(std::move(rec));
  ++next_page_id_;
  if (cluster_) ReportHostToCluster(url_id, ok, url);
  return Status::Ok();
}

bool Crawler::Impl::Finished() {
  if (error_.ok() && writer_->failed()) error_ = writer_->error();
  if (!error_.ok()) return true;
  if ((stop_ && stop_->load()) || (monitor_ && monitor_->stop_requested())) {
    interrupted_ = true;
    return true;
  }
  if (config_.max_pages > 0 && stats_.pages_ok >= config_.max_pages) return true;
  if (frontier_->Queued() != 0 || fetcher_->InFlight() != 0 || parsing_ != 0) return false;
  if (cluster_) {
    if (!cluster_->Over()) return false;
    interrupted_ = cluster_->StopRequested();
    return true;
  }
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
  if (monitor_ && !final) ServeMonitor(now, false);  // "finished": after Close()
  if (config_.progress_interval_ms <= 0 && !final) return;
  if (!final && now - last_progress_ < std::chrono::milliseconds(config_.progress_interval_ms)) {
    return;
  }
  double dt = std::chrono::duration<double>(now - last_progress_).count();
  double rate = dt > 0 ? (stats_.pages_ok - last_progress_pages_) / dt : 0;
  if (final) rate = stats_.RunRate();
  // Nothing in flight but work queued: say why the crawl waits (issue #10).
  std::string waiting;
  if (!final && stats_.in_flight == 0 && stats_.queued > 0 && parsing_ == 0) {
    waiting = " | " + WaitingReason();
  }
  std::fprintf(stderr,
               "[%7.1fs] pages %lld ok, %lld failed | %.0f pages/s | queue %zu | "
               "hosts %zu | in flight %zu | errors %lld%s%s\n",
               stats_.elapsed_s, static_cast<long long>(stats_.pages_ok),
               static_cast<long long>(stats_.pages_failed), rate, stats_.queued,
               stats_.hosts, stats_.in_flight, static_cast<long long>(stats_.pages_failed),
               waiting.c_str(), final ? " (final)" : "");
  last_progress_ = now;
  last_progress_pages_ = stats_.pages_ok;
}

// The monitor hooks (crawl/crawl_monitor.h): a snapshot every publish
// interval, seeds posted through the REST API added like the initial ones.
void Crawler::Impl::ReportToMonitor(const PageRecord& rec, HostId host, bool relevant) {
  MonitoredPage m;
  m.id = next_page_id_;
  m.host = host;
  m.ok = rec.status == FetchStatus::kOk;
  m.relevant = relevant;
  m.relevance = rec.relevance.value_or(0);
  m.link_score = rec.link_score;
  m.depth = rec.depth;
  m.fetched_at_ms = rec.fetched_at;
  m.status = FetchStatusName(rec.status);
  m.url = &rec.url;
  m.title = &rec.title;
  monitor_->OnPage(m);
}

void Crawler::Impl::ServeMonitor(TimePoint now, bool final) {
  if (!final && monitor_->seeds_pending()) {
    std::vector<FrontierRecord> rows;
    for (const std::string& seed : monitor_->TakeSeeds()) {
      auto url = ResolveLink("", seed);
      if (!url || filters_.Decide(*url) == FilterDecision::kReject) continue;
      LinkCandidate c{*url, DedupId(*url, config_.dedup_ignore_scheme), 0, 0, "",
                      strategy_->SeedScore()};
      if (frontier_->Add(c) == AddResult::kAdded) {
        rows.push_back({c.url_id, c.url, 0, 0, "", c.score, "{\"seed\":\"api\"}", 0});
      }
    }
    if (!rows.empty()) {
      stats_.links_queued += static_cast<int64_t>(rows.size());
      writer_->Post([rows = std::move(rows)](CrawlStore* store) {
        store->AddEvent("api_seeds", std::to_string(rows.size()) + " seeds");
        store->AddSeeds(rows);
      });
    }
  }
  if (!final && !monitor_->PublishDue(now)) return;
  const char* state = final ? (interrupted_ ? "stopped" : "finished")
                      : monitor_->stop_requested() ? "stopping"
                                                   : "running";
  monitor_->Publish(stats_, frontier_.get(), now, clock_->UnixMillis(), state);
}

Status Crawler::Impl::Run() {
  Status s = Setup();
  if (!s.ok()) return s;
  started_ = last_progress_ = clock_->Now();
  next_state_save_ = started_ + std::chrono::seconds(10);
  if (monitor_) {
    monitor_->SetStrategy(config_.strategy, strategy_->Beta());
    monitor_->SetWakeup([f = fetcher_.get()] { f->Wakeup(); });
  }
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
    RecordAbandoned();
    ClusterTick(false);
    Progress(false);
    CheckpointState();
  }
  // Let parsed pages land; abandon in-flight fetches (they are re-fetched on
  // resume: their frontier rows are still state 0). Each closing step says
  // what it does (issue 12: a 1 M-page crawl was silent for ~90 s here).
  const TimePoint loop_end = clock_->Now();
  auto closing = [&](const std::string& what) {
    if (config_.progress_interval_ms <= 0) return;
    std::fprintf(stderr, "[%7.1fs] closing (+%.1fs): %s\n",
                 std::chrono::duration<double>(clock_->Now() - started_).count(),
                 std::chrono::duration<double>(clock_->Now() - loop_end).count(), what.c_str());
  };
  if (parsing_ > 0) closing("waiting for " + std::to_string(parsing_) + " pages being parsed");
  pool_->WaitIdle();
  DrainProcessed();
  RecordAbandoned();
  // Where the CPU went (read while the threads still exist): the crawl
  // thread (fetching, frontier) is the process's own name.
  const std::string cpu = FormatThreadCpu(ThreadCpuSecondsByName());
  if (monitor_) monitor_->SetWakeup(nullptr);  // the fetcher goes with this crawler
  closing("flushing " + std::to_string(writer_->queued()) + " queued store operations");
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
  closing("writing strategy state");
  Status saved = SaveStrategyState(*strategy_, config_.out_dir);
  if (!interrupted_ && error_.ok() && saved.ok() && store_->schema_version() >= 3) {
    // The round is complete: `recrawl` may plan the next one
    // (crawl/rounds/round_runner.h, RoundFinishedKey).
    store_->SetMeta("round_finished." + std::to_string(round_.round()),
                    std::to_string(clock_->UnixMillis()));
  }
  // The store closes first: a strategy may write its own tables into
  // crawl.db (jlse's LinkTable/ResultTable) through its own connection.
  const int64_t merging = store_->pending_frontier_rows();  // 0 but for old schemas
  closing(merging > 0 ? "committing the store: merging " + std::to_string(merging) +
                            " frontier rows, WAL checkpoint"
                      : std::string("committing the store, WAL checkpoint"));
  Status closed = store_->Close();
  if (cluster_ && closed.ok()) {
    closing("handing off the last outlinks to the cluster");
    if (Status f = cluster_->FinalFlush(); !f.ok()) {
      std::fprintf(stderr, "warning: cluster: %s\n", f.message().c_str());
    }
  }
  closing("finishing the strategy");
  Status fin = strategy_->Finish();
  if (monitor_) ServeMonitor(clock_->Now(), true);  // readers now see every page
  closing("releasing the fetcher and parse threads");
  fetcher_.reset();
  pool_.reset();
  closing("releasing the frontier (" + std::to_string(frontier_->Queued()) + " queued)");
  frontier_.reset();
  closing("done");
  if (!saved.ok() && error_.ok() && closed.ok()) return saved;
  if (!error_.ok() || !closed.ok()) {
    // Disk full, I/O error: every write after the last commit is dropped
    // (SQLite rolls back; resume cuts the WARC tail), nothing is half-kept.
    const Status& cause = !error_.ok() ? error_ : closed;
    return Status::Error("storing the crawl failed, so it stopped: " + cause.message() +
                         ". The directory is resumable: free space (or fix the disk) and run "
                         "`topicrawl crawl --resume " + config_.out_dir + "`");
  }
  if (!fin.ok()) return fin;
  return closed;
}

// Cluster mode (crawl/cluster_role.h): every ~50 ms, or at once when the
// frontier ran dry, links go out, committed fates are released and URLs of
// this worker's shards come in. The take keeps ~4 x concurrency queued
// locally: enough to fill the connections, few enough that a shard handed
// to a joining worker drains quickly.
void Crawler::Impl::ClusterTick(bool force) {
  if (!cluster_) return;
  const TimePoint now = clock_->Now();
  const size_t queued = frontier_->Queued();
  const size_t low = 2 * static_cast<size_t>(config_.concurrency);
  if (!force && now < next_cluster_tick_ && queued > 0) return;
  if (!force && now < next_cluster_tick_ - std::chrono::milliseconds(40)) return;
  next_cluster_tick_ = now + std::chrono::milliseconds(50);
  const size_t want = queued < low ? 2 * low - queued : 0;
  std::vector<LinkCandidate> taken;
  std::vector<UrlId> to_commit;
  if (Status s = cluster_->Tick(want, &taken, &to_commit); !s.ok()) {
    std::fprintf(stderr, "warning: cluster: %s (retrying)\n", s.message().c_str());
  }
  // Politeness of hosts of shards taken over, before their URLs arrive.
  for (const HostPoliteness& p : cluster_->TakeArrivedHosts()) {
    if (p.host_key.empty()) continue;
    const HostId host = frontier_->InternHostKey(p.host_key);
    if (p.crawl_delay_s > 0) frontier_->SetHostMinDelay(host, p.crawl_delay_s);
    HostHealth h;
    h.backoff_level = p.backoff_level;
    h.consecutive_failures = p.consecutive_failures;
    h.failed = p.failed;
    h.last_failure = "reported by the host's previous worker";
    h.next_start = now + std::chrono::milliseconds(std::max<int64_t>(
                             0, p.not_before_unix_ms - clock_->UnixMillis()));
    frontier_->AdoptHostHealth(host, h);
  }
  for (LinkCandidate& c : taken) {
    const UrlId id = c.url_id;
    // Known here already (a redirect target, a re-queued URL): released.
    if (frontier_->Add(std::move(c)) != AddResult::kAdded) cluster_->Finished(id, false);
  }
  if (!to_commit.empty()) {
    writer_->Post([ids = std::move(to_commit), role = cluster_](CrawlStore* store) mutable {
      if (store->Flush().ok()) role->Committed(std::move(ids));
    });
  }
}

// The fate and the host's politeness state after the frontier applied the
// outcome: the cluster hands the state over with the host's shard.
void Crawler::Impl::ReportHostToCluster(UrlId url_id, bool ok, const std::string& url) {
  cluster_->Finished(url_id, ok);
  auto host = frontier_->InternHost(url);
  if (!host) return;
  const Frontier::HostInfo info = frontier_->GetHostInfo(*host);
  const HostHealth health = frontier_->Health(*host);
  HostPoliteness p;
  p.host_key = frontier_->HostKey(*host);
  p.crawl_delay_s = info.min_delay_s;
  p.not_before_unix_ms =
      clock_->UnixMillis() +
      std::chrono::duration_cast<std::chrono::milliseconds>(info.next_start - clock_->Now()).count();
  p.backoff_level = health.backoff_level;
  p.consecutive_failures = health.consecutive_failures;
  p.failed = health.failed;
  cluster_->HostState(p);
}

Crawler::Crawler(CrawlConfig config, const std::atomic<bool>* stop)
    : impl_(std::make_unique<Impl>(std::move(config), stop)) {}
Crawler::~Crawler() = default;
void Crawler::SetMonitor(CrawlMonitor* monitor) { impl_->monitor_ = monitor; }
void Crawler::SetClusterRole(ClusterRole* role) { impl_->cluster_ = role; }
Status Crawler::Run() { return impl_->Run(); }
const CrawlStats& Crawler::stats() const { return impl_->stats(); }
bool Crawler::interrupted() const { return impl_->interrupted(); }

}  // namespace topicrawl
