// Back-off and host health: the policy that separates a sick URL from a
// sick host (docs/ARCHITECTURE.md, "Back-off and failure budget").
//
// Why this shape: the first policy backed the *whole host* off 1 s x 2^(k-1)
// (cap 600 s) on every transient failure and re-queued the URL on top, so a
// handful of stalled URLs blocked every other URL of their host for minutes
// while the crawl said nothing (issue #10). The anchors:
//   - Heritrix: a URL that fails with a retryable error is re-scheduled
//     after retry-delay-seconds (900 s) up to max-retries (30); the host
//     queue is "snoozed" only by politeness, not by one URL's failure.
//   - Nutch: fetcher.max.exceptions.per.queue -- after that many exceptions
//     a host queue is purged and its URLs are left for a later round.
//   - Scrapy RetryMiddleware: retries a request (RETRY_TIMES = 2) on
//     timeouts, connection errors and 500/502/503/504/522/524/408/429,
//     re-scheduled with a lower priority; the slot is not blocked.
// Here: per-URL retries with their own delay (Scrapy's count, Heritrix's
// delayed re-schedule, but seconds not minutes: a focused crawl is short);
// host-wide back-off only on host-wide signals, capped at 60 s; and a Nutch-
// style budget of consecutive failures after which the host is given up and
// its URLs are *recorded* (kHostFailed), never silently dropped.
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "frontier/frontier.h"

