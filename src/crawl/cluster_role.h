// ClusterRole: what the crawler asks of the cluster when it is one worker of
// a crawl spread over several processes (src/cluster/, docs/scale-out.md).
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
// Thread-safety: Committed() is called on the store writer thread; every
// other method on the crawl thread.
#ifndef TOPICRAWL_CRAWL_CLUSTER_ROLE_H_
#define TOPICRAWL_CRAWL_CLUSTER_ROLE_H_

#include <cstddef>
#include <vector>

#include "core/status.h"
#include "frontier/frontier.h"

namespace topicrawl {

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
  // At the end of Run(), after the store closed (committed): sends what is
  // left.
  virtual Status FinalFlush() = 0;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_CLUSTER_ROLE_H_
