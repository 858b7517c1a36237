// The detectors of the reproduction table on a synthetic, imbalanced set.
#include "strategies/hub/hub_experiment.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace topicrawl::hub {
namespace {

// 12 % hubs: directory URLs with longer anchors at a shallower depth, plus
// noise so that the classes overlap (an URL of the hub shape is a hub
// only ~40 % of the time, so the unweighted SVM calls it "not a hub").
std::vector<HubExample> Imbalanced(int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<HubExample> rows;
  for (int i = 0; i < n; ++i) {
    HubExample e;
    e.label = i % 8 == 0 ? 1 : 0;
    const bool hub_shape = e.label ? rng() % 10 < 7 : rng() % 20 < 3;
    e.host = "h" + std::to_string(i % 6) + ".test";
    const std::string dir = "/d" + std::to_string(rng() % 5) + "/s" + std::to_string(rng() % 7);
    e.url = "http://" + e.host + dir + (hub_shape ? "/" : "/p" + std::to_string(i) + ".html");
    e.anchor = std::string(hub_shape ? 12 + rng() % 10 : 4 + rng() % 12, 'a');
    e.crawl_depth = hub_shape ? 1 + rng() % 2 : 2 + rng() % 3;
    e.page_size = 4000 + static_cast<int64_t>(rng() % 20000);
    rows.push_back(e);
  }
  return rows;
}

SvmGridOptions SmallGrid() {
  SvmGridOptions g;
  g.log2c_min = -1, g.log2c_max = 5, g.log2c_step = 3;
  g.log2g_min = -5, g.log2g_max = 1, g.log2g_step = 3;
  g.folds = 5;
  g.threads = 1;
  return g;
}

// The threshold (and C, gamma) are chosen from the training rows' out-of-fold
// decision values only: flipping every label of the test rows changes the
// measured metrics but not one choice of the training.
TEST(HubExperimentTest, ThresholdIsChosenOnTrainingFoldsOnly) {
  std::vector<HubExample> rows = Imbalanced(600, 3);
  std::vector<size_t> train, test;
  for (size_t i = 0; i < rows.size(); ++i) (i % 10 < 7 ? train : test).push_back(i);
  SvmGridOptions g = SmallGrid();
  g.class_weight = SvmClassWeight::kInverseFrequency;
  g.select = SvmSelection::kF1;
  g.tune_threshold = true;
  auto a = RunHubMethod(HubMethod::kSvmUrl, rows, train, test, g);
  ASSERT_TRUE(a.ok()) << a.status().message();
  for (size_t i : test) rows[i].label = 1 - rows[i].label;
  auto b = RunHubMethod(HubMethod::kSvmUrl, rows, train, test, g);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(a->threshold, b->threshold);
  EXPECT_EQ(a->log2c, b->log2c);
  EXPECT_EQ(a->log2g, b->log2g);
  EXPECT_EQ(a->cv_f1, b->cv_f1);
  // The same predictions scored against flipped labels: TP <-> FP.
  EXPECT_EQ(a->metrics.tp, b->metrics.fp);
  EXPECT_EQ(a->metrics.fn, b->metrics.tn);
}

// On an imbalanced set the seed's settings (no weight, accuracy, threshold
// 0) call few pages hubs; the weighted, F1-selected, thresholded SVM finds
// more of them and has the higher test F1.
TEST(HubExperimentTest, WeightedF1ThresholdedSvmRecallsMoreHubs) {
  std::vector<HubExample> rows = Imbalanced(900, 5);
  std::vector<size_t> train, test;
  for (size_t i = 0; i < rows.size(); ++i) (i % 10 < 7 ? train : test).push_back(i);
  SvmGridOptions plain = SmallGrid(), tuned = SmallGrid();
  tuned.class_weight = SvmClassWeight::kInverseFrequency;
  tuned.select = SvmSelection::kF1;
  tuned.tune_threshold = true;
  auto a = RunHubMethod(HubMethod::kSvmUrl, rows, train, test, plain);
  auto b = RunHubMethod(HubMethod::kSvmUrl, rows, train, test, tuned);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_GT(b->metrics.recall(), a->metrics.recall());
  EXPECT_GT(b->metrics.f1(), a->metrics.f1());
  EXPECT_EQ(a->threshold, 0);
}

}  // namespace
}  // namespace topicrawl::hub

namespace topicrawl::hub {
namespace {

// Six sites whose URL lengths differ in scale (a path prefix of 0..150
// bytes); within each site the hubs are the shorter URLs. Trained on four
// sites and tested on the two with the longest prefixes, the raw URL length
// says nothing on the test sites; its percentile within the site does.
TEST(HubExperimentTest, SiteRelativeFeaturesTransferToASiteOfAnotherScale) {
  std::vector<HubExample> rows;
  for (int k = 0; k < 6; ++k) {
    const std::string host = "h" + std::to_string(k) + ".test";
    const std::string prefix = "/" + std::string(30 * k, 'p');
    for (int i = 0; i < 60; ++i) {
      HubExample e;
      e.host = host;
      e.label = i % 4 == 0 ? 1 : 0;
      e.url = "http://" + host + prefix + "/" + std::string(e.label ? 2 + i % 3 : 14 + i % 5, 'n') +
              ".html";
      e.crawl_depth = 2;
      e.page_size = 1000;
      rows.push_back(e);
    }
  }
  std::vector<size_t> train, test;
  for (size_t i = 0; i < rows.size(); ++i) (rows[i].host < "h4" ? train : test).push_back(i);
  SvmGridOptions g = SmallGrid();
  g.class_weight = SvmClassWeight::kInverseFrequency;
  g.select = SvmSelection::kF1;
  g.tune_threshold = true;
  auto raw = RunHubMethod(HubMethod::kSvmUrl, rows, train, test, g);
  auto site = RunHubMethod(HubMethod::kSvmUrlSite, rows, train, test, g);
  ASSERT_TRUE(raw.ok() && site.ok());
  EXPECT_GE(site->metrics.f1(), 0.95);
  EXPECT_LT(raw->metrics.f1(), site->metrics.f1() - 0.3);
  // The per-host metrics add up to the whole test side.
  ASSERT_EQ(site->per_host.size(), 2u);
  int64_t tp = 0, total = 0;
  for (const auto& [host, m] : site->per_host) tp += m.tp, total += m.total();
  EXPECT_EQ(tp, site->metrics.tp);
  EXPECT_EQ(total, static_cast<int64_t>(test.size()));
}

}  // namespace
}  // namespace topicrawl::hub
