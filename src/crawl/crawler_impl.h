// Internal to crawl/: the crawl loop's state, shared by the files that
// implement it along the flow of one URL:
//   crawler.cc        set-up, seeding/resume, robots, dispatch, fetch and
//                     parse callbacks, the loop, progress;
//   crawler_end.cc    why the loop ends, and the summary of an early end;
//   crawler_close.cc  the close: threads settle, the store commits, the
//                     strategy finishes, resources are released;
//   crawler_store.cc  what a fetched, failed, refused or revisited URL
//                     becomes in the store (pages rows, links, fates,
//                     URL-trap admission and its events);
//   crawler_hooks.cc  the monitor (REST/dashboard) and cluster hooks;
//   crawler_render.cc --render: pages through the Chromium render pool
//                     (render/render_pool.h), auto mode's per-host choice.
// Nothing outside crawl/ includes this header: the interface is crawler.h.
#ifndef TOPICRAWL_CRAWL_CRAWLER_IMPL_H_
#define TOPICRAWL_CRAWL_CRAWLER_IMPL_H_

#include <algorithm>
#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/thread_pool.h"
#include "crawl/cluster_role.h"
#include "crawl/crawl_monitor.h"
#include "crawl/crawl_strategy.h"
#include "crawl/crawler.h"
#include "crawl/progress_eta.h"
#include "crawl/rounds/round_policy.h"
#include "crawl/round_state.h"
#include "crawl/store_writer.h"
#include "crawl/url_trap.h"
#include "fetch/charset.h"
#include "fetch/fetcher.h"
#include "frontier/frontier.h"
#include "parse/html_parser.h"
#include "render/render_decider.h"
#include "render/render_pool.h"
#include "robots/robots_cache.h"
#include "store/crawl_store.h"
#include "url/url_filter.h"

namespace topicrawl {

class Crawler::Impl {
 public:
  // A fetched page after the parse pool is done with it.
  struct ProcessedPage {
    FetchResult fetch;
    DecodedText decoded;
    ParsedPage page;
    PageAssessment assessment;
    std::string parse_error;  // non-empty: parsing threw; stored as parse_error
    uint64_t digest = 0;      // Hash64 of the body (rounds: change detection)
    uint64_t simhash = 0;     // SimHash64 of the text (near-duplicates)
    // --render: the DOM the links and text came from (a WARC conversion
    // record), what the render did, and an auto-mode decision it made.
    std::string rendered_html;
    std::string render_note;
    std::string render_event;
  };

  Impl(CrawlConfig config, const std::atomic<bool>* stop, StrategyFactory make_strategy)
      : config_(std::move(config)),
        stop_(stop),
        make_strategy_(std::move(make_strategy)),
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
  Status AddAnnouncedSeeds(const std::vector<FrontierRecord>& seeds);
  Status QueueRoundAnnouncements();
  Status QueueAnnounced(const std::vector<AnnouncedLink>& links, double floor, int round,
                        int64_t* queued);
  void Dispatch();
  bool CheckRobots(const CrawlTask& task);
  // RobotsHostKey(url), remembered by the URL's "scheme://authority" prefix.
  const std::string& RobotsKeyOf(const std::string& url);
  void OnRobotsFetched(FetchResult result);
  // /.well-known/tdmrep.json of a host (CrawlConfig::fetch_tdmrep): fetched
  // after its robots.txt while the host is still held; stored as a host file.
  void OnTdmRepFetched(FetchResult result);
  // Releases the hosts waiting for `key`'s robots.txt (and tdmrep.json).
  void ReleaseRobotsWaiters(const std::string& key);
  void OnPageFetched(FetchResult result);
  void Process(FetchResult result);  // parse pool
  // Parse-pool steps: decode + parse the fetched body; strategy assessment,
  // digests and hand-over to the crawl thread.
  void ParseFetched(ProcessedPage* p);
  void AssessAndQueue(ProcessedPage p);
  // crawler_render.cc
  Status SetupRender();
  // True when the page went to the render pool (it comes back through
  // FinishRender on a parse thread).
  bool MaybeRender(ProcessedPage* p);
  void SubmitRender(std::shared_ptr<ProcessedPage> page, RenderDecider::Action action);
  void FinishRender(ProcessedPage p, RenderDecider::Action action, RenderResult r);
  // auto: a sample of `host` completed; its held pages go on (rendered,
  // sampled or static, as the decider now says).
  void ReleaseHeld(const std::string& host);
  // Pages being parsed or rendered, without those held for their host's
  // render decision and auto-mode samples (they take no fetch or parse CPU
  // while they wait; the decider bounds both): a host's samples never hold
  // up the other hosts' pages.
  size_t ActiveParsing() const {
    return parsing_ - std::min(parsing_, render_held_.load() + render_sampling_.load());
  }
  // auto, at the crawl's close: samples still rendering are cut short (no
  // page waits for them), undecided hosts are static from then on.
  void StopRenderSampling();
  // auto, on the crawl thread: hosts whose samples are overdue hold no more
  // pages, late decisions become events, and Chromium takes only spare CPU
  // (the idle scheduling class) while it merely samples; normal priority
  // once a host renders or while a shell page waits for its sample.
  void TendRender();
  struct PendingSample {  // auto: a sample submitted, its render not in
    std::string url, host;
    TimePoint submitted{};
    bool thin_only = false;   // the page's shell evidence: the weak form alone
    bool page_waits = false;  // else the page went on statically with:
    std::vector<std::string> static_links;
    size_t static_words = 0;
    bool overdue = false;  // held_mu_
  };
  RenderJob MakeRenderJob(const ProcessedPage& page) const;
  // auto: renders `p` as a sample; `waiting` is the page itself when it
  // waits for the render, null when it went on with its static parse.
  void SubmitSample(const ProcessedPage& p, std::shared_ptr<ProcessedPage> waiting);
  void DecideFromSample(const PendingSample& sample, RenderResult r);

