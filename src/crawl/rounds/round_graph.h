// RoundGraph: a RoundHistory read into dense ids for the seed-002 round
// policies (`topichub`, `static`): every known URL with its site and
// relevance, the link graph between them in CSR form (graph/csr_graph.h),
// and hop distances from a set of seed URLs.
//
// Memory: ~100 bytes a URL (its string, id maps, page record) plus 4 bytes
// a link: a 10^6-URL crawl is ~0.1 GiB plus its links.
#ifndef TOPICRAWL_CRAWL_ROUNDS_ROUND_GRAPH_H_
#define TOPICRAWL_CRAWL_ROUNDS_ROUND_GRAPH_H_

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "crawl/rounds/round_policy.h"
#include "graph/topic_hub.h"

namespace topicrawl {

struct RoundGraph {
  std::vector<UrlId> url_id;      // dense id -> UrlId
  std::vector<std::string> url;   // dense id -> URL
  std::vector<bool> revisitable;  // fetched before and not gone
  absl::flat_hash_map<UrlId, uint32_t> dense;
  TopicHubInput hub;              // pages (site, sim, relevant, fresh) + links
  std::vector<std::string> sites;

  // Which pages count as fresh (seed 002 eq. 2's new pages of a site).
  enum class Fresh {
    // New to the web, as far as the crawl can tell: first fetched in the
    // last round, and admitted by a link that a revisit in the last round
    // found on an older page (a link that page did not have before), or by
    // a link on a page that is itself fresh (a new page's new pages).
    kNewToWeb,
    // First fetched in the last round, whatever admitted it (so it also
    // counts the old pages a round reaches for the first time).
    kFirstFetched,
  };
  // Reads `history`. A page is crawled when it has a current version,
  // relevant when its relevance >= history.Beta(), fresh as `fresh` says.
  static StatusOr<RoundGraph> Read(RoundHistory& history, Fresh fresh = Fresh::kFirstFetched);

  // Hop distance from the nearest of `seeds` (dense ids) along links;
  // UINT32_MAX for unreachable nodes.
  std::vector<uint32_t> Distances(const std::vector<uint32_t>& seeds) const;
  // The dense ids of `urls` that are known (compared after CanonicalizeUrl).
  std::vector<uint32_t> Find(const std::vector<std::string>& urls) const;
};

// Revisits in crawl order from `seeds`: every revisitable URL, priority
// 1 / (1 + hops from the seeds) (0 when unreachable) plus a tie-breaker
// below one step, `tie[i]` in [0, 1) scaled by 1e-3.
std::vector<Revisit> RevisitsByDistance(const RoundGraph& g,
                                        const std::vector<uint32_t>& seeds,
                                        const std::vector<double>& tie);

// Revisits shared out by seed weight (seed 002 eq. 7 as a budget, not only
// an order): seed i gets the quota q_i = budget * w_i / sum(w) (largest
// remainder; seeds with w_i <= 0 get none) and claims, in breadth-first
// order from itself along links *within its own site*, up to q_i
// revisitable pages not claimed by a heavier seed (seeds are served in
// weight order; a page already claimed is passed through, not counted). The
// k-th of q_i pages gets priority 0.1 + 0.9 (1 - k / q_i), so that the
// seeds advance in step through the round. Budget a seed cannot use (its
// site reached no further) and pages beyond the quotas are filled by
// RevisitsByDistance from all seeds, at priority 0.09 x its value (below
// every claimed page). budget < 0: every revisitable page (quotas from the
// number of revisitable pages). Returns at most `budget` revisits.
std::vector<Revisit> RevisitsBySeedWeight(const RoundGraph& g,
                                          const std::vector<uint32_t>& seeds,
                                          const std::vector<double>& weights,
                                          int64_t budget);

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_ROUNDS_ROUND_GRAPH_H_