namespace topicrawl {
namespace {

std::string FailureName(const HostFeedback& f) {
  std::string name(FetchStatusName(f.status));
  if (f.http_code != 0) name += " " + std::to_string(f.http_code);
  return name;
}

// 429 and 503 speak for the server, DNS and connect failures for the host's
// reachability; everything else (a timeout after connecting, a reset mid-
// transfer, 502/504 from one slow backend) is first assumed to be the URL's.
bool IsHostSignal(const HostFeedback& f) {
  if (f.host_unreachable || f.status == FetchStatus::kDnsError) return true;
  return f.status == FetchStatus::kHttpError && (f.http_code == 429 || f.http_code == 503);
}

// Outcomes decided without a useful answer from the server: they neither
// end a failure streak nor extend it.
bool IsNeutral(FetchStatus s) {
  switch (s) {
    case FetchStatus::kRobotsDenied:
    case FetchStatus::kFilteredOut:
    case FetchStatus::kPrivateAddress:
    case FetchStatus::kBudgetExceeded:
    case FetchStatus::kHostFailed:
    case FetchStatus::kTrapRefused:
      return true;
    default:
      return false;
  }
}

}  // namespace

bool Frontier::ApplyFeedback(const CrawlTask& task, uint64_t seq,
                             const HostFeedback& feedback) {
  Host& host = hosts_[task.host_id];
  const TimePoint now = clock_->Now();
  if (IsNeutral(feedback.status)) return false;  // the server said nothing
  if (!IsTransient(feedback.status, feedback.http_code)) {
    // The host answered: whatever its streak was, it is over, and a back-off
    // still running is lifted (the host is evidently up) -- but not a
    // Retry-After the server asked for.
    host.consecutive_failures = 0;
    if (host.backoff_level > 0) {
      host.backoff_level = 0;
      host.next_start = std::max(std::min(host.next_start, now + Seconds(HostDelay(host))),
                                 host.retry_after_until);
    }
    return false;
  }
  ++host.consecutive_failures;
  ++host.total_failures;
  host.last_failure = FailureName(feedback);

  const bool host_wide =
      IsHostSignal(feedback) ||
      (options_.host_backoff_after > 0 &&
       host.consecutive_failures >= options_.host_backoff_after);
  if (host_wide) {
    host.backoff_level = std::min(host.backoff_level + 1, 62);
    double wait = std::min(std::ldexp(options_.backoff_base_s, host.backoff_level - 1),
                           options_.backoff_max_s);
    host.next_start = std::max(host.next_start, now + Seconds(wait));
  }
  if (feedback.retry_after_s >= 0) {
    double wait = std::min(feedback.retry_after_s, options_.max_retry_after_s);
    host.retry_after_until = std::max(host.retry_after_until, now + Seconds(wait));
    host.next_start = std::max(host.next_start, host.retry_after_until);
  }
  if (options_.host_failure_budget > 0 &&
      host.consecutive_failures >= options_.host_failure_budget) {
    AbandonHost(task.host_id);
    return false;  // this URL's own failure is its final record
  }
  if (host.failed || task.attempt >= options_.max_retries) return false;
  // The URL alone waits out its retry delay; the host's other URLs go on.
  CrawlTask retry = task;
  ++retry.attempt;
  double delay = std::min(std::ldexp(options_.retry_delay_s, static_cast<int>(task.attempt)),
                          options_.backoff_max_s);
  TimePoint due = now + Seconds(std::max(0.0, delay));
  // Never due before the host may be contacted again (Retry-After).
  due = std::max(due, host.next_start);
  delayed_.push_back(DelayedRetry{due, seq, std::move(retry)});
  std::push_heap(delayed_.begin(), delayed_.end(), DelayedLater{});
  return true;
}

void Frontier::PromoteDelayed() {
  const TimePoint now = clock_->Now();
  while (!delayed_.empty() && delayed_.front().due <= now) {
    std::pop_heap(delayed_.begin(), delayed_.end(), DelayedLater{});
    DelayedRetry d = std::move(delayed_.back());
    delayed_.pop_back();
    HostId h = d.task.host_id;
    if (hosts_[h].failed) {
      abandoned_.push_back(std::move(d.task));
      continue;
    }
    QueueTask(std::move(d.task), d.seq);
    Refresh(h);
  }
}

void Frontier::AbandonHost(HostId h) {
  Host& host = hosts_[h];
  if (host.failed) return;
  host.failed = true;
  // Every queued link of the host, spilled ones included, leaves the queue.
  while (host.count > 0) {
    if (host.links.empty()) {
      if (host.spilled == 0 || !spill_ || !spill_status_.ok()) break;
      Reload(h);
      if (host.links.empty()) break;
    }
    CrawlTask task = TakeEntry(LinkRef{h, 0});
    in_flight_.erase(task.url_id);  // TakeEntry marks it in flight
    abandoned_.push_back(std::move(task));
  }
  // Retries of this host waiting out their delay follow when they come due
  // (PromoteDelayed); pull them now so the crawl need not wait for them.
  std::vector<DelayedRetry> keep;
  for (DelayedRetry& d : delayed_) {
    if (d.task.host_id == h) {
      abandoned_.push_back(std::move(d.task));
    } else {
      keep.push_back(std::move(d));
    }
  }
  delayed_ = std::move(keep);
  std::make_heap(delayed_.begin(), delayed_.end(), DelayedLater{});
  Refresh(h);
}

std::vector<CrawlTask> Frontier::TakeAbandoned() {
  std::vector<CrawlTask> out;
  out.swap(abandoned_);
  return out;
}

std::string Frontier::HostFailureReason(HostId host) const {
  if (host >= hosts_.size() || !hosts_[host].failed) return {};
  const Host& h = hosts_[host];
  return "host " + h.key + " given up after " + std::to_string(h.consecutive_failures) +
         " consecutive failures (budget " + std::to_string(options_.host_failure_budget) +
         "; last: " + h.last_failure + ")";
}

HostHealth Frontier::Health(HostId host) const {
  const Host& h = hosts_[host];
  return HostHealth{h.consecutive_failures, h.total_failures, h.backoff_level,
                    h.failed, h.next_start, h.last_failure};
}

void Frontier::AdoptHostHealth(HostId h, const HostHealth& health) {
  if (h >= hosts_.size()) return;
  Host& host = hosts_[h];
  host.consecutive_failures = std::max(host.consecutive_failures, health.consecutive_failures);
  host.total_failures = std::max(host.total_failures, health.total_failures);
  host.backoff_level = std::max(host.backoff_level, health.backoff_level);
  if (host.last_failure.empty()) host.last_failure = health.last_failure;
  host.next_start = std::max(host.next_start, health.next_start);
  if (health.failed) {
    AbandonHost(h);  // refreshes
  } else {
    Refresh(h);
  }
}

WaitReport Frontier::Waiting() const {
  WaitReport r;
  const TimePoint now = clock_->Now();
  r.next = NextWakeup();
  r.retries_delayed = delayed_.size();
  for (const Host& h : hosts_) {
    if (h.count == 0) continue;
    if (h.held) {
      ++r.hosts_held;
    } else if (h.in_flight >= static_cast<uint32_t>(options_.max_connections_per_host)) {
      ++r.hosts_busy;
    } else if (h.next_start > now) {
      if (h.backoff_level > 0) {
        ++r.hosts_backed_off;
        if (h.consecutive_failures >= r.worst_failures) {
          r.worst_failures = h.consecutive_failures;
          r.worst_host = h.key;
        }
      } else {
        ++r.hosts_delayed;
      }
    }
  }
  return r;
}

}  // namespace topicrawl
