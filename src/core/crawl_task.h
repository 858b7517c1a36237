// The typed carriers that travel through the crawler: one CrawlTask per URL
// to fetch, one FetchResult per finished transfer, one ParsedPage per parsed
// document with its Outlinks.
//
// Flow of one URL: Frontier::Next -> CrawlTask -> Fetcher -> FetchResult ->
// (parse pool) ParsedPage + relevance -> Store -> outlinks scored -> Frontier.
#ifndef TOPICRAWL_CORE_CRAWL_TASK_H_
#define TOPICRAWL_CORE_CRAWL_TASK_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/fetch_status.h"

namespace topicrawl {

// 64-bit identity of a canonical URL (xxh3 of the canonical string).
using UrlId = uint64_t;
// Dense per-crawl host number, assigned by the frontier.
using HostId = uint32_t;
// Row id of a stored page; 0 means "none" (e.g. a seed has no parent).
using PageId = int64_t;

// One URL scheduled for download. Owned by value; cheap to move.
struct CrawlTask {
  UrlId url_id = 0;
  std::string url;            // canonical absolute http(s) URL
  HostId host_id = 0;
  uint32_t depth = 0;         // seeds are depth 0
  PageId parent_page_id = 0;  // page that first linked here (0 for seeds)
  std::string anchor;         // anchor text of the discovering link
  double score = 0.0;         // link score when it was selected
  uint32_t attempt = 0;       // retries so far (transient failures)
  // Conditional GET for recrawls: sent as If-None-Match / If-Modified-Since
  // when non-empty.
  std::string etag;
  std::string last_modified;
};

// Result of one transfer (robots.txt fetches use the same carrier).
struct FetchResult {
  CrawlTask task;
  FetchStatus status = FetchStatus::kOtherError;
  int http_code = 0;
  std::string final_url;                   // after redirects
  std::vector<std::string> redirect_chain;  // every URL visited, in order
  std::string content_type;                // raw Content-Type header value
  std::string etag;
  std::string last_modified;
  double retry_after_s = -1;  // parsed Retry-After, -1 when absent
  std::string body;           // decoded transfer (gzip/br/zstd undone)
  std::string request_head;   // raw request header block (for WARC)
  std::string response_head;  // raw final response status line + headers
  std::string remote_ip;
  std::string error;          // human-readable reason when status != kOk
  // No connection could be made at all (DNS, refused, connect timeout): a
  // host-wide signal for the back-off policy, unlike a failure mid-transfer.
  bool host_unreachable = false;
  double fetch_seconds = 0;
  int64_t fetched_at_unix_ms = 0;
};

// How a link was found in a page.
enum class LinkKind { kAnchor, kArea, kMetaRefresh, kFrame, kCanonical };

// One outgoing link of a parsed page.
struct Outlink {
  std::string url;          // absolute, canonical; empty when unresolvable
  std::string raw_href;     // as written in the page
  std::string anchor;       // anchor text (img alt included), whitespace-folded
  std::string context;      // seed 001: neighbour-link anchors or nearby text
  std::string dom_context;  // seed 004: text of DOM nodes within delta
  std::string block;        // page region "landmark|container" (parse/link_block.h);
                            // empty unless asked for (LinkContextNeeds::block)
  bool nofollow = false;    // rel=nofollow or page-level meta robots nofollow
  LinkKind kind = LinkKind::kAnchor;
};

// Which of the two link contexts a consumer reads. The parser computes only
// those asked for: the seed-004 DOM context alone is ~15% of a crawl's parse
// CPU (bench/crawl_throughput/pages_per_second.sh), wasted when no strategy reads it.
struct LinkContextNeeds {
  bool text = true;  // Outlink::context (seed 001)
  bool dom = true;   // Outlink::dom_context (seed 004)
  bool block = false;  // Outlink::block, the link's page region
};

// What the HTML layer extracts from a document.
struct ParsedPage {
  std::string base_url;     // effective base (<base href> honoured)
  std::string title;
  std::string description;  // <meta name=description>
  std::string keywords;     // <meta name=keywords>
  std::string canonical;    // <link rel=canonical>, absolute, or empty
  bool noindex = false;
  bool nofollow = false;
  std::vector<std::string> headings;     // h1..h6 text in order
  std::vector<std::string> emphasis;     // outermost strong/em/b text in order
  std::vector<std::string> text_blocks;  // visible block texts in order
  std::string text;                      // text_blocks joined by '\n'
  std::vector<Outlink> links;
  bool truncated = false;  // a size/depth/time bound cut the parse short
  std::string warning;     // why it was truncated or partially parsed
};

}  // namespace topicrawl

#endif  // TOPICRAWL_CORE_CRAWL_TASK_H_
