// robots.txt parsing and matching per RFC 9309 "Robots Exclusion Protocol"
// (https://www.rfc-editor.org/rfc/rfc9309), modelled on google/robotstxt, the
// reference implementation whose test expectations we run
// (robots_google_cases_test.cc).
//
// What the parser does, with the RFC section that asks for it:
//   §2.1    lines "key: value", keys case-insensitive, '#' comments, any of
//           CR / LF / CRLF line ends; a UTF-8 BOM is skipped.
//   §2.1    groups: consecutive user-agent lines share one group; the
//           allow/disallow lines that follow belong to it. Lines that are not
//           rules (sitemap, crawl-delay, unknown keys) do not end a run of
//           user-agent lines. Rules before the first user-agent are ignored.
//   §2.2.1  the crawler's product token (letters, '_' and '-' at the start of
//           its User-Agent: "topicrawl/0.1 (+url)" -> "topicrawl") is matched
//           case-insensitively; all groups naming it are merged; otherwise
//           the "*" groups; otherwise everything is allowed.
//   §2.2.2  the rule with the longest matching path wins; allow wins a tie;
//           "/robots.txt" is always allowed; an empty Disallow allows.
//   §2.2.3  '*' matches any sequence, a final '$' anchors the end.
//   §2.2.2  percent-encoding: patterns are normalised (non-ASCII, controls
//           and space percent-encoded as UTF-8; %xx hex upper-cased) and so
//           are %xx escapes in the URL. Encoded and literal unreserved
//           characters are NOT equated ("/%62az" does not match "/baz"):
//           this follows google/robotstxt's RFC tests (ID_Encoding), not the
//           last row of the RFC's example table. Callers pass canonical URLs
//           (url/url.h), which percent-encode non-ASCII.
//   §2.5    only the first kMaxRobotsBytes (500 KiB) are parsed.
//   §2.2.4  "other records": Sitemap URLs are collected; Crawl-delay (not
//           part of the RFC) is read per group and used as a politeness floor.
//
// Usage preferences (recorded, never used to allow or deny a fetch):
//   Content-Usage (IETF aipref, draft-ietf-aipref-attach-04 §4): a group
//           member like Allow/Disallow, "Content-Usage: [path] preferences",
//           e.g. "Content-Usage: train-ai=n" or "Content-Usage: /news/
//           train-ai=n, search=y" (vocabulary: draft-ietf-aipref-vocab);
//           for a URL the line with the longest matching path applies.
//   Content-Signal (contentsignals.org, Cloudflare's robots.txt extension):
//           "Content-Signal: search=yes, ai-train=no, ai-input=no", same
//           placement and optional path.
//   Lines before the first user-agent line apply to every agent.
//
// Leniencies taken from google/robotstxt (each reported as a RobotsIssue):
// "key value" without ':' when the line has exactly two words; the typos
// "useragent", "user agent", "dissallow", "dissalow", "disalow", "diasllow",
// "disallaw", "site-map"; lines longer than kMaxRobotsLineBytes truncated.
//
// Malformed lines are data: Parse() never fails; issues() lists every line
// it ignored or repaired. RobotsRules is immutable after parsing and safe to
// share between threads.
#ifndef TOPICRAWL_ROBOTS_ROBOTS_RULES_H_
#define TOPICRAWL_ROBOTS_ROBOTS_RULES_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topicrawl {

// RFC 9309 §2.5: parsers MUST handle at least 500 KiB; we parse exactly that.
constexpr size_t kMaxRobotsBytes = 500 * 1024;
// google/robotstxt's line cap (2083 * 8: the longest URL, fully escaped).
constexpr size_t kMaxRobotsLineBytes = 2083 * 8;

// One line the parser ignored or repaired.
struct RobotsIssue {
  int line = 0;          // 1-based line number
  std::string problem;   // e.g. "unknown key 'noindex'"
};

class RobotsRules {
 public:
  // The empty robots.txt: everything allowed.
  RobotsRules() = default;

  // Parses a robots.txt body. Never fails; see issues().
  static RobotsRules Parse(std::string_view body);
  // For fetch outcomes (robots/robots_cache.h): 4xx = allow all (RFC 9309
  // §2.3.1.3), unreachable = disallow all (§2.3.1.4).
  static RobotsRules AllowAll();
  static RobotsRules DisallowAll();

  // True when `agent` (a full User-Agent string or a bare product token) may
  // fetch `url`. `url` is an absolute URL ("http://h/p?q"); only its path,
  // params and query are used (fragment ignored; empty path means "/").
  bool Allowed(std::string_view agent, std::string_view url) const;

  // Crawl-delay in seconds from the groups that apply to `agent` (largest
  // value when several merged groups give one); nullopt when none does.
  std::optional<double> CrawlDelay(std::string_view agent) const;

  // The usage preference lines (Content-Usage, Content-Signal) of the
  // groups that apply to `agent` whose path matches `url`: per field the
  // line with the longest path (a line without path matches every URL).
  struct UsageLine {
    std::string field;  // "content-usage" or "content-signal"
    std::string path;   // normalised pattern; empty = every path
    std::string value;  // the preferences as written ("train-ai=n, search=y")
  };
  std::vector<UsageLine> UsagePreferences(std::string_view agent, std::string_view url) const;

  // Sitemap URLs, in file order (they belong to no group, RFC 9309 §2.2.4).
  const std::vector<std::string>& sitemaps() const { return sitemaps_; }
  // Ignored or repaired lines, in file order.
  const std::vector<RobotsIssue>& issues() const { return issues_; }
  // True when the body was longer than kMaxRobotsBytes and was cut.
  bool truncated() const { return truncated_; }
  // Number of groups and rules parsed (for logs and tests).
  size_t group_count() const { return groups_.size(); }
  size_t rule_count() const;

 private:
  friend class RobotsParser;
  struct Rule {
    bool allow = false;
    bool has_wildcard = false;  // contains '*' or ends with '$'
    std::string pattern;        // normalised (see header comment)
  };
  struct Group {
    std::vector<std::string> agents;  // lower-case product tokens or "*"
    std::vector<Rule> rules;
    std::optional<double> crawl_delay;
    std::vector<UsageLine> usage;
  };
  enum class Mode { kRules, kAllowAll, kDisallowAll };

  // Groups that apply to the product token (specific, else "*").
  std::vector<const Group*> GroupsFor(std::string_view agent) const;

  Mode mode_ = Mode::kRules;
  std::vector<Group> groups_;
  std::vector<std::string> sitemaps_;
  std::vector<UsageLine> global_usage_;  // usage lines before any group
  std::vector<RobotsIssue> issues_;
  bool truncated_ = false;
};

// The product token of a User-Agent string: its leading run of letters, '_'
// and '-' (RFC 9309 §2.2.1), e.g. "topicrawl/0.1 (+http://x)" -> "topicrawl".
std::string_view RobotsProductToken(std::string_view user_agent);

// True when robots path `pattern` (RFC 9309 §2.2.2-2.2.3: prefix match, '*'
// any sequence, final '$' anchors; normalised as rules are) matches the
// path `path` (RobotsMatchPath form). An empty pattern matches every path.
bool RobotsPatternMatches(std::string_view pattern, std::string_view path);

// The part of `url` robots rules match against: path, params and query,
// without fragment; "/" when empty (google/robotstxt GetPathParamsQuery).
std::string RobotsMatchPath(std::string_view url);

}  // namespace topicrawl

#endif  // TOPICRAWL_ROBOTS_ROBOTS_RULES_H_
