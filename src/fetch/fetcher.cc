#include "fetch/fetcher.h"

#include <algorithm>

#include "fetch/address_policy.h"

namespace topicrawl {

Status ValidateFetcherOptions(const FetcherOptions& options) {
  for (const auto& rule : options.connect_to) {
    std::string error;
    if (!ParseConnectTo(rule, &error)) return Status::Error(error);
  }
  if (options.connect_timeout_s <= 0 || options.total_timeout_s <= 0) {
    return Status::Error("fetch timeouts must be positive");
  }
  if (options.low_speed_bytes_per_s < 0 || options.low_speed_time_s < 0) {
    return Status::Error("low-speed limit and time must not be negative");
  }
  if (options.max_body_bytes == 0 || options.max_robots_bytes == 0) {
    return Status::Error("body size limits must be positive");
  }
  if (options.max_redirects < 0) return Status::Error("max_redirects must be >= 0");
  if (options.connection_cache_size < 0) {
    return Status::Error("connection_cache must be >= 0");
  }
  if (options.user_agent.empty()) return Status::Error("user_agent must not be empty");
  return Status::Ok();
}

long EffectiveConnectionCache(long wanted, uint64_t open_file_limit) {
  if (wanted <= 0 || open_file_limit == 0) return wanted < 0 ? 0 : wanted;
  const uint64_t cap = std::max<uint64_t>(16, open_file_limit / 4);
  return static_cast<long>(std::min<uint64_t>(static_cast<uint64_t>(wanted), cap));
}

}  // namespace topicrawl
