#include "graph/tarjan_scc.h"

#include <algorithm>
#include <limits>

namespace topicrawl {
namespace {

constexpr uint32_t kUnvisited = std::numeric_limits<uint32_t>::max();

struct Frame {
  CsrGraph::Node node;
  uint32_t next_child;  // index into Children(node) still to explore
};

}  // namespace

SccResult TarjanScc(const CsrGraph& graph) {
  const size_t n = graph.NodeCount();
  SccResult out;
  out.component.assign(n, kUnvisited);
  std::vector<uint32_t> index(n, kUnvisited);  // DFS discovery order
  std::vector<uint32_t> low(n, 0);             // lowest index reachable
  std::vector<CsrGraph::Node> stack;           // Tarjan's node stack
  std::vector<Frame> calls;                    // the explicit DFS "call stack"
  uint32_t next_index = 0;

  for (CsrGraph::Node root = 0; root < n; ++root) {
    if (index[root] != kUnvisited) continue;
    calls.push_back({root, 0});
    index[root] = low[root] = next_index++;
    stack.push_back(root);
    while (!calls.empty()) {
      Frame& f = calls.back();
      const CsrGraph::Node v = f.node;
      auto children = graph.Children(v);
      if (f.next_child < children.size()) {
        const CsrGraph::Node w = children[f.next_child++];
        if (index[w] == kUnvisited) {  // "recurse" into w
          index[w] = low[w] = next_index++;
          stack.push_back(w);
          calls.push_back({w, 0});  // invalidates f; loop re-reads back()
        } else if (out.component[w] == kUnvisited) {  // w is on the stack
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      // All children done: v closes a component when it is its root.
      if (low[v] == index[v]) {
        CsrGraph::Node w;
        do {
          w = stack.back();
          stack.pop_back();
          out.component[w] = out.count;
        } while (w != v);
        ++out.count;
      }
      calls.pop_back();
      if (!calls.empty()) {  // "return" to the parent
        const CsrGraph::Node parent = calls.back().node;
        low[parent] = std::min(low[parent], low[v]);
      }
    }
  }
  return out;
}

std::vector<CsrGraph::Node> SccRepresentatives(const SccResult& scc,
                                               std::span<const double> importance) {
  std::vector<CsrGraph::Node> rep(scc.count, kUnvisited);
  for (CsrGraph::Node v = 0; v < scc.component.size(); ++v) {
    CsrGraph::Node& r = rep[scc.component[v]];
    // Strictly greater keeps the lowest id among equals (v grows).
    if (r == kUnvisited || importance[v] > importance[r]) r = v;
  }
  return rep;
}

std::vector<CsrGraph::Node> MinimumCoverSet(const CsrGraph& graph,
                                            std::span<const double> importance) {
  SccResult scc = TarjanScc(graph);
  std::vector<CsrGraph::Node> rep = SccRepresentatives(scc, importance);
  // A component is a source of the contracted graph unless an edge from a
  // different component enters it (edges inside a component, self-loops
  // included, vanish in the contraction).
  std::vector<bool> entered(scc.count, false);
  for (CsrGraph::Node v = 0; v < graph.NodeCount(); ++v) {
    const uint32_t cv = scc.component[v];
    for (CsrGraph::Node w : graph.Children(v)) {
      if (scc.component[w] != cv) entered[scc.component[w]] = true;
    }
  }
  std::vector<CsrGraph::Node> cover;
  for (uint32_t c = 0; c < scc.count; ++c) {
    if (!entered[c]) cover.push_back(rep[c]);
  }
  std::sort(cover.begin(), cover.end());
  return cover;
}

}  // namespace topicrawl
