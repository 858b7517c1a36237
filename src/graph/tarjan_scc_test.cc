// Iterative Tarjan SCC and seed 002's Algorithm 1 (contraction + minimum
// cover set) on graphs whose answers are known by hand or by brute force.
#include "graph/tarjan_scc.h"

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <vector>

#include <gtest/gtest.h>

namespace topicrawl {
namespace {

CsrGraph Graph(size_t n, std::vector<CsrGraph::Edge> edges) {
  return CsrGraph::FromEdges(n, edges);
}

// The SCCs as sets of nodes, independent of numbering.
std::set<std::set<uint32_t>> Components(const SccResult& r) {
  std::map<uint32_t, std::set<uint32_t>> by;
  for (uint32_t v = 0; v < r.component.size(); ++v) by[r.component[v]].insert(v);
  std::set<std::set<uint32_t>> out;
  for (auto& [c, s] : by) out.insert(s);
  return out;
}

TEST(TarjanSccTest, FindsTheComponentsOfTheTextbookGraph) {
  // Tarjan's example as drawn on Wikipedia: {0,1,2} {3,4} {5,6} {7}.
  CsrGraph g = Graph(8, {{0, 1}, {1, 2}, {2, 0}, {3, 1}, {3, 2}, {3, 4}, {4, 3},
                         {4, 5}, {5, 2}, {5, 6}, {6, 5}, {7, 4}, {7, 6}, {7, 7}});
  SccResult r = TarjanScc(g);
  EXPECT_EQ(r.count, 4u);
  EXPECT_EQ(Components(r), (std::set<std::set<uint32_t>>{{0, 1, 2}, {3, 4}, {5, 6}, {7}}));
}

TEST(TarjanSccTest, ASelfLoopIsAComponentOfOne) {
  CsrGraph g = Graph(3, {{0, 0}, {0, 1}, {1, 1}, {2, 2}});
  SccResult r = TarjanScc(g);
  EXPECT_EQ(r.count, 3u);
  EXPECT_EQ(Components(r), (std::set<std::set<uint32_t>>{{0}, {1}, {2}}));
}

TEST(TarjanSccTest, EmptyGraphAndIsolatedNodes) {
  EXPECT_EQ(TarjanScc(CsrGraph()).count, 0u);
  EXPECT_EQ(TarjanScc(Graph(5, {})).count, 5u);
}

TEST(TarjanSccTest, AMillionNodeChainDoesNotOverflowTheStack) {
  // 0 -> 1 -> ... -> n-1: a DFS a million frames deep; recursion would
  // blow an 8 MiB stack (and ASan's bigger frames) long before.
  const uint32_t n = 1'000'000;
  std::vector<CsrGraph::Edge> edges;
  for (uint32_t i = 0; i + 1 < n; ++i) edges.emplace_back(i, i + 1);
  SccResult chain = TarjanScc(Graph(n, edges));
  EXPECT_EQ(chain.count, n);
  // Reverse topological numbering: the tail closes first.
  EXPECT_EQ(chain.component[n - 1], 0u);
  EXPECT_EQ(chain.component[0], n - 1);
  // Close the chain into one cycle: one component of a million nodes.
  edges.emplace_back(n - 1, 0);
  SccResult cycle = TarjanScc(Graph(n, edges));
  EXPECT_EQ(cycle.count, 1u);
}

TEST(TarjanSccTest, NumbersComponentsInReverseTopologicalOrder) {
  std::mt19937 rng(7);
  CsrGraph g;
  {
    std::vector<CsrGraph::Edge> e;
    for (int i = 0; i < 400; ++i) e.emplace_back(rng() % 200, rng() % 200);
    g = Graph(200, e);
  }
  SccResult r = TarjanScc(g);
  for (uint32_t v = 0; v < g.NodeCount(); ++v) {
    for (uint32_t w : g.Children(v)) EXPECT_GE(r.component[v], r.component[w]);
  }
}

TEST(TarjanSccTest, AgreesWithBruteForceMutualReachability) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 30; ++trial) {
    const uint32_t n = 1 + rng() % 25;
    std::vector<CsrGraph::Edge> e;
    const int m = rng() % (3 * n);
    for (int i = 0; i < m; ++i) e.emplace_back(rng() % n, rng() % n);
    CsrGraph g = Graph(n, e);
    // Floyd-Warshall style transitive closure.
    std::vector<std::vector<bool>> reach(n, std::vector<bool>(n, false));
    for (uint32_t v = 0; v < n; ++v) {
      reach[v][v] = true;
      for (uint32_t w : g.Children(v)) reach[v][w] = true;
    }
    for (uint32_t k = 0; k < n; ++k)
      for (uint32_t i = 0; i < n; ++i)
        for (uint32_t j = 0; j < n; ++j)
          if (reach[i][k] && reach[k][j]) reach[i][j] = true;
    SccResult r = TarjanScc(g);
    for (uint32_t i = 0; i < n; ++i) {
      for (uint32_t j = 0; j < n; ++j) {
        EXPECT_EQ(r.component[i] == r.component[j], reach[i][j] && reach[j][i])
            << "trial " << trial << " nodes " << i << "," << j;
      }
    }
  }
}

