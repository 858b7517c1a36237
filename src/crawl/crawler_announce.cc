// Announced URLs (sitemaps and feeds, issue 34) entering the frontier:
// round 0's with --seeds-from-sitemaps, and the `signals` round policy's
// new URLs when a round starts. Both are scored by the crawl's strategy as
// links of the document that named them (crawl/announced_links.h).
#include <set>
#include <string>
#include <vector>

#include "crawl/announce_collector.h"
#include "crawl/announced_links.h"
#include "crawl/crawler_impl.h"
#include "crawl/dedup.h"
#include "frontier/frontier.h"
#include "store/announce_store.h"
#include "store/crawl_store.h"

namespace topicrawl {

// Round 0 with seeds_from_sitemaps: the seed hosts' announced URLs are
// queued as links of their sitemaps and feeds, scored by the strategy
// (crawl/announced_links.h), and the collection is kept as round 0's
// announcements, the reference the `signals` round policy compares later
// lastmods with.
Status Crawler::Impl::AddAnnouncedSeeds(const std::vector<FrontierRecord>& seeds) {
  std::set<std::string> origins;
  for (const FrontierRecord& r : seeds) {
    size_t e = r.url.find('/', r.url.find("://") + 3);
    origins.insert(r.url.substr(0, e));
  }
  AnnounceCollectOptions o;
  o.fetch = MakeFetcherOptions(config_);
  o.robots_agent = config_.robots_agent;
  o.delay_s = config_.delay_s;
  o.now_ms = clock_->UnixMillis();
  AnnounceCollection c = CollectAnnouncements({origins.begin(), origins.end()}, o);
  std::vector<AnnouncedLink> links;
  links.reserve(c.rows.size());
  for (const AnnouncementRow& a : c.rows) links.push_back({a.url, a.title, a.document});
  int64_t queued = 0;
  if (Status s = QueueAnnounced(links, /*floor=*/-1, 0, &queued); !s.ok()) return s;
  store_->AddEvent("announced_seeds", std::to_string(queued) + " of " +
                                          std::to_string(c.rows.size()) +
                                          " URLs from the sitemaps of " +
                                          std::to_string(c.hosts_announcing) + " of " +
                                          std::to_string(c.hosts) +
                                          " seed hosts queued as scored links");
  if (Status s = store_->Flush(); !s.ok()) return s;
  auto announced = AnnounceStore::Open(config_.out_dir);
  if (!announced.ok()) return announced.status();
  return (*announced)->WriteRound(0, c.rows, c.fetches);
}

// A round's announced new URLs (RoundPlan::announced, kept by the planner
// in announced_queue), queued once when the round starts: meta
// round_announced_queued.K says it was done (a resumed round has them in
// its frontier rows).
Status Crawler::Impl::QueueRoundAnnouncements() {
  const int round = round_.round();
  if (round <= 0 || !HasAnnouncements(config_.out_dir)) return Status::Ok();
  const std::string key = "round_announced_queued." + std::to_string(round);
  auto done = store_->GetMeta(key);
  if (!done.ok()) return done.status();
  if (done->has_value()) return Status::Ok();
  if (Status f = store_->Flush(); !f.ok()) return f;
  std::vector<AnnouncedLink> links;
  double floor = -1;
  {
    auto announced = AnnounceStore::Open(config_.out_dir);
    if (!announced.ok()) return announced.status();
    Status q = (*announced)->ForEachQueued(round, [&](const QueuedAnnouncement& a) {
      links.push_back({a.url, a.title, a.document});
      floor = a.floor;
      return true;
    });
    if (!q.ok()) return q;
  }
  int64_t queued = 0;
  if (Status s = QueueAnnounced(links, floor, round, &queued); !s.ok()) return s;
  store_->AddEvent("announced_links", std::to_string(queued) + " of " +
                                          std::to_string(links.size()) +
                                          " announced new URLs queued as scored links");
  store_->SetMeta(key, std::to_string(queued));
  return store_->Flush();
}

// Scores `links` with the strategy as the outlinks of their documents and
// queues those it admits (scope rules and dedup as for seeds).
Status Crawler::Impl::QueueAnnounced(const std::vector<AnnouncedLink>& links, double floor,
                                     int round, int64_t* queued) {
  std::vector<PageAssessment::Link> scores =
      ScoreAnnouncedLinks(*strategy_.judge, links, config_.dedup_ignore_scheme);
  const std::string tag = "{\"announced\":true,\"round\":" + std::to_string(round) + "}";
  std::vector<FrontierRecord> rows;
  for (size_t i = 0; i < links.size(); ++i) {
    const AnnouncedLink& a = links[i];
    if (!scores[i].admit || !filters_.Accepts(a.url)) continue;
    LinkCandidate cand{a.url, DedupId(a.url, config_.dedup_ignore_scheme), 0, 0,
                       a.title.empty() ? UrlWords(a.url) : a.title,
                       AnnouncedPriority(floor, scores[i].score)};
    if (frontier_->Add(cand) == AddResult::kAdded) {
      rows.push_back({cand.url_id, cand.url, 0, 0, cand.anchor, cand.score, tag, 0});
    }
  }
  *queued = static_cast<int64_t>(rows.size());
  return store_->AddSeeds(rows);
}

}  // namespace topicrawl
