// URL traps: calendars, session ids and other generators of endless URLs.
//
// Two documented heuristics, both cheap:
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
//      The budget counts URLs *admitted* to the frontier (Admit): once a
//      pattern has its 1,000, further new links to it are not queued at
//      all and are counted per pattern (NotQueuedByPattern; the crawler
//      records the counts and the moment each budget ran out as events)
//      instead of stored one by one. Until the change of issue 12 it counted
//      fetches, and every URL found meanwhile was queued to be refused at
//      its turn: on the synthetic web at 10^6 pages that was ~70 % of the
//      queue and ~2 refusals an ok page late in the crawl.
//   2. Per-URL rules checked at dispatch (Check), each recorded as a refusal
//      (FetchStatus kTrapRefused with the rule) rather than a silent drop:
//      a cap on the number of query parameters (faceted-search explosions);
//      after Heritrix's PathologicalPathDecideRule and
//      TooManyPathSegmentsDecideRule, more than 3 repeats of one segment,
//      or more than 30 segments.
#ifndef TOPICRAWL_CRAWL_URL_TRAP_H_
#define TOPICRAWL_CRAWL_URL_TRAP_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
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

  // Admission of a new URL (one the frontier has not seen and will queue
  // on a yes: Frontier::AddIf): true when its pattern still has budget (and
  // then counts it); false when the budget is spent (the link is then
  // counted as not queued). Always true with the budget off.
  bool Admit(std::string_view url);
  // Counts `url` towards its pattern's budget without a check (a URL
  // admitted before a --resume: the budget belongs to the crawl directory).
  void Restore(std::string_view url);
  // False when the pattern budget is off (Admit and Restore count nothing).
  bool counts_patterns() const { return options_.max_urls_per_pattern > 0; }

  // Dispatch: empty when `url` passes the per-URL rules (2. above);
  // otherwise the reason, e.g. "url trap: 12 query parameters (...)".
  std::string Check(std::string_view url) const;

  // Links Admit turned away, in all and per pattern (most first).
  uint64_t not_queued() const { return not_queued_total_; }
  std::vector<std::pair<std::string, uint64_t>> NotQueuedByPattern() const;
  // Patterns whose budget became spent since the last call (by Admit or
  // Restore), in that order; each is reported once.
  std::vector<std::string> TakeNewlySpent();

 private:
  UrlTrapOptions options_;
  std::unordered_map<std::string, uint32_t> per_pattern_;
  std::unordered_map<std::string, uint64_t> not_queued_;
  uint64_t not_queued_total_ = 0;
  std::vector<std::string> newly_spent_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_URL_TRAP_H_
