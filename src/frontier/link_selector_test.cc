// SampleByScore (stochastic acceptance) and the selector registry.
#include "frontier/link_selector.h"

#include <map>
#include <vector>

#include <gtest/gtest.h>

namespace topicrawl {
namespace {

// One host (id 0) with the given scores at slots 0..n-1; slot 0 is the top.
class FakeView : public SelectionView {
 public:
  explicit FakeView(std::vector<double> scores) : scores_(std::move(scores)) {}
  size_t ReadyHosts() const override { return 1; }
  std::optional<LinkRef> GlobalBest() const override { return LinkRef{0, 0}; }
  std::optional<HostId> BestMeanHost() const override { return 0; }
  HostStats Stats(HostId) const override {
    HostStats s;
    s.count = s.in_ram = scores_.size();
    for (double x : scores_) {
      s.sum_score += x;
      s.max_score = std::max(s.max_score, x);
    }
    return s;
  }
  LinkRef Top(HostId host) const override { return LinkRef{host, 0}; }
  LinkInfo At(LinkRef ref) const override {
    LinkInfo info;
    info.url_id = ref.slot;
    info.score = scores_[ref.slot];
    return info;
  }

 private:
  std::vector<double> scores_;
};

TEST(SampleByScoreTest, DrawsProportionallyToScore) {
  // Scores 1..10; chi-square goodness of fit, 9 degrees of freedom.
  std::vector<double> scores;
  for (int i = 1; i <= 10; ++i) scores.push_back(i);
  FakeView view(scores);
  std::mt19937_64 rng(12345);
  constexpr int kDraws = 200'000;
  std::vector<int> counts(10, 0);
  int fallbacks = 0;
  for (int i = 0; i < kDraws; ++i) {
    bool fell_back = false;
    LinkRef ref = SampleByScore(view, 0, rng, 64, &fell_back);
    ++counts[ref.slot];
    fallbacks += fell_back;
  }
  double chi2 = 0;
  for (int i = 0; i < 10; ++i) {
    double expected = kDraws * (i + 1) / 55.0;
    chi2 += (counts[i] - expected) * (counts[i] - expected) / expected;
  }
  // 99.9th percentile of chi-square(9) is 27.88.
  EXPECT_LT(chi2, 27.88) << "chi2 = " << chi2;
  // s_max / s_mean = 1.8: 64 rejections in a row has probability ~0.
  EXPECT_EQ(fallbacks, 0);
}

TEST(SampleByScoreTest, NeverPicksNonPositiveScores) {
  FakeView view({1.0, 0.0, -3.0, 2.0});
  std::mt19937_64 rng(1);
  std::map<uint32_t, int> counts;
  for (int i = 0; i < 10'000; ++i) ++counts[SampleByScore(view, 0, rng).slot];
  EXPECT_EQ(counts.count(1), 0u);
  EXPECT_EQ(counts.count(2), 0u);
  EXPECT_NEAR(counts[3] / 10'000.0, 2.0 / 3.0, 0.03);
}

TEST(SampleByScoreTest, FallsBackToTheTopWhenNothingHasWeight) {
  FakeView view({0.0, 0.0, -1.0});
  std::mt19937_64 rng(1);
  bool fell_back = false;
  EXPECT_EQ(SampleByScore(view, 0, rng, 64, &fell_back).slot, 0u);
  EXPECT_TRUE(fell_back);
}

TEST(SampleByScoreTest, CapsTheNumberOfDraws) {
  // One needle in a haystack of tiny scores: acceptance ~1e-9 per draw.
  std::vector<double> scores(1000, 1e-12);
  scores[0] = 1.0;  // the top
  FakeView view(scores);
  std::mt19937_64 rng(3);
  int fallbacks = 0;
  for (int i = 0; i < 100; ++i) {
    bool fell_back = false;
    LinkRef ref = SampleByScore(view, 0, rng, 4, &fell_back);
    if (fell_back) {
      ++fallbacks;
      EXPECT_EQ(ref.slot, 0u);
    }
  }
  EXPECT_GT(fallbacks, 90);
}

TEST(LinkSelectorRegistryTest, BuildsEveryListedName) {
  for (const std::string& name : LinkSelectorNames()) {
    auto selector = MakeLinkSelector(name);
    ASSERT_TRUE(selector.ok()) << name;
    EXPECT_EQ((*selector)->Name(), name);
  }
  // The generic selectors; the Wang-Landau and annealing selectors belong to
  // their strategy families (src/strategies/), which build them.
  EXPECT_EQ(LinkSelectorNames(),
            (std::vector<std::string>{"bfs", "best-first", "region-roulette"}));
}

TEST(LinkSelectorRegistryTest, UnknownNameListsTheKnownOnes) {
  auto selector = MakeLinkSelector("wang-landau-typo");
  ASSERT_FALSE(selector.ok());
  const std::string& message = selector.status().message();
  EXPECT_NE(message.find("wang-landau-typo"), std::string::npos);
  EXPECT_NE(message.find("bfs"), std::string::npos);
  EXPECT_NE(message.find("best-first"), std::string::npos);
  EXPECT_NE(message.find("region-roulette"), std::string::npos);
}

}  // namespace
}  // namespace topicrawl
