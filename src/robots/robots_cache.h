// Per-host robots.txt state for the crawler (RFC 9309 §2.3 access results,
// §2.4 caching).
//
// A host key is "scheme://host[:port]" (RobotsHostKey): RFC 9309 §2.3 makes
// robots.txt apply to one scheme, host and port. The crawl loop does:
//
//   switch (cache.Lookup(key).state) {
//     case kUnknown: cache.MarkPending(key); fetch RobotsUrl(key); hold host;
//     case kPending: hold host (requeue the task);
//     case kReady:   if (!cache.Allowed(url, agent)) record kRobotsDenied;
//   }
//   ... when the robots fetch finishes (after the fetcher followed up to 5
//   redirects, §2.3.1.2): cache.OnFetched(key, code, body, status).
//
// How a fetch outcome becomes rules (OnFetched):
//   2xx (kOk)                         -> parse the body (first 500 KiB)
//   304 (kNotModified)                -> keep the cached rules, new expiry
//   3xx final, more than 5 redirects  -> "unavailable": allow all (§2.3.1.2)
//   4xx except 429, incl. 401/403     -> "unavailable": allow all (§2.3.1.3)
//   429, 5xx, timeout, connect/DNS/TLS and any other failure
//                                     -> "unreachable": disallow all
//                                        (§2.3.1.4), or keep the previous
//                                        parsed rules when there are any
//                                        (§2.4), and retry after a back-off.
//   429 is treated as unreachable (like Google) because it asks us to slow
//   down, not that the file is missing.
// Entries expire after `expiry` (24 h, §2.4: SHOULD NOT use a cached copy
// longer than 24 h); Lookup then says kUnknown again so the crawler refetches,
// while Allowed() keeps answering from the old rules until the new ones
// arrive. Unreachable results expire after retry_backoff, doubled per
// consecutive failure up to max_retry_backoff (5 min, 10, 20, ... 6 h).
//
// Thread-safety: none. The cache belongs to the crawl thread (the only
// caller); RobotsRules pointers it hands out stay valid until the next
// non-const call for the same host.
#ifndef TOPICRAWL_ROBOTS_ROBOTS_CACHE_H_
#define TOPICRAWL_ROBOTS_ROBOTS_CACHE_H_

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/clock.h"
#include "core/fetch_status.h"
#include "robots/robots_rules.h"

namespace topicrawl {

struct RobotsCacheOptions {
  // The crawler's User-Agent (or product token); used by CrawlDelay().
  std::string user_agent = "topicrawl";
  // Lifetime of rules from a 2xx or 4xx answer.
  Duration expiry = std::chrono::hours(24);
  // First retry delay after an unreachable result; doubles per consecutive
  // failure, capped at max_retry_backoff.
  Duration retry_backoff = std::chrono::minutes(5);
  Duration max_retry_backoff = std::chrono::hours(6);
  // A pending fetch that never reports back is forgotten after this long
  // (Lookup says kUnknown again), so a lost fetch cannot hold a host forever.
  Duration pending_timeout = std::chrono::minutes(10);
};

// "http://example.com:8080" for "http://Example.com:8080/a?b"; "" when `url`
// is not an absolute http(s) URL.
std::string RobotsHostKey(std::string_view url);
// "<host_key>/robots.txt".
std::string RobotsUrl(std::string_view host_key);

class RobotsCache {
 public:
  enum class State {
    kUnknown,  // never fetched, expired, or a pending fetch timed out
    kPending,  // MarkPending() called, OnFetched() not yet
    kReady,    // rules available (may be DisallowAll after an error)
  };
  struct LookupResult {
    State state = State::kUnknown;
    // Set for kReady; also set for kUnknown/kPending when stale rules exist.
    const RobotsRules* rules = nullptr;
  };

  // `clock` must outlive the cache.
  explicit RobotsCache(Clock* clock, RobotsCacheOptions options = {});

  LookupResult Lookup(std::string_view host_key) const;
  // The crawler started fetching robots.txt for host_key.
  void MarkPending(std::string_view host_key);
  // Records the outcome of a robots.txt fetch (final response after the
  // fetcher's redirects). `body` is only read for 2xx.
  void OnFetched(std::string_view host_key, int http_code, std::string_view body,
                 FetchStatus status);

  // True when `agent` may fetch `url` under the cached rules of the URL's
  // host (stale rules count). Fails closed: false when the host has no
  // rules yet. /robots.txt itself is always allowed.
  bool Allowed(std::string_view url, std::string_view agent) const;
  // Crawl-delay (seconds) for options.user_agent on host_key; nullopt when
  // none is set or no rules are cached.
  std::optional<double> CrawlDelay(std::string_view host_key) const;

  // Sitemaps listed by the cached robots.txt of host_key (empty if none).
  const std::vector<std::string>& Sitemaps(std::string_view host_key) const;
  // Number of hosts with an entry.
  size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    std::shared_ptr<const RobotsRules> rules;  // null until first result
    bool rules_parsed = false;   // rules came from a real robots.txt
    bool pending = false;
    TimePoint pending_since{};
    TimePoint expires{};
    int consecutive_failures = 0;
  };
  const Entry* Find(std::string_view host_key) const;
  void SetRules(Entry* entry, RobotsRules rules, bool parsed, Duration ttl);
  void OnUnreachable(Entry* entry);

  Clock* clock_;
  RobotsCacheOptions options_;
  std::unordered_map<std::string, Entry> entries_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_ROBOTS_ROBOTS_CACHE_H_
