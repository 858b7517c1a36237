#include "eval/round_oracle.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/fake_round_history.h"

namespace topicrawl::eval {
namespace {

namespace fs = std::filesystem;

std::string TempEvolvedDir(const std::string& rates) {
  fs::path dir = fs::temp_directory_path() /
                 ("round_oracle_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                  "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
  fs::remove_all(dir);
  fs::create_directories(dir / "truth");
  std::ofstream(dir / "truth" / "rates.tsv") << rates;
  return dir.string();
}

TEST(RoundOracleTest, ChangedProbabilityGrowsWithTheRoundsSinceTheLastFetch) {
  EXPECT_DOUBLE_EQ(OracleChangedProbability(0.5, 1), 0.5);
  EXPECT_DOUBLE_EQ(OracleChangedProbability(0.3, 3), 1.0 - 0.7 * 0.7 * 0.7);  // 0.657
  EXPECT_DOUBLE_EQ(OracleChangedProbability(0.0, 5), 0.0);
  EXPECT_DOUBLE_EQ(OracleChangedProbability(1.0, 1), 1.0);
  EXPECT_DOUBLE_EQ(OracleChangedProbability(0.2, 0), 0.2) << "elapsed counts at least 1";
}

TEST(RoundOracleTest, ReadsRatesInLabelFormAndRejectsBadRows) {
  auto dir = TempEvolvedDir("url\tchange_p\tedit_p\thub_share\n"
                            "http://a.test/x.html\t0.25\t0.25\t0\n"
                            "http://a.test/d/index.html\t1\t0.1\t1\n");
  auto rates = ReadTrueChangeRates(dir);
  ASSERT_TRUE(rates.ok()) << rates.status().message();
  EXPECT_EQ(rates->size(), 2u);
  EXPECT_DOUBLE_EQ(rates->at("http://a.test/x.html"), 0.25);
  EXPECT_DOUBLE_EQ(rates->at("http://a.test/d/index.html"), 1.0);

  dir = TempEvolvedDir("url\tchange_p\nhttp://a.test/x.html\t1.5\n");
  auto bad = ReadTrueChangeRates(dir);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("rates.tsv:2"), std::string::npos) << bad.status().message();
  auto missing = ReadTrueChangeRates(dir + "/nowhere");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("re-run web evolve"), std::string::npos);
}

// Hand-built history: the plan ranks by P(changed since last fetch), not by
// the rate alone, and matches crawl URLs (https, directory URLs) to the
// label form of the rates file.
TEST(RoundOracleTest, RevisitsTheMostLikelyChangedPagesWithinTheBudget) {
  TrueChangeRates rates = {{"http://a.test/hot.html", 0.5},
                           {"http://a.test/warm.html", 0.3},
                           {"http://a.test/d/index.html", 0.4},
                           {"http://a.test/gone.html", 0.9}};
  FakeRoundHistory h;
  h.summary.round = 2;
  h.seeds = {"http://a.test/"};
  h.Add(1, "http://a.test/hot.html").last_round = 2;     // 0.5
  h.Add(2, "https://a.test/warm.html").last_round = 0;   // 1 - 0.7^3 = 0.657
  h.Add(3, "http://a.test/d/").last_round = 1;           // 1 - 0.6^2 = 0.64
  h.Add(4, "http://a.test/never.html").last_round = 0;   // no rate: 0
  KnownUrl& gone = h.Add(5, "http://a.test/gone.html");
  gone.last_state = UrlState::kGone;
  gone.page_id = 0;
  auto policy = MakeOracleRoundPolicy(rates);
  EXPECT_EQ(policy->Name(), "oracle");
  RoundRequest req;
  req.round = 3;
  req.budget = 3;
  RoundPlan plan;
  ASSERT_TRUE(policy->Plan(req, h, &plan).ok());
  ASSERT_EQ(plan.revisits.size(), 3u);
  EXPECT_EQ(plan.revisits[0].url_id, 2u);
  EXPECT_NEAR(plan.revisits[0].priority, 0.657, 1e-12);
  EXPECT_EQ(plan.revisits[1].url_id, 3u);
  EXPECT_NEAR(plan.revisits[1].priority, 0.64, 1e-12);
  EXPECT_EQ(plan.revisits[2].url_id, 1u);
  EXPECT_EQ(plan.seeds, h.seeds);
}

}  // namespace
}  // namespace topicrawl::eval
