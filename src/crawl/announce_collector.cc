#include "crawl/announce_collector.h"

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "robots/robots_rules.h"
#include "sitemap/announce_parser.h"
#include "sitemap/feed_links.h"
#include "url/url.h"

namespace topicrawl {
namespace {

enum class JobKind { kRobots, kDocument, kHome };

struct Job {
  JobKind kind = JobKind::kDocument;
  std::string url;
  int depth = 0;        // index nesting of a document
  int source = 1;       // AnnounceSource of the entries it yields
};

struct HostState {
  std::string origin;   // scheme://host[:port]
  std::string host;     // host[:port]
  std::deque<Job> jobs;
  std::unique_ptr<RobotsRules> rules;
  TimePoint next{};
  bool busy = false;
  int documents = 0;
  bool announced = false;
};

std::string OriginOf(std::string_view url) {
  size_t s = url.find("://");
  if (s == std::string_view::npos) return "";
  size_t e = url.find('/', s + 3);
  return std::string(url.substr(0, e == std::string_view::npos ? url.size() : e));
}

std::string Problems(const AnnounceSummary& s) {
  std::string out;
  for (const AnnounceProblem& p : s.problems) {
    out += (out.empty() ? "" : " ") + p.reason + "=" + std::to_string(p.count);
  }
  return out;
}

class Collector {
 public:
  Collector(const AnnounceCollectOptions& o, Fetcher* f, Clock* c) : o_(o), fetcher_(f), clock_(c) {}
  AnnounceCollection Run(const std::vector<std::string>& origins);

 private:
  void Start(HostState* h);
  void Finish(HostState* h, FetchResult& r, const Job& job);
  void OnRobots(HostState* h, const FetchResult& r);
  void OnDocument(HostState* h, const FetchResult& r, const Job& job);
  void OnHome(HostState* h, const FetchResult& r);
  void Queue(HostState* h, Job job);
  void Record(const std::string& url, std::string kind, std::string status, int code,
              const AnnounceSummary* s, std::string problems = "");
  void Merge(const AnnouncedEntry& e, const std::string& host, int source,
             const std::string& document);

