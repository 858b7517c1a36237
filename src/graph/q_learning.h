// Seed 004's web link graph Gw and its Q-learning (004_d65f8d41b01a9f7d
// §3.3, definition 5, algorithm 3, eq. 17-18).
//
// Gw = the crawl paths that led to result pages: from every result page
// walk parent links back to a seed. A vertex is a crawled page, i.e. the
// link that reached it (LinkTable <ID, url, parentID, depth, anchorText>);
// edges go parent -> child. Result pages (ResultTable) are the leaves.
//
// Q-learning on this deterministic MDP (state = vertex, action = out-edge):
//
//   Q(u_i, <u_i,u_j>) = r(u_j) + gamma * max_m Q(u_j, <u_j,u_m>)   (eq. 17)
//   Q(u_i)            = max_j Q(u_i, <u_i,u_j>)                   (eq. 18)
//
// r(u_j) = r_d (1.0, so values stay in [0, 1] on a tree whose result pages
// are leaves) when u_j is a result page, else 0; a vertex without out-edges
// has max_m Q = 0. Sweeps update every non-leaf vertex in place until a
// sweep changes nothing or k sweeps ran (algorithm 3). Vertices are swept in
// decreasing id order: children are added after their parents, so one sweep
// settles a tree and the second confirms it.
//
// The value of a vertex as a LINK (what a new link mapped onto it inherits,
// "Q(i) maps link i of Gw to its priority"): LinkValue(v) = Q(parent(v),
// <parent(v), v>) = r(v) + gamma * Q(v); for a seed (no parent) the same
// formula. This is the paper's Q(v) for internal vertices up to the factor
// gamma, and gives a result leaf its reward r_d instead of the undefined
// Q(leaf) = max over no edges.
//
// Thread-safety: none (the crawl thread owns the graph; readers get a
// snapshot of the values).
#ifndef TOPICRAWL_GRAPH_Q_LEARNING_H_
#define TOPICRAWL_GRAPH_Q_LEARNING_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace topicrawl {

struct QLearningParams {
  double gamma = 0.9;
  double reward = 1.0;   // r_d
  int max_sweeps = 100;  // k
};

struct QLearningStats {
  int sweeps = 0;
  bool converged = false;
  int64_t updates = 0;
};

// A directed graph of dense vertex ids 0..n-1 with per-vertex result flags.
class QGraph {
 public:
  int32_t AddVertex(bool result = false);
  void AddEdge(int32_t from, int32_t to);
  void SetResult(int32_t v, bool result) { result_[v] = result; }
  size_t size() const { return result_.size(); }
  bool result(int32_t v) const { return result_[v]; }
  const std::vector<int32_t>& out(int32_t v) const { return out_[v]; }

  // Runs eq. 17 to a fixed point (or k sweeps); fills q_vertex (eq. 18) and
  // q_edge (index-aligned with out(v)).
  QLearningStats Solve(const QLearningParams& params);
  double QVertex(int32_t v) const { return q_vertex_[v]; }
  double QEdge(int32_t v, size_t k) const { return q_edge_[v][k]; }
  // r(v) + gamma * Q(v): the value of arriving at v through its link.
  double LinkValue(int32_t v, const QLearningParams& params) const {
    return (result_[v] ? params.reward : 0.0) + params.gamma * q_vertex_[v];
  }

 private:
  std::vector<bool> result_;
  std::vector<std::vector<int32_t>> out_;
  std::vector<std::vector<double>> q_edge_;
  std::vector<double> q_vertex_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_GRAPH_Q_LEARNING_H_
