#include "robots/robots_cache.h"

#include <algorithm>

#include "url/url.h"

namespace topicrawl {
namespace {

enum class Outcome { kParse, kKeep, kUnavailable, kUnreachable };

// The table in robots_cache.h, as code.
Outcome Classify(int http_code, FetchStatus status, std::string_view body) {
  switch (status) {
    case FetchStatus::kNotModified:
      return Outcome::kKeep;
    case FetchStatus::kTooManyRedirects:
    case FetchStatus::kRedirectLoop:
      return Outcome::kUnavailable;  // §2.3.1.2: MAY treat as unavailable
    case FetchStatus::kOk:
    case FetchStatus::kHttpError:
    case FetchStatus::kContentTypeRejected:  // robots.txt served as text/html
    case FetchStatus::kTooLarge:             // parse the prefix we have
      break;
    default:
      return Outcome::kUnreachable;
  }
  if (http_code >= 200 && http_code < 300) {
    // A size-aborted transfer without any body is no robots.txt at all.
    if (status == FetchStatus::kTooLarge && body.empty()) return Outcome::kUnreachable;
    return Outcome::kParse;
  }
  if (http_code == 304) return Outcome::kKeep;
  if (http_code >= 300 && http_code < 400) return Outcome::kUnavailable;
  if (http_code == 429) return Outcome::kUnreachable;
  if (http_code >= 400 && http_code < 500) return Outcome::kUnavailable;
  return Outcome::kUnreachable;  // 5xx and anything odd
}

}  // namespace

std::string RobotsHostKey(std::string_view url) {
  UrlParseResult parsed = ParseUrl(url);
  if (!parsed.ok) return std::string();
  std::string_view href = parsed.href;
  std::string key(href.substr(0, href.find(':')));  // "http" or "https"
  key += "://";
  key += UrlHostPort(href);
  return key;
}

std::string RobotsUrl(std::string_view host_key) {
  return std::string(host_key) + "/robots.txt";
}

RobotsCache::RobotsCache(Clock* clock, RobotsCacheOptions options)
    : clock_(clock), options_(std::move(options)) {}

const RobotsCache::Entry* RobotsCache::Find(std::string_view host_key) const {
  auto it = entries_.find(std::string(host_key));
  return it == entries_.end() ? nullptr : &it->second;
}

RobotsCache::LookupResult RobotsCache::Lookup(std::string_view host_key) const {
  LookupResult result;
  const Entry* e = Find(host_key);
  if (e == nullptr) return result;
  result.rules = e->rules.get();
  TimePoint now = clock_->Now();
  if (e->pending && now - e->pending_since < options_.pending_timeout) {
    result.state = State::kPending;
  } else if (e->rules != nullptr && !e->pending && now < e->expires) {
    result.state = State::kReady;
  }
  return result;
}

void RobotsCache::MarkPending(std::string_view host_key) {
  Entry& e = entries_[std::string(host_key)];
  e.pending = true;
  e.pending_since = clock_->Now();
}

void RobotsCache::SetRules(Entry* entry, RobotsRules rules, bool parsed, Duration ttl) {
  entry->rules = std::make_shared<const RobotsRules>(std::move(rules));
  entry->rules_parsed = parsed;
  entry->expires = clock_->Now() + ttl;
}

void RobotsCache::OnUnreachable(Entry* e) {
  ++e->consecutive_failures;
  Duration backoff = options_.retry_backoff;
  for (int i = 1; i < e->consecutive_failures && backoff < options_.max_retry_backoff; ++i) {
    backoff *= 2;
  }
  backoff = std::min(backoff, options_.max_retry_backoff);
  // §2.4: while robots.txt is unreachable a previously parsed copy may be
  // used; without one, §2.3.1.4 says assume complete disallow.
  if (e->rules_parsed) {
    e->expires = clock_->Now() + backoff;
  } else {
    SetRules(e, RobotsRules::DisallowAll(), /*parsed=*/false, backoff);
  }
}

void RobotsCache::OnFetched(std::string_view host_key, int http_code,
                            std::string_view body, FetchStatus status) {
  Entry& e = entries_[std::string(host_key)];
  e.pending = false;
  switch (Classify(http_code, status, body)) {
    case Outcome::kParse:
      SetRules(&e, RobotsRules::Parse(body), /*parsed=*/true, options_.expiry);
      e.consecutive_failures = 0;
      break;
    case Outcome::kKeep:
      if (e.rules == nullptr) {
        // 304 without a cached copy: nothing to keep; refetch soon.
        OnUnreachable(&e);
      } else {
        e.expires = clock_->Now() + options_.expiry;
        e.consecutive_failures = 0;
      }
      break;
    case Outcome::kUnavailable:
      SetRules(&e, RobotsRules::AllowAll(), /*parsed=*/false, options_.expiry);
      e.consecutive_failures = 0;
      break;
    case Outcome::kUnreachable:
      OnUnreachable(&e);
      break;
  }
}

bool RobotsCache::Allowed(std::string_view url, std::string_view agent) const {
  if (RobotsMatchPath(url) == "/robots.txt") return true;
  const Entry* e = Find(RobotsHostKey(url));
  if (e == nullptr || e->rules == nullptr) return false;
  return e->rules->Allowed(agent, url);
}

std::optional<double> RobotsCache::CrawlDelay(std::string_view host_key) const {
  const Entry* e = Find(host_key);
  if (e == nullptr || e->rules == nullptr) return std::nullopt;
  return e->rules->CrawlDelay(options_.user_agent);
}

const std::vector<std::string>& RobotsCache::Sitemaps(std::string_view host_key) const {
  static const std::vector<std::string> kNone;
  const Entry* e = Find(host_key);
  return e == nullptr || e->rules == nullptr ? kNone : e->rules->sitemaps();
}

}  // namespace topicrawl
