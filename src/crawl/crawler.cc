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
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/hash.h"
#include "core/thread_pool.h"
#include "crawl/cluster_role.h"
#include "crawl/crawler_impl.h"
#include "crawl/crawl_monitor.h"
#include "crawl/crawl_strategy.h"
#include "crawl/dedup.h"
#include "crawl/round_state.h"
#include "crawl/store_writer.h"
#include "crawl/strategy_state.h"
#include "crawl/url_trap.h"
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
  o.connection_cache_size = static_cast<long>(c.connection_cache);
  return o;
}

namespace {

// TDMRep (W3C TDM Reservation Protocol, 2024) §3.3: a host's TDM policy file.
constexpr char kTdmRepPath[] = "/.well-known/tdmrep.json";

FrontierOptions MakeFrontierOptions(const CrawlConfig& c, const StrategyTraits& traits) {
  FrontierOptions o;
  o.keep_max_on_duplicate = traits.keep_max_on_duplicate;
  if (traits.focus_gated) o.focus_tolerance = c.focus_tolerance;
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
  o.max_in_ram_total = static_cast<size_t>(c.queue_in_ram);
  o.max_in_ram_per_host = static_cast<size_t>(c.queue_in_ram_per_host);
  return o;
}

}  // namespace

Status Crawler::Impl::Setup() {
  CrawlStoreOptions store_options;
  if (config_.warc_compression == "zstd") {
    store_options.warc.compression = WarcCompression::kZstd;
  } else if (config_.warc_compression != "gzip") {
    return Status::Error("warc_compression must be gzip or zstd, not '" +
                         config_.warc_compression + "'");
  }
  auto store = CrawlStore::Open(config_.out_dir,
                                config_.resume ? OpenMode::kResume : OpenMode::kCreate,
                                store_options);
  if (!store.ok()) return store.status();
  store_ = std::move(store).value();

  StrategyContext ctx;
  ctx.topic_file = config_.topic_file;
  ctx.out_dir = config_.out_dir;
  ctx.rng_seed = config_.rng_seed;
  ctx.dedup_ignore_scheme = config_.dedup_ignore_scheme;
  ctx.deterministic = config_.deterministic;
  ctx.stop = stop_;
  auto strategy = make_strategy_(config_.strategy, ctx);
  if (!strategy.ok()) return strategy.status();
  strategy_ = std::move(strategy).value();
  // Parse only the link contexts somebody reads: the strategy's, plus the
  // text context that the links table stores.
  const LinkContextNeeds needs = strategy_.traits.link_contexts;
  if (!needs.text && !(config_.store_links && config_.store_link_details)) {
    parse_options_.context_window_words = 0;
  }
  if (!needs.dom) parse_options_.dom_delta = 0;
  parse_options_.link_blocks = needs.block;
  parse_options_.keep_raw_href = false;  // nothing downstream reads it

  // Queued links beyond the in-RAM cap spill here; rebuilt from crawl.db on
  // resume, so the file is scratch space.
  std::error_code ec;
  std::filesystem::create_directories(config_.out_dir + "/spill", ec);
  if (ec) return Status::Error("cannot create " + config_.out_dir + "/spill: " + ec.message());
  auto selector = strategy_.make_selector();
  if (!selector.ok()) return selector.status();
  auto frontier = Frontier::Create(MakeFrontierOptions(config_, strategy_.traits), clock_,
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
  if (Status rs = SetupRender(); !rs.ok()) return rs;

  Status s = BuildFilters();
  if (!s.ok()) return s;
  s = store_->SaveConfigSnapshot(CrawlConfigToToml(config_));
  if (!s.ok()) return s;
  store_->SetMeta("strategy", config_.strategy);
  store_->SetMeta("rng_seed", std::to_string(config_.rng_seed));
  store_->SetMeta("max_pages", std::to_string(config_.max_pages));  // the dashboard's ETA
  if (strategy_.traits.beta) store_->SetMeta("beta", std::to_string(*strategy_.traits.beta));
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
    Status rs = RestoreStrategyState(strategy_, config_.out_dir, &restored);
    if (!rs.ok()) return rs;
    store_->AddEvent("state", restored ? "strategy state restored" : "no saved strategy state");
    // Rebuild the seen-set (every admitted URL) and the queue (state 0).
    auto stats = store_->LoadPageStats();
    if (!stats.ok()) return stats.status();
    next_page_id_ = stats->max_page_id + 1;
    stats_.pages_ok = stats->ok_pages;
    stats_.pages_failed = stats->pages - stats->ok_pages;
    for (const auto& [type, n] : stats->ok_by_content_type) {
      stats_.content_types[ContentTypeKey(type)] += n;
    }
    // The summary's relevant count covers the directory, like pages_ok.
    if (strategy_.traits.beta) {
      auto relevant = store_->CountRelevantPages(*strategy_.traits.beta);
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
      stats_.content_types.clear();  // a fetch row has no type: this run's pages only
      Status s = store_->ForEachFetch(round_.round(), [this](const FetchRow& f) {
        ++(f.state == UrlState::kFailed || f.state == UrlState::kGone ? stats_.pages_failed
                                                                      : stats_.pages_ok);
        return true;
      });
      if (!s.ok()) return s;
    }
    stats_.pages_ok_before = stats_.pages_ok;
    // The trap budget goes on where it stopped: every admitted URL counts
    // (crawl/url_trap.h), the refused and the fetched as the queued.
    Status s = store_->LoadFrontier([this](const FrontierRecord& r) {
      traps_.Restore(r.url);
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
    traps_.TakeNewlySpent();  // their trap_pattern events are from the earlier run
    if (Status a = QueueRoundAnnouncements(); !a.ok()) return a;
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
                    strategy_.traits.seed_score};
    if (frontier_->Add(c) == AddResult::kAdded) {
      rows.push_back({c.url_id, c.url, 0, 0, "", c.score, "{\"seed\":true}", 0});
    }
  }
  if (rows.empty()) return Status::Error("no crawlable seed URL");
  store_->SetMeta("started_at", std::to_string(clock_->UnixMillis()));
  Status s = store_->AddSeeds(rows);
  if (!s.ok()) return s;
  if (config_.seeds_from_sitemaps) return AddAnnouncedSeeds(rows);
  // Commit the seeds now: from here on the directory is resumable.
  return store_->Flush();
}

// Why remembered: RobotsHostKey parses the whole URL, and every dispatched
// URL (refusals included) needs its key: 7 % of the crawl thread at 1.5 x
// 10^5 pages of the synthetic web (perf, docs/notebook/performance.md "speed
// decay"). The key depends only on the scheme, host and port, which the
// prefix up to the first '/', '?' or '#' after "://" determines: equal
// prefixes, equal keys. (A prefix that would parse differently, e.g. with a
// backslash, is simply its own entry.)
const std::string& Crawler::Impl::RobotsKeyOf(const std::string& url) {
  const size_t scheme = url.find("://");
  const size_t end = scheme == std::string::npos
                         ? std::string::npos
                         : url.find_first_of("/?#", scheme + 3);
  std::string prefix = url.substr(0, end);
  auto it = robots_keys_.find(prefix);
  if (it != robots_keys_.end()) return it->second;
  if (robots_keys_.size() >= 1'000'000) robots_keys_.clear();  // bounded memory
  return robots_keys_.emplace(std::move(prefix), RobotsHostKey(url)).first->second;
}

bool Crawler::Impl::CheckRobots(const CrawlTask& task) {
  // Returns true when the task may be fetched now. Otherwise the task has
  // been parked (robots.txt pending) or recorded (denied).
  if (!config_.respect_robots) return true;
  const std::string& key = RobotsKeyOf(task.url);  // robots_keys_ is not touched below
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
  if (result.status == FetchStatus::kOk) {
    // Kept for the exports' opt-out signals (Content-Usage, Content-Signal).
    writer_->Post([key, code = result.http_code, body = std::move(result.body)](
                      CrawlStore* store) { store->AddHostFile(key, "robots.txt", code, body); });
  }
  if (config_.fetch_tdmrep && result.status != FetchStatus::kPrivateAddress &&
      robots_waiting_.count(key)) {
    CrawlTask tdmrep;
    tdmrep.url = key + kTdmRepPath;
    tdmrep.host_id = result.task.host_id;
    fetcher_->Submit(std::move(tdmrep), FetchKind::kRobots);
    return;
  }
  ReleaseRobotsWaiters(key);
}

void Crawler::Impl::OnTdmRepFetched(FetchResult result) {
  const std::string key = RobotsHostKey(result.task.url);
  if (result.status == FetchStatus::kOk) {
    writer_->Post([key, code = result.http_code, body = std::move(result.body)](
                      CrawlStore* store) { store->AddHostFile(key, "tdmrep.json", code, body); });
  }
  ReleaseRobotsWaiters(key);
}

void Crawler::Impl::ReleaseRobotsWaiters(const std::string& key) {
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
      // No page fetched from now on can use a sample's decision.
      StopRenderSampling();
      return;
    }
    if (ActiveParsing() > static_cast<size_t>(4 * config_.concurrency)) return;
    // The focus window (CrawlConfig::focus_window): pages chosen before
    // their parents' links reached the frontier.
    if (config_.focus_window > 0 &&
        page_fetches_ + ActiveParsing() >= static_cast<size_t>(config_.focus_window)) {
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
  p.fetch = std::move(result);
  if (render_mode_ != RenderMode::kAlways) ParseFetched(&p);
  if (MaybeRender(&p)) return;  // FinishRender takes it from here
  if (render_mode_ == RenderMode::kAlways) ParseFetched(&p);
  AssessAndQueue(std::move(p));
}

void Crawler::Impl::ParseFetched(ProcessedPage* p) {
  try {
    p->decoded = DecodeToUtf8(p->fetch.body, p->fetch.content_type);
    const FetchResult& f = p->fetch;
    const std::string& base = f.final_url.empty() ? f.task.url : f.final_url;
    p->page = ParseHtml(p->decoded.utf8, base, parse_options_);
  } catch (const std::exception& e) {
    p->parse_error = e.what();
  }
}

void Crawler::Impl::AssessAndQueue(ProcessedPage p) {
  if (p.parse_error.empty()) {
    try {
      strategy_.judge->Assess(p.fetch.task, p.page, &p.assessment);
      p.digest = Hash64(p.fetch.body);
      p.simhash = SimHash64(p.page.text);
    } catch (const std::exception& e) {
      p.parse_error = e.what();
    }
  }
  p.assessment.links.resize(p.page.links.size());
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

// The strategy's learned state goes to DIR/state/strategy.bin every
// state_interval_s (10 s by default), or less often when saving is slow (at most ~2 % of the
// crawl thread's time), and at the end of the crawl; a kill -9 loses at most
// one interval of learning (crawl/strategy_state.h).
void Crawler::Impl::CheckpointState() {
  const auto kStateInterval = std::chrono::duration_cast<Duration>(
      std::chrono::duration<double>(config_.state_interval_s));
  const TimePoint now = clock_->Now();
  if (now < next_state_save_) return;
  Status s = SaveStrategyState(strategy_, config_.out_dir);
  const TimePoint done = clock_->Now();
  next_state_save_ = done + std::max<Duration>(kStateInterval, 50 * (done - now));
  if (!s.ok()) {
    std::fprintf(stderr, "warning: %s\n", s.message().c_str());
    writer_->Post([m = s.message()](CrawlStore* store) { store->AddEvent("state_error", m); });
  }
}

bool Crawler::Impl::RefillFromStrategy() {
  std::vector<FrontierRecord> rows;
  for (LinkCandidate& c : strategy_.learner->Refill()) {
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

void Crawler::Impl::UpdateEta(TimePoint now) {
  stats_.max_pages = config_.max_pages;
  if (!rate_sampled_ || now - last_rate_sample_ >= std::chrono::seconds(1)) {
    page_rate_.Add(std::chrono::duration<double>(now - started_).count(), stats_.pages_ok);
    last_rate_sample_ = now;
    rate_sampled_ = true;
  }
  const std::optional<double> eta =
      EtaSeconds(stats_.pages_ok, config_.max_pages, page_rate_.Rate());
  stats_.eta_s = eta ? *eta : -1;
}

void Crawler::Impl::Progress(bool final) {
  TimePoint now = clock_->Now();
  stats_.elapsed_s = std::chrono::duration<double>(now - started_).count();
  stats_.queued = frontier_->Queued();
  stats_.hosts = frontier_->Hosts();
  stats_.in_flight = fetcher_->InFlight();
  UpdateEta(now);
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
  // The queue's part on disk (the frontier's spill), when there is one.
  char on_disk[48] = "";
  if (const size_t spilled = frontier_->Spilled(); spilled > 0) {
    std::snprintf(on_disk, sizeof(on_disk), " (%zu on disk)", spilled);
  }
  std::fprintf(stderr,
               "[%7.1fs] pages %lld ok, %lld failed | %.0f pages/s%s | queue %zu%s | "
               "hosts %zu | in flight %zu | errors %lld%s%s%s\n",
               stats_.elapsed_s, static_cast<long long>(stats_.pages_ok),
               static_cast<long long>(stats_.pages_failed), rate,
               final ? "" : EtaText(stats_).c_str(), stats_.queued, on_disk, stats_.hosts,
               stats_.in_flight, static_cast<long long>(stats_.pages_failed),
               ContentTypesText(stats_).c_str(), waiting.c_str(), final ? " (final)" : "");
  last_progress_ = now;
  last_progress_pages_ = stats_.pages_ok;
}

Status Crawler::Impl::Run() {
  Status s = Setup();
  if (!s.ok()) return s;
  started_ = last_progress_ = clock_->Now();
  next_state_save_ = started_ + std::chrono::duration_cast<Duration>(
                                    std::chrono::duration<double>(config_.state_interval_s));
  if (monitor_) {
    monitor_->SetStrategy(config_.strategy, strategy_.traits.beta.value_or(-1.0));
    monitor_->SetWakeup([f = fetcher_.get()] { f->Wakeup(); });
  }
  // Room for ~1 s of store operations at 10^6 pages of the synthetic web
  // (~3 refusals and pages a fetched page): with 256 the crawl thread sat
  // blocked on a full queue whenever a commit or WAL checkpoint held the
  // writer, and no transfer progressed meanwhile. Bodies bound the memory.
  writer_ = std::make_unique<StoreWriter>(store_.get(), 8192, size_t{64} << 20);
  writer_->Start();
  while (!Finished()) {
    DrainProcessed();
    Dispatch();
    TendRender();
    for (FetchResult& r : fetcher_->Poll(PollWait())) {
      if (r.task.url_id == 0 && r.task.url.ends_with(kTdmRepPath)) {
        OnTdmRepFetched(std::move(r));
      } else if (r.task.url_id == 0) {  // robots.txt transfers carry no frontier id
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
  return Close();
}

Crawler::Crawler(CrawlConfig config, const std::atomic<bool>* stop,
                 StrategyFactory make_strategy)
    : impl_(std::make_unique<Impl>(std::move(config), stop, std::move(make_strategy))) {}
Crawler::~Crawler() = default;
void Crawler::SetMonitor(CrawlMonitor* monitor) { impl_->monitor_ = monitor; }
void Crawler::SetClusterRole(ClusterRole* role) { impl_->cluster_ = role; }
Status Crawler::Run() { return impl_->Run(); }
const CrawlStats& Crawler::stats() const { return impl_->stats(); }
bool Crawler::interrupted() const { return impl_->interrupted(); }

}  // namespace topicrawl
