#include "crawl/crawl_monitor.h"

#include <utility>

#include "frontier/frontier.h"

namespace topicrawl {

CrawlMonitor::CrawlMonitor(CrawlMonitorOptions options) : options_(options) {
  snapshot_ = std::make_shared<const CrawlSnapshot>();
}

void CrawlMonitor::SetStrategy(std::string name, double beta) {
  strategy_ = std::move(name);
  beta_ = beta;
}

void CrawlMonitor::SetRender(std::string mode, int64_t rendered,
                             std::vector<std::string> decisions) {
  render_mode_ = std::move(mode);
  pages_rendered_ = rendered;
  render_decisions_ = std::move(decisions);
}

void CrawlMonitor::OnPage(const MonitoredPage& page) {
  if (page.host >= hosts_.size()) hosts_.resize(page.host + 1);
  HostCounts& h = hosts_[page.host];
  ++(page.ok ? h.fetched : h.failed);
  if (h.last_status != page.status) h.last_status.assign(page.status);
  if (!page.ok) return;
  window_.push_back(page.relevant);
  window_relevant_ += page.relevant;
  if (window_.size() > options_.harvest_window) {
    window_relevant_ -= window_.front();
    window_.pop_front();
  }
  if (page.relevant && options_.recent_relevant > 0) {
    RecentPage r;
    r.id = page.id;
    if (page.url) r.url = *page.url;
    if (page.title) r.title = *page.title;
    r.relevance = page.relevance;
    r.link_score = page.link_score;
    r.depth = page.depth;
    r.fetched_at_ms = page.fetched_at_ms;
    recent_.push_front(std::move(r));
    if (recent_.size() > options_.recent_relevant) recent_.pop_back();
  }
}

void CrawlMonitor::Publish(const CrawlStats& stats, const Frontier* frontier, TimePoint now,
                           int64_t unix_ms, const char* state) {
  if (!started_) {
    start_ = now;
    started_ = true;
  }
  next_publish_ = now + options_.publish_interval;
  auto snap = std::make_shared<CrawlSnapshot>();
  snap->stats = stats;
  snap->state = state;
  snap->strategy = strategy_;
  snap->beta = beta_;
  snap->render_mode = render_mode_;
  snap->pages_rendered = pages_rendered_;
  snap->render_decisions = render_decisions_;
  snap->harvest_window = static_cast<int64_t>(window_.size());
  snap->harvest_window_relevant = window_relevant_;
  snap->published_at_ms = unix_ms;
  snap->recent_relevant.assign(recent_.begin(), recent_.end());

  SeriesPoint p{std::chrono::duration<double>(now - start_).count(), stats.pages_ok,
                stats.pages_failed, stats.relevant};
  // One point a second at most; when full, drop every other point so the
  // series keeps covering the whole crawl at half the resolution.
  if (series_.empty() || p.t - series_.back().t >= 1.0) {
    series_.push_back(p);
    if (series_.size() > options_.series_points) {
      size_t j = 0;
      for (size_t i = 0; i < series_.size(); i += 2) series_[j++] = series_[i];
      series_.resize(j);
    }
  }
  snap->series = series_;
  if (snap->series.empty() || snap->series.back().t < p.t) snap->series.push_back(p);

  if (frontier) {
    const size_t n = frontier->Hosts();
    snap->hosts.reserve(n);
    for (HostId h = 0; h < n; ++h) {
      Frontier::HostInfo info = frontier->GetHostInfo(h);
      HostSnapshot hs;
      hs.host = frontier->HostKey(h);
      hs.queued = info.queued;
      hs.in_flight = info.in_flight;
      hs.backoff_level = info.backoff_level;
      hs.held = info.held;
      hs.next_fetch_in_s = std::chrono::duration<double>(info.next_start - now).count();
      hs.min_delay_s = info.min_delay_s;
      if (h < hosts_.size()) {
        hs.fetched = hosts_[h].fetched;
        hs.failed = hosts_[h].failed;
        hs.last_status = hosts_[h].last_status;
      }
      snap->hosts.push_back(std::move(hs));
    }
  }
  std::shared_ptr<const CrawlSnapshot> old;
  {
    std::lock_guard<std::mutex> lock(mu_);
    old = std::move(snapshot_);
    snapshot_ = std::move(snap);
  }
  // `old` is freed here, outside the lock (unless a reader still holds it).
}

std::shared_ptr<const CrawlSnapshot> CrawlMonitor::Snapshot() const {
  std::lock_guard<std::mutex> lock(mu_);
  return snapshot_;
}

void CrawlMonitor::AddSeeds(std::vector<std::string> urls) {
  std::function<void()> wake;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& u : urls) seeds_.push_back(std::move(u));
    seeds_pending_.store(true, std::memory_order_release);
    wake = wake_;
  }
  if (wake) wake();
}

std::vector<std::string> CrawlMonitor::TakeSeeds() {
  std::lock_guard<std::mutex> lock(mu_);
  seeds_pending_.store(false, std::memory_order_release);
  return std::exchange(seeds_, {});
}

void CrawlMonitor::RequestStop() {
  stop_.store(true, std::memory_order_release);
  std::function<void()> wake;
  {
    std::lock_guard<std::mutex> lock(mu_);
    wake = wake_;
  }
  if (wake) wake();
}

void CrawlMonitor::SetWakeup(std::function<void()> wake) {
  std::lock_guard<std::mutex> lock(mu_);
  wake_ = std::move(wake);
}

}  // namespace topicrawl
