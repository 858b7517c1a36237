#include "eval/friedman.h"

#include <gtest/gtest.h>

#include <cmath>

namespace topicrawl::eval {
namespace {

constexpr Direction kHi = Direction::kHigherIsBetter;
constexpr Direction kLo = Direction::kLowerIsBetter;

TEST(RankWithTiesTest, RanksBestFirstAndAveragesTies) {
  EXPECT_EQ(RankWithTies({0.3, 0.9, 0.5}, kHi), (std::vector<double>{3, 1, 2}));
  EXPECT_EQ(RankWithTies({0.3, 0.9, 0.5}, kLo), (std::vector<double>{1, 3, 2}));
  EXPECT_EQ(RankWithTies({5, 7, 7, 1}, kHi), (std::vector<double>{3, 1.5, 1.5, 4}));
  EXPECT_EQ(RankWithTies({2, 2, 2}, kLo), (std::vector<double>{2, 2, 2}));
  EXPECT_EQ(RankWithTies({std::nan(""), 1.0, 2.0}, kLo), (std::vector<double>{3, 1, 2}));
}

// Seed 000, table 1 at DP = 15000 (beta = 0.62) -> table 2.
TEST(FriedmanTest, ReproducesSeed000Table2) {
  // Strategies: BFS, OPS, FCSA-host, MOACO, FCWSEO, WL.
  std::vector<std::vector<double>> scores = {
      {0.2029, 0.6107, 0.7499, 0.7912, 0.8322, 0.8828},  // Accuracy
      {3043, 9160, 11248, 11868, 12483, 13242},           // LP
      {0.3705, 0.6169, 0.7003, 0.7780, 0.8201, 0.6917},  // ARDP
      {0.2438, 0.2339, 0.1471, 0.1377, 0.1558, 0.0784}}; // SDDP
  StatusOr<FriedmanResult> r = FriedmanTest(scores, {kHi, kHi, kHi, kLo});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->ranks[2], (std::vector<double>{6, 5, 3, 2, 1, 4}));  // ARDP column
  EXPECT_EQ(r->ranks[3], (std::vector<double>{6, 5, 3, 2, 4, 1}));  // SDDP column
  EXPECT_EQ(r->mean_ranks, (std::vector<double>{6, 5, 3.5, 2.5, 2.25, 1.75}));
  // By hand: rank sums 24 20 14 10 9 7; 12/(4*6*7) * 1402 - 3*4*7.
  EXPECT_NEAR(r->chi_square, 16.142857142857142, 1e-12);
  EXPECT_EQ(r->df, 5);
  // Closed form for odd df = 5: 2(1 - Phi(sqrt x)) + sqrt(2/pi) e^{-x/2}(sqrt x + x^1.5/3).
  EXPECT_NEAR(r->p_value, 0.0064478277781837975, 1e-12);
  ASSERT_TRUE(r->iman_davenport_f.has_value());
  EXPECT_NEAR(*r->iman_davenport_f, 3 * 16.142857142857142 / (20 - 16.142857142857142), 1e-9);
}

// Seed 000, table 5 at DP = 15000 -> table 6 (7 strategies).
TEST(FriedmanTest, ReproducesSeed000Table6) {
  // BFS, OPS, SA, WSE, On-ITS, OLMOACO, WL.
  std::vector<std::vector<double>> scores = {
      {0.047, 0.083, 0.358, 0.704, 0.820, 0.750, 0.873},
      {705, 1244, 5370, 10560, 12300, 11250, 13095},
      {0.211, 0.436, 0.533, 0.684, 0.792, 0.700, 0.702},
      {0.184, 0.144, 0.160, 0.127, 0.123, 0.075, 0.099}};
  StatusOr<FriedmanResult> r = FriedmanTest(scores, {kHi, kHi, kHi, kLo});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->mean_ranks, (std::vector<double>{7, 5.75, 5.25, 4, 2, 2.5, 1.5}));
  EXPECT_NEAR(r->chi_square, 22.39285714285714, 1e-12);  // 12/224*2210 - 96
  EXPECT_EQ(r->df, 6);
  // Closed form for even df = 6: e^{-x/2} (1 + x/2 + (x/2)^2/2).
  EXPECT_NEAR(r->p_value, 0.0010275382864024434, 1e-12);
}

TEST(FriedmanTest, AppliesTieCorrection) {
  // Ranks: [1.5 1.5 3], [3 2 1], [2 2 2]; rank sums 6.5 5.5 6.
  // chi = 108.5/3 - 36 = 1/6; ties: (8-2) + (27-3) = 30;
  // correction 1 - 30/72; chi_corrected = (1/6)/(42/72) = 2/7 (Conover's T1
  // gives the same: 2 * 0.5 / (39.5 - 36)). df 2: p = e^{-1/7}.
  StatusOr<FriedmanResult> r =
      FriedmanTest({{10, 10, 5}, {1, 2, 3}, {7, 7, 7}}, {kHi, kHi, kHi});
  ASSERT_TRUE(r.ok());
  EXPECT_NEAR(r->chi_square, 2.0 / 7, 1e-12);
  EXPECT_NEAR(r->p_value, 0.8668778997501816, 1e-12);
}

TEST(FriedmanTest, AllTiedMeansNoEvidence) {
  StatusOr<FriedmanResult> r = FriedmanTest({{1, 1}, {2, 2}}, {kHi, kHi});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->chi_square, 0);
  EXPECT_EQ(r->p_value, 1);
}

TEST(FriedmanTest, RejectsBadShapes) {
  EXPECT_FALSE(FriedmanTest({}, {}).ok());
  EXPECT_FALSE(FriedmanTest({{1}}, {kHi}).ok());
  EXPECT_FALSE(FriedmanTest({{1, 2}, {1}}, {kHi, kHi}).ok());
  EXPECT_FALSE(FriedmanTest({{1, 2}}, {kHi, kLo}).ok());
}

TEST(IncompleteGammaTest, MatchesClosedForms) {
  for (double x : {0.01, 0.5, 1.0, 2.0, 7.5, 30.0}) {
    EXPECT_NEAR(RegularizedGammaQ(1.0, x), std::exp(-x), 1e-14) << x;
    EXPECT_NEAR(RegularizedGammaP(0.5, x), std::erf(std::sqrt(x)), 1e-14) << x;
    EXPECT_NEAR(RegularizedGammaP(3.0, x) + RegularizedGammaQ(3.0, x), 1.0, 1e-14);
  }
  EXPECT_EQ(RegularizedGammaQ(2.5, 0), 1.0);
  EXPECT_EQ(RegularizedGammaP(2.5, 0), 0.0);
}

TEST(IncompleteGammaTest, ChiSquareCriticalValues) {
  // Textbook 5 % critical values.
  EXPECT_NEAR(ChiSquareSurvival(3.841458820694124, 1), 0.05, 1e-10);
  EXPECT_NEAR(ChiSquareSurvival(5.991464547107979, 2), 0.05, 1e-10);
  EXPECT_NEAR(ChiSquareSurvival(11.070497693516351, 5), 0.05, 1e-10);
  // Far tail, df 10 at 100: e^{-50} sum_{i<5} 50^i/i!.
  EXPECT_NEAR(ChiSquareSurvival(100, 10) / 5.4497019829205295e-17, 1.0, 1e-9);
}

}  // namespace
}  // namespace topicrawl::eval
