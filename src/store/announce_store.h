// What sites announced, per round of a crawl (issue 34): the URLs read from
// their sitemaps and feeds, every sitemap/feed fetch with its problems, and
// the per-host trust in their <lastmod>. Three tables in DIR/crawl.db,
// created when first written (a crawl without them reads as empty):
//
//   announcements(round, url, host, source, lastmod, published, changefreq, priority,
//                 title, document)
//       one row per URL announced in the collection before round `round`
//       (the latest collection of a URL is its row of the highest round);
//       source 1 sitemap, 2 feed, 3 a feed found through a page's
//       <link rel="alternate">; dates unix ms (0 = none); title: a feed
//       entry's title ("" none); document: the sitemap or feed that named
//       it. (Tables written before these two columns get them, empty.)
//   announced_queue(round, rank, url, title, document, floor)
//       the announced URLs new to the crawl that the round's plan queues
//       (crawl/rounds/round_policy.h RoundPlan::announced), in the plan's
//       order; the crawler scores them with its strategy when the round
//       starts (crawl/announced_links.h).
//   announce_fetches(round, url, kind, status, http_code, entries, rejected, bytes, problems)
//       one row per robots.txt / sitemap / feed fetched: its outcome and
//       its problems as "reason=count reason=count ..." (data, not errors).
//   host_trust(round, host, trust, agree, disagree, state, reason)
//       the lastmod trust of each announcing host when round `round` was
//       planned (state: trusted | untrusted | unknown).
//
// A separate connection, like store/jlse_tables.h: the round runner writes
// while no CrawlStore batch is open (it flushes first).
#ifndef TOPICRAWL_STORE_ANNOUNCE_STORE_H_
#define TOPICRAWL_STORE_ANNOUNCE_STORE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"

namespace topicrawl {

class SqliteDb;

enum class AnnounceSource : int { kSitemap = 1, kFeed = 2, kLink = 3 };

struct AnnouncementRow {
  std::string url;   // canonical
  std::string host;  // lower-case host[:port]
  int source = 1;    // AnnounceSource
  int64_t lastmod_ms = 0;
  int64_t published_ms = 0;
  int changefreq = 0;  // sitemap::ChangeFreq as int
  double priority = -1;
  std::string title;     // a feed entry's or news article's title ("" none)
  std::string document;  // the sitemap or feed that named it (the one with the title)
};

struct AnnounceFetchRow {
  std::string url;
  std::string kind;    // robots | sitemapindex | urlset | rss | atom | unknown | html
  std::string status;  // fetch status name (ok, http_error, too_large, robots_denied ...)
  int http_code = 0;
  int64_t entries = 0, rejected = 0, bytes = 0;
  std::string problems;  // "reason=count ..."
};

struct HostTrustRow {
  std::string host;
  double trust = 0;
  int64_t agree = 0, disagree = 0;
  std::string state;   // trusted | untrusted | unknown
  std::string reason;  // e.g. "one date for 95% of 400 URLs", "3 of 4 claims wrong"
};

// An announced URL the crawl does not know, queued by a round's plan.
struct QueuedAnnouncement {
  std::string url;
  std::string title;
  std::string document;
  double floor = -1;  // RoundPlan::announced_floor
};

class AnnounceStore {
 public:
  // Opens DIR/crawl.db (it must exist) and creates the tables if missing.
  static StatusOr<std::unique_ptr<AnnounceStore>> Open(const std::string& crawl_dir);
  ~AnnounceStore();

  // Replaces round `round`'s announcements and fetch rows (one transaction).
  Status WriteRound(int round, const std::vector<AnnouncementRow>& rows,
                    const std::vector<AnnounceFetchRow>& fetches);
  Status WriteHostTrust(int round, const std::vector<HostTrustRow>& rows);

  // Rows of one round (url order); round < 0: every round (round, url order).
  Status ForEachAnnouncement(int round,
                             const std::function<bool(int, const AnnouncementRow&)>& visit);
  Status ForEachFetch(int round, const std::function<bool(int, const AnnounceFetchRow&)>& visit);
  Status ForEachHostTrust(int round, const std::function<bool(int, const HostTrustRow&)>& visit);

  // Replaces round `round`'s queue of announced new URLs.
  Status WriteQueue(int round, const std::vector<QueuedAnnouncement>& rows);
  // Round `round`'s queue, in rank order.
  Status ForEachQueued(int round, const std::function<bool(const QueuedAnnouncement&)>& visit);

 private:
  explicit AnnounceStore(std::unique_ptr<SqliteDb> db);
  std::unique_ptr<SqliteDb> db_;
};

// True when DIR/crawl.db holds announcements (without creating anything).
bool HasAnnouncements(const std::string& crawl_dir);

}  // namespace topicrawl

#endif  // TOPICRAWL_STORE_ANNOUNCE_STORE_H_