  const AnnounceCollectOptions& o_;
  Fetcher* fetcher_;
  Clock* clock_;
  std::vector<HostState> hosts_;
  std::unordered_map<std::string, size_t> by_origin_;
  std::unordered_map<std::string, Job> in_flight_;  // url -> job
  std::unordered_set<std::string> queued_;          // documents ever queued
  std::map<std::string, AnnouncementRow> rows_;
  AnnounceCollection out_;
};

void Collector::Record(const std::string& url, std::string kind, std::string status, int code,
                       const AnnounceSummary* s, std::string problems) {
  AnnounceFetchRow row;
  row.url = url;
  row.kind = std::move(kind);
  row.status = std::move(status);
  row.http_code = code;
  if (s != nullptr) {
    row.entries = s->entries;
    row.rejected = s->rejected;
    row.bytes = s->bytes;
    problems = Problems(*s) + (problems.empty() || Problems(*s).empty() ? "" : " ") + problems;
  }
  row.problems = std::move(problems);
  out_.fetches.push_back(std::move(row));
}

// Queues a document of host h unless it was queued before, is of another
// origin, is disallowed, or the host's document budget is spent; each
// refusal is recorded with its reason.
// The origin comes first: a document another origin's robots.txt names
// (https://h's naming http://h/sitemap.xml) is still read by its own.
void Collector::Queue(HostState* h, Job job) {
  if (OriginOf(job.url) != h->origin) {
    Record(job.url, "-", "skipped", 0, nullptr, "other_origin");
    return;
  }
  if (!queued_.insert(job.url).second) {
    Record(job.url, "-", "skipped", 0, nullptr, "already_read");
    return;
  }
  if (h->rules && !h->rules->Allowed(o_.robots_agent, job.url)) {
    Record(job.url, "-", "robots_denied", 0, nullptr, "");
    return;
  }
  if (h->documents >= o_.max_documents_per_host) {
    Record(job.url, "-", "skipped", 0, nullptr, "host_document_budget");
    return;
  }
  ++h->documents;
  h->jobs.push_back(std::move(job));
}

void Collector::Merge(const AnnouncedEntry& e, const std::string& host, int source,
                      const std::string& document) {
  auto [it, inserted] = rows_.try_emplace(e.loc);
  AnnouncementRow& r = it->second;
  if (inserted) {
    r.url = e.loc;
    r.host = host;
    r.source = source;
    r.document = document;
  }
  if (r.title.empty() && !e.title.empty()) {  // the document that gives a title names it
    r.title = e.title;
    r.document = document;
  }
  r.source = std::min(r.source, source);
  r.lastmod_ms = std::max(r.lastmod_ms, e.lastmod_ms);
  r.published_ms = std::max(r.published_ms, e.published_ms);
  if (e.changefreq != ChangeFreq::kNone) r.changefreq = static_cast<int>(e.changefreq);
  if (e.priority >= 0) r.priority = e.priority;
}

void Collector::OnRobots(HostState* h, const FetchResult& r) {
  std::vector<std::string> sitemaps;
  if (r.status == FetchStatus::kOk) {
    h->rules = std::make_unique<RobotsRules>(RobotsRules::Parse(r.body));
    sitemaps = h->rules->sitemaps();
  } else if (r.http_code >= 400 && r.http_code < 500 && r.http_code != 429) {
    h->rules = std::make_unique<RobotsRules>(RobotsRules::AllowAll());  // RFC 9309 2.3.1.3
  } else {
    Record(r.task.url, "robots", std::string(FetchStatusName(r.status)), r.http_code, nullptr,
           "host_skipped");  // unreachable: disallow all (RFC 9309 2.3.1.4)
    return;
  }
  Record(r.task.url, "robots", std::string(FetchStatusName(r.status)), r.http_code, nullptr,
         "sitemap_lines=" + std::to_string(sitemaps.size()));
  for (const std::string& line : sitemaps) {
    std::optional<std::string> url = ResolveLink(h->origin + "/", line);
    if (!url) {
      Record(line, "-", "skipped", 0, nullptr, "bad_url");
      continue;
    }
    Queue(h, {JobKind::kDocument, *url, 0, 1});
  }
  if (!sitemaps.empty()) return;
  if (o_.probe_sitemap_xml) Queue(h, {JobKind::kDocument, h->origin + "/sitemap.xml", 0, 1});
  if (o_.home_feeds) h->jobs.push_back({JobKind::kHome, h->origin + "/", 0, 3});
}

void Collector::OnHome(HostState* h, const FetchResult& r) {
  if (r.status != FetchStatus::kOk) {
    Record(r.task.url, "html", std::string(FetchStatusName(r.status)), r.http_code, nullptr, "");
    return;
  }
  std::vector<std::string> feeds = FindFeedLinks(r.body, r.final_url.empty() ? r.task.url : r.final_url);
  Record(r.task.url, "html", "ok", r.http_code, nullptr, "feed_links=" + std::to_string(feeds.size()));
  for (const std::string& f : feeds) Queue(h, {JobKind::kDocument, f, 0, 3});
}

void Collector::OnDocument(HostState* h, const FetchResult& r, const Job& job) {
  if (r.status != FetchStatus::kOk) {
    Record(r.task.url, "-", std::string(FetchStatusName(r.status)), r.http_code, nullptr, "");
    return;
  }
  const std::string url = r.final_url.empty() ? r.task.url : r.final_url;
  AnnounceScope scope;
  scope.extra_roots.push_back(h->origin + "/");  // named by this host's robots.txt
  AnnounceLimits limits;
  limits.now_ms = o_.now_ms;
  std::vector<std::string> children;
  AnnounceParser* self = nullptr;
  AnnounceParser parser(url, limits, scope, [&](const AnnouncedEntry& e) {
    const AnnounceKind kind = self->kind();
    if (kind == AnnounceKind::kSitemapIndex) {
      children.push_back(e.loc);
    } else {
      Merge(e, h->host, IsFeed(kind) && job.source == 1 ? 2 : job.source, url);
    }
  });
  self = &parser;
  parser.Feed(r.body);
  const AnnounceSummary& s = parser.Finish();
  std::string extra;
  if (!children.empty() && job.depth + 1 > o_.max_index_depth) {
    extra = "index_too_deep=" + std::to_string(children.size());
    children.clear();
  }
  Record(url, AnnounceKindName(s.kind), "ok", r.http_code, &s, extra);
  for (const std::string& child : children) {
    Queue(h, {JobKind::kDocument, child, job.depth + 1, job.source});
  }
  if (s.entries > 0) h->announced = true;
}

void Collector::Finish(HostState* h, FetchResult& r, const Job& job) {
  h->busy = false;
  h->next = clock_->Now() + std::chrono::duration_cast<Duration>(
                                std::chrono::duration<double>(o_.delay_s));
  switch (job.kind) {
    case JobKind::kRobots: OnRobots(h, r); break;
    case JobKind::kHome: OnHome(h, r); break;
    case JobKind::kDocument: OnDocument(h, r, job); break;
  }
}

void Collector::Start(HostState* h) {
  Job job = std::move(h->jobs.front());
  h->jobs.pop_front();
  h->busy = true;
  CrawlTask task;
  task.url = job.url;
  FetchKind kind = job.kind == JobKind::kRobots ? FetchKind::kRobots
                   : job.kind == JobKind::kHome ? FetchKind::kPage
                                                : FetchKind::kSitemap;
  in_flight_[job.url] = std::move(job);
  fetcher_->Submit(std::move(task), kind);
}

AnnounceCollection Collector::Run(const std::vector<std::string>& origins) {
  for (const std::string& origin : origins) {
    if (by_origin_.count(origin) || origin.find("://") == std::string::npos) continue;
    by_origin_[origin] = hosts_.size();
    HostState h;
    h.origin = origin;
    h.host = origin.substr(origin.find("://") + 3);
    h.jobs.push_back({JobKind::kRobots, origin + "/robots.txt", 0, 0});
    hosts_.push_back(std::move(h));
  }
  out_.hosts = static_cast<int64_t>(hosts_.size());
  size_t next_host = 0;
  while (true) {
    const TimePoint now = clock_->Now();
    bool pending = false;
    for (size_t k = 0; k < hosts_.size() && in_flight_.size() < o_.max_in_flight; ++k) {
      HostState& h = hosts_[(next_host + k) % hosts_.size()];
      if (h.busy || h.jobs.empty()) continue;
      pending = true;
      if (h.next <= now) Start(&h);
    }
    next_host = hosts_.empty() ? 0 : (next_host + 1) % hosts_.size();
    for (const HostState& h : hosts_) pending = pending || h.busy || !h.jobs.empty();
    if (!pending && in_flight_.empty()) break;
    for (FetchResult& r : fetcher_->Poll(std::chrono::milliseconds(50))) {
      auto it = in_flight_.find(r.task.url);
      if (it == in_flight_.end()) continue;
      Job job = std::move(it->second);
      in_flight_.erase(it);
      Finish(&hosts_[by_origin_[OriginOf(job.url)]], r, job);
    }
  }
  for (const HostState& h : hosts_) out_.hosts_announcing += h.announced;
  out_.rows.reserve(rows_.size());
  for (auto& [url, row] : rows_) out_.rows.push_back(std::move(row));
  return std::move(out_);
}

}  // namespace

AnnounceCollection CollectAnnouncements(const std::vector<std::string>& origins,
                                        const AnnounceCollectOptions& options, Fetcher* fetcher,
                                        Clock* clock) {
  Collector c(options, fetcher, clock);
  return c.Run(origins);
}

AnnounceCollection CollectAnnouncements(const std::vector<std::string>& origins,
                                        const AnnounceCollectOptions& options) {
  std::unique_ptr<Fetcher> fetcher = NewCurlFetcher(options.fetch, SystemClock());
  return CollectAnnouncements(origins, options, fetcher.get(), SystemClock());
}

}  // namespace topicrawl
