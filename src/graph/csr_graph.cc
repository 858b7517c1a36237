#include "graph/csr_graph.h"

#include <algorithm>

namespace topicrawl {

CsrGraph CsrGraph::FromEdges(size_t nodes, std::span<const Edge> edges,
                             bool dedup) {
  CsrGraph g;
  g.offsets_.assign(nodes + 1, 0);
  for (const auto& [from, to] : edges) {
    if (from < nodes && to < nodes) ++g.offsets_[from + 1];
  }
  for (size_t i = 0; i < nodes; ++i) g.offsets_[i + 1] += g.offsets_[i];
  g.targets_.resize(g.offsets_[nodes]);
  std::vector<uint32_t> fill(g.offsets_.begin(), g.offsets_.end() - 1);
  for (const auto& [from, to] : edges) {
    if (from < nodes && to < nodes) g.targets_[fill[from]++] = to;
  }
  if (!dedup) return g;
  // Sort each row and squeeze out repeats, compacting in place.
  uint32_t write = 0;
  for (size_t i = 0; i < nodes; ++i) {
    auto begin = g.targets_.begin() + g.offsets_[i];
    auto end = g.targets_.begin() + g.offsets_[i + 1];
    std::sort(begin, end);
    auto last = std::unique(begin, end);
    g.offsets_[i] = write;
    for (auto it = begin; it != last; ++it) g.targets_[write++] = *it;
  }
  g.offsets_[nodes] = write;
  g.targets_.resize(write);
  g.targets_.shrink_to_fit();
  return g;
}

CsrGraph CsrGraph::FromCsr(std::vector<uint32_t> offsets,
                           std::vector<Node> targets) {
  CsrGraph g;
  g.offsets_ = std::move(offsets);
  g.targets_ = std::move(targets);
  return g;
}

CsrGraph CsrGraph::Reversed() const {
  const size_t n = NodeCount();
  CsrGraph r;
  r.offsets_.assign(n + 1, 0);
  for (Node t : targets_) ++r.offsets_[t + 1];
  for (size_t i = 0; i < n; ++i) r.offsets_[i + 1] += r.offsets_[i];
  r.targets_.resize(targets_.size());
  std::vector<uint32_t> fill(r.offsets_.begin(), r.offsets_.end() - 1);
  for (Node from = 0; from < n; ++from) {
    for (Node to : Children(from)) r.targets_[fill[to]++] = from;
  }
  return r;
}

}  // namespace topicrawl
