#include "graph/q_learning.h"

#include <algorithm>

namespace topicrawl {

int32_t QGraph::AddVertex(bool result) {
  result_.push_back(result);
  out_.emplace_back();
  q_edge_.emplace_back();
  q_vertex_.push_back(0.0);
  return static_cast<int32_t>(result_.size() - 1);
}

void QGraph::AddEdge(int32_t from, int32_t to) {
  if (std::find(out_[from].begin(), out_[from].end(), to) != out_[from].end()) return;
  out_[from].push_back(to);
  q_edge_[from].push_back(0.0);
}

QLearningStats QGraph::Solve(const QLearningParams& params) {
  QLearningStats stats;
  const int32_t n = static_cast<int32_t>(result_.size());
  // Start from zero each rebuild (algorithm 3 step 1): the fixed point does
  // not depend on the start, and a stale Q from an older Gw must not linger.
  for (int32_t v = 0; v < n; ++v) {
    std::fill(q_edge_[v].begin(), q_edge_[v].end(), 0.0);
    q_vertex_[v] = 0.0;
  }
  while (stats.sweeps < params.max_sweeps) {
    ++stats.sweeps;
    bool changed = false;
    for (int32_t v = n - 1; v >= 0; --v) {
      const auto& out = out_[v];
      if (out.empty()) continue;  // a leaf: nothing to compute
      double best = 0.0;
      for (size_t k = 0; k < out.size(); ++k) {
        const int32_t j = out[k];
        const double q = (result_[j] ? params.reward : 0.0) + params.gamma * q_vertex_[j];
        if (q != q_edge_[v][k]) {
          q_edge_[v][k] = q;
          changed = true;
          ++stats.updates;
        }
        best = std::max(best, q);
      }
      q_vertex_[v] = best;
    }
    if (!changed) {
      stats.converged = true;
      break;
    }
  }
  return stats;
}

}  // namespace topicrawl
