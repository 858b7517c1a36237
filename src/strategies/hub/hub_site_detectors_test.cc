// The URL-only detectors on the site-relative reading (hub_site_detectors.h).
#include "strategies/hub/hub_site_detectors.h"

#include <gtest/gtest.h>

#include <string>

namespace topicrawl::hub {
namespace {

TEST(HubSiteDetectorsTest, WithinSitePercentilesRankEachSiteOnItsOwn) {
  const std::vector<std::string_view> hosts = {"a", "b", "a", "b", "a"};
  const auto r = WithinSitePercentiles(hosts, {3, -100, 1, 50, 2});
  EXPECT_DOUBLE_EQ(r[0], 5.0 / 6);
  EXPECT_DOUBLE_EQ(r[2], 1.0 / 6);
  EXPECT_DOUBLE_EQ(r[4], 0.5);
  EXPECT_DOUBLE_EQ(r[1], 0.25);
  EXPECT_DOUBLE_EQ(r[3], 0.75);
}

// Six sites of different URL scales; hubs are a quarter of each site, the
// shorter URLs.
std::vector<HubExample> Sites() {
  std::vector<HubExample> rows;
  for (int k = 0; k < 6; ++k) {
    const std::string host = "h" + std::to_string(k) + ".test";
    for (int i = 0; i < 40; ++i) {
      HubExample e;
      e.host = host;
      e.label = i % 4 == 0 ? 1 : 0;
      e.url = "http://" + host + "/" + std::string(30 * k, 'p') + "/" +
              std::string(e.label ? 2 + i % 3 : 12 + i % 5, 'n') + ".html";
      e.anchor = std::string(i % 5, 'a');
      e.crawl_depth = 2;
      rows.push_back(e);
    }
  }
  return rows;
}

SvmGridOptions Grid() {
  SvmGridOptions g;
  g.log2c_min = -1, g.log2c_max = 5, g.log2c_step = 3;
  g.log2g_min = -5, g.log2g_max = 1, g.log2g_step = 3;
  g.folds = 4;
  g.threads = 1;
  return g;
}

// The rank detector's share q comes from the training hosts only: flipping
// every test label changes nothing it chose, and on these sites q is about
// the sites' hub share and the test sites are found.
TEST(HubSiteDetectorsTest, RankShareIsChosenOnTrainingHostsOnly) {
  std::vector<HubExample> rows = Sites();
  std::vector<size_t> train, test;
  for (size_t i = 0; i < rows.size(); ++i) (rows[i].host < "h4" ? train : test).push_back(i);
  auto a = RunSiteDetector(SiteDetector::kSiteRank, rows, train, test, Grid());
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_NEAR(a->rank_share, 0.25, 0.051);
  int tp = 0, flagged = 0;
  for (size_t k = 0; k < test.size(); ++k) {
    flagged += a->predicted[k];
    tp += a->predicted[k] && rows[test[k]].label == 1;
  }
  EXPECT_GE(tp, 18);  // of 20 test hubs
  EXPECT_LE(flagged, 24);
  for (size_t i : test) rows[i].label = 1 - rows[i].label;
  auto b = RunSiteDetector(SiteDetector::kSiteRank, rows, train, test, Grid());
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(a->rank_share, b->rank_share);
  EXPECT_EQ(a->predicted, b->predicted);
}

// site-or-rules flags every page the rules flag (a directory URL here).
TEST(HubSiteDetectorsTest, SiteOrRulesContainsTheRules) {
  std::vector<HubExample> rows = Sites();
  rows[5].url = "http://h0.test/pppp/section/";  // a directory URL, a non-hub
  std::vector<size_t> train, test;
  for (size_t i = 0; i < rows.size(); ++i) (i % 3 ? train : test).push_back(i);
  test.push_back(5);
  auto r = RunSiteDetector(SiteDetector::kSiteOrRules, rows, train, test, Grid());
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->predicted.back(), 1);
  // The two feature-set variants train and predict one value per test row.
  for (SiteDetector d : {SiteDetector::kBoth, SiteDetector::kSiteRules}) {
    auto v = RunSiteDetector(d, rows, train, test, Grid());
    ASSERT_TRUE(v.ok()) << v.status().message();
    EXPECT_EQ(v->predicted.size(), test.size());
  }
}

}  // namespace
}  // namespace topicrawl::hub
