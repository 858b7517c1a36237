// Seed 000 eq. 6, PR(P_j) = (1 - d) + d * sum PR(P_i)/|C_i|, d = 0.85,
// checked against graphs solved by hand.
#include "graph/page_rank.h"

#include <vector>

#include <gtest/gtest.h>

namespace topicrawl {
namespace {

LinkGraph Build(int nodes, const std::vector<std::vector<NodeId>>& out) {
  LinkGraph g;
  for (int i = 0; i < nodes; ++i) g.AddNode(1000 + i);
  for (size_t i = 0; i < out.size(); ++i) g.SetOutlinks(i, out[i]);
  return g;
}

TEST(PageRankTest, SolvesTheThreePageExampleByHand) {
  // A -> B, A -> C, B -> C, C -> A (Brin & Page's textbook example).
  //   a = .15 + .85 c;  b = .15 + .425 a;  c = .15 + .425 a + .85 b
  //   => c = .2775 + .78625 a  =>  a = .385875 / .3316875
  LinkGraph g = Build(3, {{1, 2}, {2}, {0}});
  PageRank pr;
  pr.Solve(g, 1e-12, 1000);
  const double a = 0.385875 / 0.3316875;
  const double b = 0.15 + 0.425 * a;
  const double c = 0.2775 + 0.78625 * a;
  EXPECT_NEAR(pr.Value(0), a, 1e-9);
  EXPECT_NEAR(pr.Value(1), b, 1e-9);
  EXPECT_NEAR(pr.Value(2), c, 1e-9);
  // No dangling pages: the un-normalised values average 1.
  EXPECT_NEAR(a + b + c, 3.0, 1e-9);
}

TEST(PageRankTest, DanglingPagesPassNothingOn) {
  // A -> B, B has no out-links (not crawled yet).
  LinkGraph g = Build(2, {{1}});
  PageRank pr;
  pr.Solve(g, 1e-12, 100);
  EXPECT_NEAR(pr.Value(0), 0.15, 1e-12);
  EXPECT_NEAR(pr.Value(1), 0.15 + 0.85 * 0.15, 1e-12);
}

TEST(PageRankTest, AHubOfManyPagesReachesThePotentialValueThreshold) {
  // 20 leaves link to a hub (node 0) that links back to all of them:
  //   h = .15 + .85 * 20 l,  l = .15 + .85 h / 20  =>  h = (.15 + 17 * .15) / (1 - .7225)
  std::vector<std::vector<NodeId>> out(21);
  for (NodeId leaf = 1; leaf <= 20; ++leaf) {
    out[0].push_back(leaf);
    out[leaf] = {0};
  }
  LinkGraph g = Build(21, out);
  PageRank pr;
  pr.Solve(g, 1e-12, 1000);
  const double h = (0.15 + 17 * 0.15) / (1 - 0.7225);
  EXPECT_NEAR(pr.Value(0), h, 1e-9);
  EXPECT_GE(pr.Value(0), 2.0);  // seed 000: PR >= 2 is "potential value"
  EXPECT_NEAR(pr.Value(5), 0.15 + 0.85 * h / 20, 1e-9);
}

TEST(PageRankTest, WarmStartTracksAGrowingGraph) {
  // Grow the example graph one node at a time with 3 sweeps per update, as
  // during a crawl; the values end near the converged solution.
  LinkGraph g;
  PageRank pr;
  for (int i = 0; i < 3; ++i) {
    g.AddNode(i);
    pr.Update(g);
  }
  std::vector<NodeId> a = {1, 2}, b = {2}, c = {0};
  g.SetOutlinks(0, a);
  g.SetOutlinks(1, b);
  g.SetOutlinks(2, c);
  for (int update = 0; update < 20; ++update) pr.Update(g);
  EXPECT_NEAR(pr.Value(0), 0.385875 / 0.3316875, 1e-6);
  EXPECT_LT(pr.Update(g, 1), 1e-6);
}

TEST(PageRankTest, UnknownNodesReadAsTheStartValue) {
  PageRank pr;
  EXPECT_EQ(pr.Value(7), 1.0);
  LinkGraph empty;
  EXPECT_EQ(pr.Update(empty), 0.0);
}

}  // namespace
}  // namespace topicrawl
