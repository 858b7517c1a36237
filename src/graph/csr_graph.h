// CsrGraph: an immutable directed graph over dense node ids 0..n-1 in
// compressed-sparse-row form (one offsets array, one targets array), for the
// whole-graph algorithms that run between crawl rounds (Tarjan SCC,
// TopicHub). 4 bytes an edge plus 4 bytes a node: a 10^6-page crawl graph
// with 10^7 links is ~44 MB, where LinkGraph (two vectors a node, a hash
// map) would be several times that.
//
// Parallel edges are kept as given unless the builder is asked to drop them;
// self-loops are kept (Tarjan must see them; TopicHub ignores them).
//
// Thread-safety: immutable after construction; safe to share.
#ifndef TOPICRAWL_GRAPH_CSR_GRAPH_H_
#define TOPICRAWL_GRAPH_CSR_GRAPH_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace topicrawl {

class CsrGraph {
 public:
  using Node = uint32_t;
  using Edge = std::pair<Node, Node>;  // (from, to)

  CsrGraph() : offsets_(1, 0) {}
  // Builds from an edge list; edges whose ends are >= `nodes` are dropped.
  // `dedup`: several (from, to) edges become one. O(n + e) (counting sort,
  // targets of a node in input order, sorted only when deduplicating).
  static CsrGraph FromEdges(size_t nodes, std::span<const Edge> edges,
                            bool dedup = false);
  // From offsets/targets already in CSR form. REQUIRES: offsets.size() =
  // n + 1, offsets non-decreasing, offsets.back() = targets.size(), every
  // target < n.
  static CsrGraph FromCsr(std::vector<uint32_t> offsets,
                          std::vector<Node> targets);

  size_t NodeCount() const { return offsets_.size() - 1; }
  size_t EdgeCount() const { return targets_.size(); }
  // REQUIRES: node < NodeCount().
  std::span<const Node> Children(Node node) const {
    return {targets_.data() + offsets_[node], targets_.data() + offsets_[node + 1]};
  }
  size_t OutDegree(Node node) const { return offsets_[node + 1] - offsets_[node]; }
  // The graph with every edge reversed (children become parents).
  CsrGraph Reversed() const;
  size_t MemoryBytes() const {
    return offsets_.capacity() * sizeof(uint32_t) + targets_.capacity() * sizeof(Node);
  }

 private:
  std::vector<uint32_t> offsets_;  // n + 1
  std::vector<Node> targets_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_GRAPH_CSR_GRAPH_H_
