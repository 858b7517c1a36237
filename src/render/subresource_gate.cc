#include "render/subresource_gate.h"

#include <chrono>

namespace topicrawl {

SubresourceGate::SubresourceGate(Clock* clock, GateOptions options)
    : clock_(clock), options_(std::move(options)), robots_(clock) {}

SubresourceGate::Decision SubresourceGate::Check(const std::string& url) {
  Decision d;
  const std::string key = RobotsHostKey(url);
  if (key.empty()) {
    d.verdict = Verdict::kDeny;
    d.why = "not an http(s) URL";
    return d;
  }
  std::lock_guard<std::mutex> lock(mu_);
  const TimePoint now = clock_->Now();
  if (auto r = refused_.find(key); r != refused_.end()) {
    d.verdict = Verdict::kDeny;
    d.why = r->second;
    return d;
  }
  if (options_.respect_robots) {
    auto lookup = robots_.Lookup(key);
    if (lookup.state == RobotsCache::State::kUnknown) {
      robots_.MarkPending(key);
      d.verdict = Verdict::kFetchRobots;
      d.robots_key = key;
      d.robots_url = RobotsUrl(key);
      return d;
    }
    if (lookup.state == RobotsCache::State::kPending) {
      d.verdict = Verdict::kWait;
      d.wait_until = now + std::chrono::milliseconds(20);
      return d;
    }
    if (!robots_.Allowed(url, options_.robots_agent)) {
      d.verdict = Verdict::kDeny;
      d.why = "disallowed by robots.txt";
      return d;
    }
  }
  if (options_.host_delay_s > 0) {
    TimePoint& slot = next_ok_[key];
    if (now < slot) {
      d.verdict = Verdict::kWait;
      d.wait_until = slot;
      return d;
    }
    slot = now + std::chrono::duration_cast<Duration>(
                     std::chrono::duration<double>(options_.host_delay_s));
    if (next_ok_.size() > 100000) next_ok_.clear();  // bounded memory
  }
  return d;
}

void SubresourceGate::OnRobots(const std::string& host_key, int http_code,
                               const std::string& body, FetchStatus status,
                               const std::string& error) {
  std::lock_guard<std::mutex> lock(mu_);
  if (status == FetchStatus::kPrivateAddress && refused_.size() < 100000) {
    refused_[host_key] = std::string(FetchStatusName(status)) + " (" + error + ")";
  }
  robots_.OnFetched(host_key, http_code, body, status);
}

std::shared_ptr<const CachedResponse> SubresourceGate::Lookup(const std::string& url) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = cache_.find(url);
  return it == cache_.end() ? nullptr : it->second;
}

void SubresourceGate::Store(const std::string& url,
                            std::shared_ptr<const CachedResponse> response) {
  if (response->http_code != 200 || response->body.size() > options_.cache_max_entry) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (cache_.count(url) > 0) return;
  cache_size_ += response->body.size();
  cache_.emplace(url, std::move(response));
  cache_order_.push_back(url);
  while (cache_size_ > options_.cache_bytes && !cache_order_.empty()) {
    auto it = cache_.find(cache_order_.front());
    cache_size_ -= it->second->body.size();
    cache_.erase(it);
    cache_order_.pop_front();
  }
}

}  // namespace topicrawl
