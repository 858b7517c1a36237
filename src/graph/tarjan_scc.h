// Strongly connected components (Tarjan 1972), iterative, and the
// contraction + minimum cover set of seed 002 (002_dc7a58c43ca85137,
// TopicHub §3.1.2, "算法1 有向图缩点算法").
//
// Tarjan's algorithm is usually written recursively; a chain of 10^6 pages
// (a paginated archive) would then need 10^6 stack frames. Here the DFS
// keeps its own explicit stack of (node, next child) frames on the heap, so
// depth is bounded only by memory: O(n + e) time, ~16 bytes a node.
//
// Thread-safety: pure functions.
#ifndef TOPICRAWL_GRAPH_TARJAN_SCC_H_
#define TOPICRAWL_GRAPH_TARJAN_SCC_H_

#include <cstdint>
#include <span>
#include <vector>

#include "graph/csr_graph.h"

namespace topicrawl {

struct SccResult {
  // component[v]: the SCC of node v, 0..count-1. Tarjan numbers components
  // in REVERSE topological order of the condensation: if an edge goes from
  // component a to a different component b, then a > b.
  std::vector<uint32_t> component;
  uint32_t count = 0;
};

// Tarjan's SCC algorithm without recursion. A self-loop does not change a
// single node's component (it is an SCC of size 1 either way).
SccResult TarjanScc(const CsrGraph& graph);

// Seed 002 Algorithm 1, steps 1-2: every SCC delta_i is contracted into its
// most important node v_max (ties: the lowest node id); every edge into or
// out of delta_i is redirected to v_max. Returns the representative of each
// component: representative[c] is a node of component c.
// REQUIRES: importance.size() == graph.NodeCount().
std::vector<CsrGraph::Node> SccRepresentatives(const SccResult& scc,
                                               std::span<const double> importance);

// Seed 002 Algorithm 1, step 3: the minimum cover set of the contracted
// graph — the kept representatives that no other kept node can reach, so
// that every node of the graph is reachable from one of them and none of
// them is redundant. In the condensation (a DAG) these are exactly the
// source components (no edge enters them from another component); the
// paper's pairwise "if e_ij in Es remove j" loop computes the same set.
// Returns the representatives of the source components, in node-id order.
std::vector<CsrGraph::Node> MinimumCoverSet(const CsrGraph& graph,
                                            std::span<const double> importance);

}  // namespace topicrawl

#endif  // TOPICRAWL_GRAPH_TARJAN_SCC_H_
