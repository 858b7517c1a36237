// The crawl loop's hooks to the operations surface and to a cluster: the
// monitor (crawl/crawl_monitor.h) and the cluster role (crawl/cluster_role.h).
// Both are optional; the loop calls these only when one is set.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "crawl/crawler_impl.h"
#include "crawl/dedup.h"
#include "url/url.h"

namespace topicrawl {

// The monitor hooks (crawl/crawl_monitor.h): a snapshot every publish
// interval, seeds posted through the REST API added like the initial ones.
void Crawler::Impl::ReportToMonitor(const PageRecord& rec, HostId host, bool relevant) {
  MonitoredPage m;
  m.id = next_page_id_;
  m.host = host;
  m.ok = rec.status == FetchStatus::kOk;
  m.relevant = relevant;
  m.relevance = rec.relevance.value_or(0);
  m.link_score = rec.link_score;
  m.depth = rec.depth;
  m.fetched_at_ms = rec.fetched_at;
  m.status = FetchStatusName(rec.status);
  m.url = &rec.url;
  m.title = &rec.title;
  monitor_->OnPage(m);
}

void Crawler::Impl::ServeMonitor(TimePoint now, bool final) {
  if (!final && monitor_->seeds_pending()) {
    std::vector<FrontierRecord> rows;
    for (const std::string& seed : monitor_->TakeSeeds()) {
      auto url = ResolveLink("", seed);
      if (!url || filters_.Decide(*url) == FilterDecision::kReject) continue;
      LinkCandidate c{*url, DedupId(*url, config_.dedup_ignore_scheme), 0, 0, "",
                      strategy_.traits.seed_score};
      if (frontier_->Add(c) == AddResult::kAdded) {
        rows.push_back({c.url_id, c.url, 0, 0, "", c.score, "{\"seed\":\"api\"}", 0});
      }
    }
    if (!rows.empty()) {
      stats_.links_queued += static_cast<int64_t>(rows.size());
      writer_->Post([rows = std::move(rows)](CrawlStore* store) {
        store->AddEvent("api_seeds", std::to_string(rows.size()) + " seeds");
        store->AddSeeds(rows);
      });
    }
  }
  if (!final && !monitor_->PublishDue(now)) return;
  const char* state = final ? (interrupted_ ? "stopped" : "finished")
                      : monitor_->stop_requested() ? "stopping"
                                                   : "running";
  if (render_) {
    std::vector<std::string> decisions;
    if (decider_) {
      for (const HostRenderDecision& d : decider_->Decisions()) {
        decisions.push_back(d.host + ": " + RenderStateName(d.state) +
                            (d.evidence.empty() ? "" : " (" + d.evidence + ")"));
      }
    }
    monitor_->SetRender(RenderModeName(render_mode_), render_->Stats().rendered,
                        std::move(decisions));
  }
  monitor_->Publish(stats_, frontier_.get(), now, clock_->UnixMillis(), state);
}

// Cluster mode (crawl/cluster_role.h): every ~50 ms, or at once when the
// frontier ran dry, links go out, committed fates are released and URLs of
// this worker's shards come in. The take keeps ~4 x concurrency queued
// locally: enough to fill the connections, few enough that a shard handed
// to a joining worker drains quickly.
void Crawler::Impl::ClusterTick(bool force) {
  if (!cluster_) return;
  const TimePoint now = clock_->Now();
  const size_t queued = frontier_->Queued();
  const size_t low = 2 * static_cast<size_t>(config_.concurrency);
  if (!force && now < next_cluster_tick_ && queued > 0) return;
  if (!force && now < next_cluster_tick_ - std::chrono::milliseconds(40)) return;
  next_cluster_tick_ = now + std::chrono::milliseconds(50);
  const size_t want = queued < low ? 2 * low - queued : 0;
  std::vector<LinkCandidate> taken;
  std::vector<UrlId> to_commit;
  if (Status s = cluster_->Tick(want, &taken, &to_commit); !s.ok()) {
    std::fprintf(stderr, "warning: cluster: %s (retrying)\n", s.message().c_str());
  }
  // Politeness of hosts of shards taken over, before their URLs arrive.
  for (const HostPoliteness& p : cluster_->TakeArrivedHosts()) {
    if (p.host_key.empty()) continue;
    const HostId host = frontier_->InternHostKey(p.host_key);
    if (p.crawl_delay_s > 0) frontier_->SetHostMinDelay(host, p.crawl_delay_s);
    HostHealth h;
    h.backoff_level = p.backoff_level;
    h.consecutive_failures = p.consecutive_failures;
    h.failed = p.failed;
    h.last_failure = "reported by the host's previous worker";
    h.next_start = now + std::chrono::milliseconds(std::max<int64_t>(
                             0, p.not_before_unix_ms - clock_->UnixMillis()));
    frontier_->AdoptHostHealth(host, h);
  }
  for (LinkCandidate& c : taken) {
    const UrlId id = c.url_id;
    // Known here already (a redirect target, a re-queued URL), or over its
    // URL-trap pattern's budget (the owner counts): released.
    if (AdmitLink(std::move(c)) != AddResult::kAdded) cluster_->Finished(id, false);
  }
  if (!to_commit.empty()) {
    writer_->Post([ids = std::move(to_commit), role = cluster_](CrawlStore* store) mutable {
      if (store->Flush().ok()) role->Committed(std::move(ids));
    });
  }
}

// The fate and the host's politeness state after the frontier applied the
// outcome: the cluster hands the state over with the host's shard.
void Crawler::Impl::ReportHostToCluster(UrlId url_id, bool ok, const std::string& url) {
  cluster_->Finished(url_id, ok);
  auto host = frontier_->InternHost(url);
  if (!host) return;
  const Frontier::HostInfo info = frontier_->GetHostInfo(*host);
  const HostHealth health = frontier_->Health(*host);
  HostPoliteness p;
  p.host_key = frontier_->HostKey(*host);
  p.crawl_delay_s = info.min_delay_s;
  p.not_before_unix_ms =
      clock_->UnixMillis() +
      std::chrono::duration_cast<std::chrono::milliseconds>(info.next_start - clock_->Now()).count();
  p.backoff_level = health.backoff_level;
  p.consecutive_failures = health.consecutive_failures;
  p.failed = health.failed;
  cluster_->HostState(p);
}

}  // namespace topicrawl
