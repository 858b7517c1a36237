#include "graph/q_learning.h"

#include "gtest/gtest.h"

namespace topicrawl {
namespace {

// The seed's example 1 (figure 2): 10 vertices, 11 edges, leaves (result
// pages) 3, 6 and 10, r_d = 100, gamma = 0.9. Solved by hand:
//   Q(2,<2,3>) = 100 (3 is a result leaf)        Q(2,<2,5>) = 0.9 * Q(5) = 90
//   Q(5,<5,6>) = 100                             Q(9,<9,10>) = 100
//   Q(8,<8,9>) = 0.9 * 100 = 90                  Q(7,<7,9>) = 90, Q(7,<7,8>) = 81
//   Q(4,<4,5>) = 90, Q(4,<4,7>) = 81             Q(1,<1,2>) = 90, Q(1,<1,4>) = 81
// so Q(1) = 90, Q(2) = 100, Q(4) = 90, Q(5) = 100, Q(7) = 90, Q(8) = 90,
// Q(9) = 100: the values the paper lists.
TEST(QLearningTest, SeedExampleSolvedByHand) {
  QGraph g;
  for (int i = 0; i <= 10; ++i) g.AddVertex(i == 3 || i == 6 || i == 10);  // 0 unused
  const int edges[][2] = {{1, 2}, {2, 3}, {4, 5}, {5, 6}, {8, 9}, {9, 10},
                          {7, 9}, {1, 4}, {4, 7}, {7, 8}, {2, 5}};
  for (auto [a, b] : edges) g.AddEdge(a, b);
  QLearningParams p;
  p.reward = 100;
  QLearningStats s = g.Solve(p);
  EXPECT_TRUE(s.converged);
  EXPECT_DOUBLE_EQ(g.QVertex(1), 90);
  EXPECT_DOUBLE_EQ(g.QVertex(2), 100);
  EXPECT_DOUBLE_EQ(g.QVertex(4), 90);
  EXPECT_DOUBLE_EQ(g.QVertex(5), 100);
  EXPECT_DOUBLE_EQ(g.QVertex(7), 90);
  EXPECT_DOUBLE_EQ(g.QVertex(8), 90);
  EXPECT_DOUBLE_EQ(g.QVertex(9), 100);
  EXPECT_DOUBLE_EQ(g.QVertex(3), 0);  // leaves have no actions
  EXPECT_DOUBLE_EQ(g.QEdge(7, 1), 81);  // edges of 7: 9, 8 (insertion order)
  EXPECT_DOUBLE_EQ(g.QEdge(2, 1), 90);
  // Link values: a result leaf is worth r_d, an internal vertex gamma * Q.
  EXPECT_DOUBLE_EQ(g.LinkValue(3, p), 100);
  EXPECT_DOUBLE_EQ(g.LinkValue(2, p), 90);
  EXPECT_DOUBLE_EQ(g.LinkValue(1, p), 81);
}

// Parents after children (ids reversed) need more sweeps, same fixed point;
// a cycle converges; k = 1 stops early without convergence.
TEST(QLearningTest, OrderCyclesAndSweepLimit) {
  QGraph g;  // chain 4 -> 3 -> 2 -> 1 -> 0 (result), built with ids reversed
  for (int i = 0; i < 5; ++i) g.AddVertex(i == 0);
  for (int i = 4; i > 0; --i) g.AddEdge(i, i - 1);
  g.AddEdge(1, 3);  // a cycle 1 -> 3 -> 2 -> 1
  QLearningParams p;
  QLearningStats s = g.Solve(p);
  EXPECT_TRUE(s.converged);
  EXPECT_GT(s.sweeps, 2);
  EXPECT_DOUBLE_EQ(g.QVertex(1), 1.0);
  EXPECT_DOUBLE_EQ(g.QVertex(2), 0.9);
  EXPECT_NEAR(g.QVertex(3), 0.81, 1e-15);
  EXPECT_NEAR(g.QVertex(4), 0.729, 1e-15);
  p.max_sweeps = 1;
  QLearningStats one = g.Solve(p);
  EXPECT_FALSE(one.converged);
  EXPECT_EQ(one.sweeps, 1);
  EXPECT_DOUBLE_EQ(g.QVertex(4), 0.0);  // the reward has not travelled yet
}

}  // namespace
}  // namespace topicrawl
