// ClusterRole: what the crawler asks of the cluster when it is one worker of
// a crawl spread over several processes (src/cluster/, docs/guides/scale-out.md).
// Without a role the crawler is the whole crawl, as before.
//
// With a role, the crawler's frontier only holds URLs the role handed it
// (Tick), which belong to hosts of shards this worker leases, so per-host
// politeness and the robots cache stay in one process. Every admitted
// outlink goes to Route() instead of the local frontier; every stored fate
// (pages row) is reported to Finished(). A URL is released in the cluster
// only after the store committed its row and its outlinks were handed off:
// the crawler posts Tick's `to_commit` ids to the store writer, which
// commits and then calls Committed() (at-least-once across kill -9).
//
// Politeness moves with a shard: the crawler reports each host's state
// (Crawl-delay floor, back-off, next allowed request) with every stored
// fate (HostState); when another worker takes the shard over, it gets those
// states (TakeArrivedHosts) and applies them before fetching from the host.
//
// Thread-safety: Committed() is called on the store writer thread; every
// other method on the crawl thread.
#ifndef TOPICRAWL_CRAWL_CLUSTER_ROLE_H_
#define TOPICRAWL_CRAWL_CLUSTER_ROLE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "frontier/frontier.h"

namespace topicrawl {

// The politeness state of one host, as it moves to a shard's next owner.
struct HostPoliteness {
  std::string host_key;            // frontier/host_key.h
  double crawl_delay_s = 0;        // the host's own delay floor (Crawl-delay)
  int64_t not_before_unix_ms = 0;  // no request to the host before this
  int backoff_level = 0;           // host-wide back-off step (frontier.h)
  uint32_t consecutive_failures = 0;
  bool failed = false;             // given up (failure budget)
  // Nothing a next owner needs beyond the global delay.
  bool Trivial() const {
    return crawl_delay_s <= 0 && backoff_level == 0 && consecutive_failures == 0 && !failed;
  }
};

class ClusterRole {
 public:
  virtual ~ClusterRole() = default;
  // An admitted link (outlink or seed); the cluster's seen-set decides.
  virtual void Route(const LinkCandidate& link) = 0;
  // The fate of a URL handed out by Tick is queued to the store.
  virtual void Finished(UrlId url_id, bool ok) = 0;
  // Sends routed links, releases committed URLs, and takes up to `want`
  // URLs of this worker's shards into *taken. *to_commit receives the
  // Finished ids to commit (then Committed()). Errors (Redis unreachable)
  // are transient: nothing is lost, the next Tick retries.
  virtual Status Tick(size_t want, std::vector<LinkCandidate>* taken,
                      std::vector<UrlId>* to_commit) = 0;
  // Store writer thread: `ids` are committed in the crawl directory.
  virtual void Committed(std::vector<UrlId> ids) = 0;
  // The cluster's crawl is over for this worker (nothing pending anywhere,
  // the cluster-wide page budget spent, or a stop request) and nothing of
  // this worker is waiting to be sent.
  virtual bool Over() const = 0;
  // Over() because of a stop request (`topicrawl cluster stop`).
  virtual bool StopRequested() const = 0;
  // The state of the host of a URL whose fate was just reported
  // (Finished), after the frontier applied the outcome.
  virtual void HostState(const HostPoliteness& state) = 0;
  // States of hosts of shards this worker took over since the last call;
  // the crawler applies them before it adds the URLs of the same Tick.
  virtual std::vector<HostPoliteness> TakeArrivedHosts() = 0;
  // At the end of Run(), after the store closed (committed): sends what is
  // left.
  virtual Status FinalFlush() = 0;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_CLUSTER_ROLE_H_