  void RecordRender();  // the close: render figures to stderr and an event
  void CloseRender();
  void DrainProcessed();
  void StoreProcessed(ProcessedPage p);
  PageRecord ProcessedRecord(ProcessedPage& p, PageId id);
  void OfferOutlinks(const ProcessedPage& p, PageId id, PageRecord* rec);
  void MoveLinksIntoRecord(ProcessedPage* p, PageRecord* rec);
  void StoreFailure(FetchResult result);
  // Rounds: a revisit answered 304 / with an equal digest / gone / failed.
  bool StoreKeptRevisit(FetchResult* result);
  void SetRoundFields(const FetchResult& f, PageRecord* rec);
  Status AddPageRecord(PageRecord rec);
  bool Admissible(const Outlink& link, uint32_t child_depth, bool page_nofollow) const;
  AddResult AdmitLink(LinkCandidate c);  // Frontier::Add with the URL-trap budget
  // crawler_end.cc: true when the loop should stop (end_reason_ says why,
  // but for a spent page budget).
  bool Finished();
  // Says why the crawl ended when it ended before --max-pages (stderr and
  // an "ended" event).
  void ReportEnd();
  // crawler_close.cc: the steps after the loop, in order; the crawl's
  // result (storage errors first, then the strategy's).
  Status Close();
  void Closing(const std::string& what) const;  // a "closing (+s): what" line
  std::string SettleThreads();                  // the CPU by thread, formatted
  void RecordClose(const std::string& cpu);
  Status CloseStore();
  Status FinishStrategy();
  void ReleaseThreads();
  bool RefillFromStrategy();  // true when the strategy queued something
  void CheckpointState();     // periodic save of the strategy's state
  // stats_.eta_s from a rate sample a second (page_rate_).
  void UpdateEta(TimePoint now);
  void Progress(bool final);
  Duration PollWait();
  // Back-off bookkeeping (issue #10): host state changes become events, URLs
  // of given-up hosts become host_failed rows.
  void NoteHostHealth(HostId host, const HostHealth& before);
  void RecordAbandoned();
  void RecordRefusal(const CrawlTask& task, FetchStatus status, std::string why);
  void NoteSpentPatterns();  // trap_pattern events for newly spent patterns
  void RecordTrapLinks();    // the trap_links event at the close
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
  StrategyFactory make_strategy_;
  Clock* clock_;
  std::unique_ptr<CrawlStore> store_;
  Strategy strategy_;
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
  RenderMode render_mode_ = RenderMode::kNever;
  std::unique_ptr<RenderPool> render_;      // --render auto|always
  std::unique_ptr<RenderDecider> decider_;  // --render auto
  // auto: scripted pages of hosts whose samples are rendering, by host key
  // (RenderDecider::Action::kHold); at most kMaxHeldPages in all.
  std::mutex held_mu_;
  std::map<std::string, std::vector<std::shared_ptr<ProcessedPage>>> held_;  // held_mu_
  std::atomic<size_t> render_held_{0};
  std::atomic<size_t> render_sampling_{0};  // samples submitted, not finished
  std::vector<std::shared_ptr<PendingSample>> pending_samples_;  // held_mu_
  std::vector<std::string> late_render_events_;  // held_mu_: DecideFromSample's decisions
  std::atomic<TimePoint> sample_progress_{};  // a sample submitted to an idle pool or finished
  std::atomic<int64_t> render_held_total_{0};

  std::mutex processed_mu_;
  std::deque<ProcessedPage> processed_;  // guarded by processed_mu_
  size_t parsing_ = 0;                   // submitted to the pool, not drained
  size_t page_fetches_ = 0;              // page transfers in flight
  // robots.txt host key -> frontier hosts parked until it arrives.
  std::map<std::string, std::vector<HostId>> robots_waiting_;
  // "scheme://authority" -> RobotsHostKey (see RobotsKeyOf).
  std::unordered_map<std::string, std::string> robots_keys_;

  RoundState round_;  // round number, pending revisits, SimHash index
  PageId next_page_id_ = 1;
  Status error_;  // first storage error; stops the crawl
  CrawlStats stats_;
  bool interrupted_ = false;
  // Why the loop ended (Finished()), for the summary line and the "ended"
  // event of a crawl that stops before --max-pages.
  std::string end_reason_;
  TimePoint started_{};
  TimePoint loop_end_{};  // the close's times count from here
  TimePoint last_progress_{};
  int64_t last_progress_pages_ = 0;
  // The ETA's rate: a sample a second (Progress()), over the last 30 s.
  PageRate page_rate_{30};
  TimePoint last_rate_sample_{};
  bool rate_sampled_ = false;
  TimePoint next_state_save_{};
  TimePoint next_cluster_tick_{};
};

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_CRAWLER_IMPL_H_
