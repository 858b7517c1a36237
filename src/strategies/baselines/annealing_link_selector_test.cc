// Simulated annealing selection: accept a worse neighbour with probability
// exp(-delta / T), T = max(T0 * rate^k, T_min).
#include "strategies/baselines/annealing_link_selector.h"

#include <cmath>
#include <set>

#include <gtest/gtest.h>

#include "support/fake_scores_view.h"
#include "support/frontier_test_util.h"

namespace topicrawl {
namespace {

using testing::ScoresView;

std::unique_ptr<LinkSelector> Make(AnnealingOptions o, uint64_t seed,
                                   std::shared_ptr<AnnealingState>* state = nullptr) {
  auto s = std::make_shared<AnnealingState>(o, seed);
  if (state) *state = s;
  LinkSelectorOptions so;
  so.seed = seed;
  return NewAnnealingLinkSelector(so, s);
}

TEST(AnnealingOptionsTest, GeometricCoolingWithAFloor) {
  AnnealingOptions o;  // 0.2, 0.9998, 0.001
  EXPECT_DOUBLE_EQ(o.Temperature(0), 0.2);
  EXPECT_NEAR(o.Temperature(5000), 0.2 * std::exp(5000 * std::log(0.9998)), 1e-15);
  EXPECT_NEAR(o.Temperature(5000), 0.0736, 1e-4);
  EXPECT_DOUBLE_EQ(o.Temperature(100'000), 0.001);
  EXPECT_TRUE(o.Validate().ok());
  o.rate = 1.5;
  EXPECT_NE(o.Validate().message().find("rate"), std::string::npos);
  o = AnnealingOptions{};
  o.t_min = 1.0;  // above t0
  EXPECT_FALSE(o.Validate().ok());
}

TEST(AnnealingLinkSelectorTest, AcceptsWorseLinksWithProbabilityExpMinusDeltaOverT) {
  // Host 1 wins the regional competition (mean 0.5 > 0.45) with one link of
  // 0.5; the best link is 0.9 (host 0). delta = 0.4, T = 0.4 constant:
  // P = e^-1.
  AnnealingOptions o;
  o.t0 = 0.4;
  o.rate = 1.0;
  std::shared_ptr<AnnealingState> state;
  auto sel = Make(o, 7, &state);
  ScoresView view({{0.9, 0.0}, {0.5}});
  constexpr int kN = 40'000;
  int worse = 0;
  for (int i = 0; i < kN; ++i) worse += sel->Select(view)->host == 1;
  const double p = std::exp(-1.0);
  const double sd = std::sqrt(p * (1 - p) / kN);
  EXPECT_NEAR(static_cast<double>(worse) / kN, p, 4 * sd);
  EXPECT_EQ(state->stats.worse_accepted, worse);
  EXPECT_EQ(state->stats.best_taken, kN - worse);
  EXPECT_EQ(state->stats.steps, kN);
}

TEST(AnnealingLinkSelectorTest, ColdWalkIsBestFirstHotWalkTakesTheNeighbour) {
  ScoresView view({{0.9, 0.0}, {0.5}});
  AnnealingOptions cold;
  cold.t0 = 1e-6;
  cold.t_min = 1e-6;
  auto c = Make(cold, 1);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(*c->Select(view), (LinkRef{0, 0}));
  AnnealingOptions hot;
  hot.t0 = 1e9;
  hot.rate = 1.0;
  auto h = Make(hot, 1);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(h->Select(view)->host, 1u);
}

TEST(AnnealingLinkSelectorTest, ANeighbourAsGoodAsTheBestIsAlwaysTaken) {
  AnnealingOptions cold;
  cold.t0 = 1e-6;
  cold.t_min = 1e-6;
  std::shared_ptr<AnnealingState> state;
  auto sel = Make(cold, 3, &state);
  ScoresView view({{0.8, 0.0, 0.0}, {0.8, 0.8}});  // region = host 1
  for (int i = 0; i < 50; ++i) EXPECT_EQ(sel->Select(view)->host, 1u);
  EXPECT_EQ(state->stats.equal_or_better, 50);
}

TEST(AnnealingLinkSelectorTest, DrainsAFrontierHandingOutEveryLinkOnce) {
  FakeClock clock;
  auto f = testing::MakeFrontier(testing::NoPoliteness(), &clock,
                                  NewAnnealingLinkSelector(LinkSelectorOptions{}));
  std::set<std::string> added;
  for (int h = 0; h < 5; ++h) {
    for (int i = 0; i < 40; ++i) {
      std::string url = "http://h" + std::to_string(h) + ".test/" + std::to_string(i);
      f->Add(testing::Link(url, ((h * 13 + i * 7) % 100) / 100.0));
      added.insert(url);
    }
  }
  std::vector<std::string> got = testing::Drain(*f);
  EXPECT_EQ(got.size(), added.size());
  EXPECT_EQ(std::set<std::string>(got.begin(), got.end()), added);
}

}  // namespace
}  // namespace topicrawl
