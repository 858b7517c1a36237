// Collecting what a crawl's hosts announce (issue 34), before a round is
// planned or as round-0 seeds: per host
//   1. robots.txt (RFC 9309: 2xx parsed, 4xx allow all, 5xx or no answer:
//      the host is skipped, as a crawl would be disallowed) and its
//      `Sitemap:` lines (RFC 9309 section 2.2.4);
//   2. without any, optionally /sitemap.xml (probe_sitemap_xml), and the
//      feeds named by <link rel="alternate"> on the host's home page
//      (sitemap/feed_links.h);
//   3. every sitemap, sitemap index and feed found, parsed as a stream
//      (sitemap/announce_parser.h); an index's sitemaps are read up to
//      max_index_depth levels down, each URL once (an index that lists
//      itself, or nests deeper, is recorded, not followed).
// The crawl's rules apply to these fetches as to pages: robots.txt (a
// disallowed sitemap is not fetched: "robots_denied"), politeness (one
// request at a time per host, delay_s between them), the address rules
// (the same FetcherOptions: private addresses, connect_to), and only
// documents on the host's own origin are fetched (a Sitemap: line naming
// another host is recorded as "other_origin").
// Every fetch becomes an AnnounceFetchRow (status, kind, entries, problems
// by reason) and every announced URL one AnnouncementRow (the newest date
// when several documents name it; source sitemap before feed before link).
#ifndef TOPICRAWL_CRAWL_ANNOUNCE_COLLECTOR_H_
#define TOPICRAWL_CRAWL_ANNOUNCE_COLLECTOR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/clock.h"
#include "fetch/fetcher.h"
#include "store/announce_store.h"

namespace topicrawl {

struct AnnounceCollectOptions {
  FetcherOptions fetch;              // the crawl's (user agent, connect_to, address rules)
  std::string robots_agent = "topicrawl";  // product token matched in robots.txt
  double delay_s = 1.0;              // between two requests to one host
  bool probe_sitemap_xml = false;    // /sitemap.xml when robots.txt names no sitemap
  bool home_feeds = true;            // <link rel=alternate> feeds of "/" when robots.txt names none
  int max_index_depth = 2;           // index -> sitemap is depth 1
  int max_documents_per_host = 200;  // sitemaps + feeds read per host
  size_t max_in_flight = 4;          // hosts fetched at once (bodies <= 50 MiB each)
  int64_t now_ms = 0;                // dates after now + 1 day are rejected
};

struct AnnounceCollection {
  std::vector<AnnouncementRow> rows;      // url order
  std::vector<AnnounceFetchRow> fetches;  // fetch order
  int64_t hosts = 0, hosts_announcing = 0;
};

// `origins`: "scheme://host[:port]" of the hosts to read. `fetcher` and
// `clock` are not owned; the fetcher must be idle.
AnnounceCollection CollectAnnouncements(const std::vector<std::string>& origins,
                                        const AnnounceCollectOptions& options, Fetcher* fetcher,
                                        Clock* clock);

// The same with a libcurl fetcher made from options.fetch.
AnnounceCollection CollectAnnouncements(const std::vector<std::string>& origins,
                                        const AnnounceCollectOptions& options);

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_ANNOUNCE_COLLECTOR_H_
