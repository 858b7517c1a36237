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
// Once a pattern's budget is spent, a URL of it can only be refused: new
// links to it are then not queued at all (SpentPattern at admission) and are
// counted per pattern instead of stored one by one (an endless trap would
// otherwise fill the queue and the store with URLs that are never fetched);
// a URL queued before the budget ran out is refused at dispatch as above.
// Heritrix's anchors: PathologicalPathDecideRule (repeated segments) and
// TooManyPathSegmentsDecideRule; also applied here: more than 3 repeats of
// one segment, or more than 30 segments.
#ifndef TOPICRAWL_CRAWL_URL_TRAP_H_
#define TOPICRAWL_CRAWL_URL_TRAP_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

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

  // Admission: `url`'s pattern when that pattern has spent its whole
  // budget, so that Check would refuse the URL whenever it came up (counts
  // never go down): a new link to it need not be queued at all. Empty
  // otherwise. Does not count anything. Cheap for the URLs of a host none of
  // whose patterns is spent (no pattern is computed for them).
  std::string SpentPattern(std::string_view url) const;
  // Counts a link that was not queued because its pattern is spent.
  void NotQueued(std::string pattern);
  // Links counted by NotQueued, in all and per pattern.
  uint64_t not_queued() const { return not_queued_total_; }
  std::vector<std::pair<std::string, uint64_t>> NotQueuedByPattern() const;
  // Patterns whose budget became spent since the last call (by Check or
  // Admit), in that order; each is reported once.
  std::vector<std::string> TakeNewlySpent();

 private:
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  void Count(std::string pattern, uint32_t* n);

  UrlTrapOptions options_;
  std::unordered_map<std::string, uint32_t> per_pattern_;
  // Hosts (as UrlPattern spells them) with at least one spent pattern.
  std::unordered_set<std::string, StringHash, std::equal_to<>> spent_hosts_;
  std::unordered_map<std::string, uint64_t> not_queued_;
  uint64_t not_queued_total_ = 0;
  std::vector<std::string> newly_spent_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_URL_TRAP_H_
