// SubresourceGate: the rules a rendered page's subresource request passes
// before the render worker fetches it, shared by every worker of a pool:
//   robots.txt of the request's host (RobotsCache; fetched by the worker
//   that first needs it), a minimum delay between fetches per host, and a
//   cache of successful responses (a site's script bundle is fetched once
//   per crawl, not once per page). Thread-safe.
#ifndef TOPICRAWL_RENDER_SUBRESOURCE_GATE_H_
#define TOPICRAWL_RENDER_SUBRESOURCE_GATE_H_

#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "core/clock.h"
#include "robots/robots_cache.h"

namespace topicrawl {

struct CachedResponse {
  int http_code = 200;
  std::string response_head;
  std::string content_type;
  std::string body;
};

struct GateOptions {
  bool respect_robots = true;
  std::string robots_agent = "topicrawl";
  double host_delay_s = 0;
  size_t cache_bytes = size_t{64} << 20;
  size_t cache_max_entry = size_t{2} << 20;
};

class SubresourceGate {
 public:
  enum class Verdict {
    kAllow,        // fetch now (the host's delay slot is taken)
    kDeny,         // robots.txt disallows; `why` says so
    kFetchRobots,  // the caller fetches robots_url and calls OnRobots
    kWait,         // robots.txt pending elsewhere, or the host's delay
  };
  struct Decision {
    Verdict verdict = Verdict::kAllow;
    std::string why;
    std::string robots_key;  // kFetchRobots: host key for OnRobots
    std::string robots_url;  // kFetchRobots: what to fetch
    TimePoint wait_until{};  // kWait: earliest time worth asking again
  };

  SubresourceGate(Clock* clock, GateOptions options);

  Decision Check(const std::string& url);
  // A robots.txt refused for its address (kPrivateAddress) makes every
  // request to the host a refusal for that reason, not a robots denial.
  void OnRobots(const std::string& host_key, int http_code, const std::string& body,
                FetchStatus status, const std::string& error = "");

  // Cache: only 200 answers up to cache_max_entry; oldest entries go first.
  std::shared_ptr<const CachedResponse> Lookup(const std::string& url);
  void Store(const std::string& url, std::shared_ptr<const CachedResponse> response);

 private:
  Clock* clock_;
  GateOptions options_;
  std::mutex mu_;
  RobotsCache robots_;                                   // guarded by mu_
  std::unordered_map<std::string, TimePoint> next_ok_;   // host key -> slot
  std::unordered_map<std::string, std::string> refused_;  // host key -> why
  std::unordered_map<std::string, std::shared_ptr<const CachedResponse>> cache_;
  std::deque<std::string> cache_order_;
  size_t cache_size_ = 0;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_RENDER_SUBRESOURCE_GATE_H_
