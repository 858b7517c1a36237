#include "graph/page_rank.h"

#include <algorithm>
#include <cmath>

namespace topicrawl {

double PageRank::Update(const LinkGraph& graph, int sweeps) {
  const size_t n = graph.NodeCount();
  pr_.resize(n, 1.0);  // warm start; new nodes at the mean of eq. 6
  const double d = options_.damping;
  double change = 0;
  for (int s = 0; s < sweeps; ++s) {
    change = 0;
    // Gauss-Seidel: values already updated in this sweep are used at once,
    // which converges to the same fixed point in fewer sweeps than Jacobi.
    for (NodeId j = 0; j < n; ++j) {
      double sum = 0;
      for (NodeId i : graph.Parents(j)) {
        sum += pr_[i] / static_cast<double>(graph.OutDegree(i));
      }
      const double v = (1 - d) + d * sum;  // eq. 6
      change = std::max(change, std::fabs(v - pr_[j]));
      pr_[j] = v;
    }
  }
  return change;
}

int PageRank::Solve(const LinkGraph& graph, double tolerance, int max_sweeps) {
  int sweeps = 0;
  while (sweeps < max_sweeps) {
    ++sweeps;
    if (Update(graph, 1) < tolerance) break;
  }
  return sweeps;
}

}  // namespace topicrawl
