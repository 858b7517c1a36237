// PageRank of seed 000 (000_b5a9e3e8aba53bab, section 2.2, eq. 6), in the
// un-normalised form of Brin & Page 1998:
//
//   PR(P_j) = (1 - d) + d * sum_{P_i in B_j} PR(P_i) / |C_i|,   d = 0.85
//
// B_j: the pages linking to P_j (LinkGraph::Parents), C_i: the out-links of
// P_i (LinkGraph::Children). Without dangling pages the values average 1;
// pages with no out-links (not crawled yet) pass nothing on, as in eq. 6, so
// during a crawl the mean is below 1. The seed keeps links of pages with
// PR >= 2 as "potential value" candidates.
//
// Kept up to date during a crawl by warm-started Gauss-Seidel sweeps: each
// Update() continues from the previous vector (new nodes start at 1), so a
// few sweeps after every batch of new pages track the fixed point at a cost
// linear in the graph, O(V + E) per sweep.
//
// Thread-safety: none.
#ifndef TOPICRAWL_GRAPH_PAGE_RANK_H_
#define TOPICRAWL_GRAPH_PAGE_RANK_H_

#include <span>
#include <vector>

#include "graph/link_graph.h"

namespace topicrawl {

struct PageRankOptions {
  double damping = 0.85;     // d of eq. 6 (the seed's alpha)
  int sweeps_per_update = 3;  // Gauss-Seidel sweeps per Update()
};

class PageRank {
 public:
  explicit PageRank(PageRankOptions options = {}) : options_(options) {}

  // Runs `sweeps` in-place sweeps of eq. 6 over `graph` (nodes in id order),
  // warm-started from the last values. Returns the largest absolute change
  // of a value in the last sweep (0 for an empty graph).
  double Update(const LinkGraph& graph, int sweeps);
  double Update(const LinkGraph& graph) {
    return Update(graph, options_.sweeps_per_update);
  }
  // Sweeps until the largest change is below `tolerance` or `max_sweeps`
  // ran; returns the number of sweeps.
  int Solve(const LinkGraph& graph, double tolerance, int max_sweeps);

  // PR of a node; 1 (the start value) for nodes never updated.
  double Value(NodeId node) const {
    return node < pr_.size() ? pr_[node] : 1.0;
  }
  std::span<const double> values() const { return pr_; }
  // Replaces the values (a crawl's saved state); the next Update() warm-
  // starts from them.
  void SetValues(std::vector<double> values) { pr_ = std::move(values); }
  const PageRankOptions& options() const { return options_; }

 private:
  PageRankOptions options_;
  std::vector<double> pr_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_GRAPH_PAGE_RANK_H_
