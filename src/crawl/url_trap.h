// URL traps: calendars, session ids and other generators of endless URLs.
//
// Two documented heuristics, both cheap and both recorded as refusals
// (FetchStatus kTrapRefused with the rule) rather than silent drops:
//   1. A per-host budget of URLs per *path pattern*: the URL with every run
//      of digits replaced by '#', every path segment or query value that
//      looks like an id (>= 8 characters mixing letters and digits, or any
//      ';param=value' path parameter) replaced by '*', and query values
//      dropped (keys kept, sorted). /cal/2024/05/ and /cal/2031/11/ share
//      "/cal/#/#/"; /p?sid=9fA3kQ1z and /p?sid=x7Yq2LmB share "/p?sid".
//      A calendar or session trap produces endless URLs of one pattern; a
//      real site's pages spread over many (the largest pattern of the
//      benchmark webs, help.libreoffice.org "/#.#/zh-TW/text/shared/#/#.html",
//      has 438 URLs; the default budget is 1,000).
//   2. A cap on the number of query parameters (faceted-search explosions).
// Heritrix's anchors: PathologicalPathDecideRule (repeated segments) and
// TooManyPathSegmentsDecideRule; also applied here: more than 3 repeats of
// one segment, or more than 30 segments.
#ifndef TOPICRAWL_CRAWL_URL_TRAP_H_
#define TOPICRAWL_CRAWL_URL_TRAP_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

namespace topicrawl {

// "host" + pattern of the path and query (see above). `url` is canonical.
std::string UrlPattern(std::string_view url);

// Number of '&'-separated query parameters (0 without a query).
int CountQueryParams(std::string_view url);

struct UrlTrapOptions {
  uint32_t max_urls_per_pattern = 1000;  // per host and pattern; 0: off
  int max_url_params = 10;               // < 0: off
  int max_segment_repeats = 3;           // one path segment, < 0: off
  int max_path_segments = 30;            // < 0: off
};

// Counts URLs per pattern and says which URL to refuse. Not thread-safe.
class UrlTrapGuard {
 public:
  explicit UrlTrapGuard(UrlTrapOptions options) : options_(options) {}
  // Empty when `url` may be fetched (and then counts it); otherwise the
  // reason, e.g. "url trap: more than 1000 URLs of pattern a.com/cal/#/#/".
  std::string Check(std::string_view url);
  // Counts `url` towards its pattern's budget without checking it (a URL
  // fetched before a resume; see crawl/url_trap_restore.h).
  void Admit(std::string_view url);
  // False when the pattern budget is off (Admit then does nothing).
  bool counts_patterns() const { return options_.max_urls_per_pattern > 0; }

 private:
  UrlTrapOptions options_;
  std::unordered_map<std::string, uint32_t> per_pattern_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_URL_TRAP_H_
