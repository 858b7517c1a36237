// What the progress line and the dashboard tell a person planning around a
// crawl: when it will reach --max-pages, and what kinds of content it
// stored.
//
// PageRate: pages/s over the last `window_s` seconds of samples (one sample
// a progress tick); the estimate follows a crawl that speeds up or slows
// down instead of averaging over the whole run. Times are the caller's
// (seconds on any monotonic clock), so tests feed exact values.
// EtaSeconds: (max_pages - pages_ok) / rate; none without a budget, before
// any rate is known, or at zero rate.
// ContentTypeCounts: stored-ok pages by media type ("text/html",
// "application/pdf"; ContentTypeKey).
#ifndef TOPICRAWL_CRAWL_PROGRESS_ETA_H_
#define TOPICRAWL_CRAWL_PROGRESS_ETA_H_

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace topicrawl {

class PageRate {
 public:
  explicit PageRate(double window_s = 30) : window_s_(window_s) {}
  // A sample: `pages` stored ok at time `t_s` (non-decreasing times).
  void Add(double t_s, int64_t pages);
  // Pages per second between the oldest sample in the window and the
  // newest; nullopt with fewer than two samples or no time between them.
  std::optional<double> Rate() const;

 private:
  double window_s_;
  std::deque<std::pair<double, int64_t>> samples_;
};

std::optional<double> EtaSeconds(int64_t pages_ok, int64_t max_pages, std::optional<double> rate);

// "45s", "12m05s", "3h07m", "2d04h".
std::string FormatDuration(double seconds);

// The key a page counts under: fetch/http_headers.h's MediaType ("text/html"
// for "Text/HTML; charset=UTF-8"), "unknown" when there is none.
std::string ContentTypeKey(std::string_view content_type);

using ContentTypeCounts = std::map<std::string, int64_t>;

// "html 950, pdf 3, xhtml+xml 1": the `top` largest counts, each by its
// subtype, largest first (ties by media type); "" when there are none.
std::string FormatContentTypes(const ContentTypeCounts& counts, size_t top = 4);

struct CrawlStats;  // crawl/crawler.h

// The progress line's parts: " | ETA 12m05s to 10000" (eta_s known and a
// budget set; "" otherwise) and " | html 950, pdf 3" ("" before any page).
std::string EtaText(const CrawlStats& stats);
std::string ContentTypesText(const CrawlStats& stats);

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_PROGRESS_ETA_H_
