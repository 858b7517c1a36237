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

  // Reads `history`. A page is crawled when it has a current version,
  // relevant when its relevance >= history.Beta(), fresh when first fetched
  // in the last round.
  static StatusOr<RoundGraph> Read(RoundHistory& history);

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

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_ROUNDS_ROUND_GRAPH_H_