TEST(MinimumCoverSetTest, KeepsTheSourcesOfATree) {
  // A(0) -> B(1) -> C(2), D(3) -> C: A and D cover everything.
  CsrGraph g = Graph(4, {{0, 1}, {1, 2}, {3, 2}});
  std::vector<double> imp = {0.1, 0.9, 0.9, 0.2};
  EXPECT_EQ(MinimumCoverSet(g, imp), (std::vector<uint32_t>{0, 3}));
}

TEST(MinimumCoverSetTest, ACycleIsContractedIntoItsMostImportantNode) {
  // 0 <-> 1 <-> 2 form one SCC; 2 -> 3; node 1 is the most important.
  CsrGraph g = Graph(4, {{0, 1}, {1, 0}, {1, 2}, {2, 1}, {2, 3}});
  std::vector<double> imp = {0.3, 0.8, 0.5, 1.0};
  EXPECT_EQ(MinimumCoverSet(g, imp), (std::vector<uint32_t>{1}));
}

TEST(MinimumCoverSetTest, ACycleEnteredFromOutsideIsNotKept) {
  // 4 -> 0, and {0, 1} a cycle: only 4 is needed to reach all.
  CsrGraph g = Graph(5, {{4, 0}, {0, 1}, {1, 0}, {1, 2}, {3, 3}});
  std::vector<double> imp = {0.9, 0.9, 0.1, 0.5, 0.0};
  // Node 3 (a self-loop, reached by nobody) must be kept too.
  EXPECT_EQ(MinimumCoverSet(g, imp), (std::vector<uint32_t>{3, 4}));
}

TEST(MinimumCoverSetTest, EveryNodeIsReachableFromTheCoverAndNoneIsRedundant) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    const uint32_t n = 2 + rng() % 30;
    std::vector<CsrGraph::Edge> e;
    for (uint32_t i = 0; i < 2 * n; ++i) e.emplace_back(rng() % n, rng() % n);
    CsrGraph g = Graph(n, e);
    std::vector<double> imp(n);
    for (double& x : imp) x = (rng() % 1000) / 1000.0;
    std::vector<uint32_t> cover = MinimumCoverSet(g, imp);
    auto reach_from = [&](uint32_t s) {
      std::vector<bool> seen(n, false);
      std::vector<uint32_t> todo = {s};
      seen[s] = true;
      while (!todo.empty()) {
        uint32_t v = todo.back();
        todo.pop_back();
        for (uint32_t w : g.Children(v)) {
          if (!seen[w]) {
            seen[w] = true;
            todo.push_back(w);
          }
        }
      }
      return seen;
    };
    std::vector<bool> covered(n, false);
    for (uint32_t c : cover) {
      std::vector<bool> r = reach_from(c);
      for (uint32_t v = 0; v < n; ++v) covered[v] = covered[v] || r[v];
      for (uint32_t d : cover) {
        if (d != c) {
          EXPECT_FALSE(r[d]) << "cover node " << d << " reachable from " << c;
        }
      }
    }
    for (uint32_t v = 0; v < n; ++v) EXPECT_TRUE(covered[v]) << "trial " << trial;
  }
}

}  // namespace
}  // namespace topicrawl
