// Site-relative percentiles (hub_site_relative.h).
#include "strategies/hub/hub_site_relative.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <unistd.h>

#include "classify/svm_model.h"
#include "strategies/hub/hub_dataset.h"

namespace topicrawl::hub {
namespace {

TEST(HubSiteRelativeTest, NumericFeaturesBecomeMidRankPercentilesWithinTheirSite) {
  // Two sites whose URL lengths differ by a factor of ten: the same rank
  // within a site gives the same value.
  std::vector<std::string_view> hosts = {"a", "a", "a", "a", "b", "b", "b", "b"};
  std::vector<std::vector<double>> rows = {{10, 9}, {20, 9}, {20, 60.4}, {40, 9},
                                           {100, 9}, {200, 9}, {200, 60.4}, {400, 9}};
  ToSitePercentiles(hosts, {true, false}, &rows);
  const std::vector<double> want = {0.125, 0.5, 0.5, 0.875};  // ties share the mid rank
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_DOUBLE_EQ(rows[i][0], want[i]) << i;
    EXPECT_DOUBLE_EQ(rows[i + 4][0], want[i]) << i;
  }
  // The categorical dimension keeps its encoding.
  EXPECT_EQ(rows[2][1], 60.4);
  EXPECT_EQ(rows[3][1], 9);
}

TEST(HubSiteRelativeTest, OnlyTheNumericFeaturesAreSiteRelative) {
  const std::vector<std::string>& names = HubFeatureNames(HubFeatureSet::kFull);
  const std::vector<bool> dims = SiteRelativeDims(HubFeatureSet::kFull);
  ASSERT_EQ(dims.size(), names.size());
  for (size_t d = 0; d < names.size(); ++d) {
    const bool categorical = names[d] == "contains_date" || names[d] == "file_name" ||
                             names[d] == "file_type" || names[d] == "param_name";
    EXPECT_EQ(dims[d], !categorical) << names[d];
  }
}

TEST(HubSiteRelativeTest, ASiteOfOneUrlGivesOneHalf) {
  std::vector<std::string_view> hosts = {"only"};
  std::vector<std::vector<double>> rows = {{57}};
  ToSitePercentiles(hosts, {true}, &rows);
  EXPECT_DOUBLE_EQ(rows[0][0], 0.5);
}

// A hand-made site of four URLs (and a second site ten times longer): the
// encoder's values, dimension by dimension, for the before-download set.
TEST(HubSiteRelativeTest, EncoderValuesOnAHandMadeSite) {
  const HubFeatureSpec spec{HubFeatureSet::kBeforeDownload, HubFeatureReading::kSiteRelative};
  // a.test: URL lengths 14, 22, 30, 43 bytes; anchors 0, 8, 4, 20 code points;
  // dir depths 0, 1, 1, 2; crawl depths 0, 1, 1, 2.
  // UrlObservation holds views: the long URL must outlive `obs`.
  const std::string long_url = "http://b.test/" + std::string(200, 'q') + "/p.html";
  const std::vector<UrlObservation> obs = {
      {"http://a.test/", "", 0, -1},
      {"http://a.test/x/y.html", "Contents", 1, -1},
      {"http://a.test/z/index.php?id=3", "More", 1, -1},
      {"http://a.test/long/deeper/article-page.html", "A much longer anchor", 2, -1},
      {long_url, "x", 5, -1}};
  const std::vector<std::string_view> hosts = {"a.test", "a.test", "a.test", "a.test", "b.test"};
  const auto x = EncodeBatch(spec, obs, hosts);
  const std::vector<std::string> names = HubSpecFeatureNames(spec);
  ASSERT_EQ(names.size(), 9u);
  EXPECT_EQ(names[0], "anchor_length_site_pct");
  EXPECT_EQ(names[3], "file_name");  // categorical: the seed's name and value
  auto at = [&](size_t row, const std::string& name) {
    for (size_t d = 0; d < names.size(); ++d) {
      if (names[d] == name) return x[row][d];
    }
    ADD_FAILURE() << name;
    return -1.0;
  };
  // URL length 14 < 22 < 30 < 43: mid ranks 0.5, 1.5, 2.5, 3.5 of 4.
  EXPECT_DOUBLE_EQ(at(0, "url_length_site_pct"), 0.125);
  EXPECT_DOUBLE_EQ(at(1, "url_length_site_pct"), 0.375);
  EXPECT_DOUBLE_EQ(at(2, "url_length_site_pct"), 0.625);
  EXPECT_DOUBLE_EQ(at(3, "url_length_site_pct"), 0.875);
  // Anchor length 0 < 4 < 8 < 20.
  EXPECT_DOUBLE_EQ(at(0, "anchor_length_site_pct"), 0.125);
  EXPECT_DOUBLE_EQ(at(2, "anchor_length_site_pct"), 0.375);
  EXPECT_DOUBLE_EQ(at(1, "anchor_length_site_pct"), 0.625);
  EXPECT_DOUBLE_EQ(at(3, "anchor_length_site_pct"), 0.875);
  // Directory and crawl depth 0, 1, 1, 2: the tie shares the mid rank.
  EXPECT_DOUBLE_EQ(at(0, "dir_depth_site_pct"), 0.125);
  EXPECT_DOUBLE_EQ(at(1, "dir_depth_site_pct"), 0.5);
  EXPECT_DOUBLE_EQ(at(2, "dir_depth_site_pct"), 0.5);
  EXPECT_DOUBLE_EQ(at(3, "crawl_depth_site_pct"), 0.875);
  // Parameter count 0, 0, 1, 0: three share the mid rank 1.5 / 4.
  EXPECT_DOUBLE_EQ(at(0, "param_count_site_pct"), 0.375);
  EXPECT_DOUBLE_EQ(at(2, "param_count_site_pct"), 0.875);
  // The categorical features keep the seed's encodings.
  EXPECT_EQ(at(0, "file_name"), kFileNameEmpty);
  EXPECT_EQ(at(2, "file_name"), kFileNameIndexLike);
  EXPECT_EQ(at(3, "file_name"), kFileNameArticleLike);
  EXPECT_EQ(at(2, "file_type"), kFileTypeScript);
  EXPECT_EQ(at(2, "param_name"), kParamId);
  // A site of one URL: every numeric feature is 1/2, whatever its scale.
  EXPECT_DOUBLE_EQ(at(4, "url_length_site_pct"), 0.5);
  EXPECT_DOUBLE_EQ(at(4, "crawl_depth_site_pct"), 0.5);
  // The raw reading of the same batch is the seed's vector.
  const auto raw = EncodeBatch({HubFeatureSet::kBeforeDownload, HubFeatureReading::kRaw}, obs, hosts);
  EXPECT_EQ(raw[3], HubFeatures(obs[3], HubFeatureSet::kBeforeDownload));
}

// SiteStatistics (the scoring-time population) agrees with the batch
// encoder on URLs of the population, and places a new URL among it.
TEST(HubSiteRelativeTest, SiteStatisticsAgreeWithTheBatchAndPlaceNewUrls) {
  const HubFeatureSpec spec{HubFeatureSet::kFull, HubFeatureReading::kSiteRelative};
  std::vector<UrlObservation> obs;
  std::vector<std::string> urls;
  std::vector<std::string_view> hosts;
  for (int i = 0; i < 12; ++i) urls.push_back("http://" + std::string(i % 3 ? "a" : "b") +
                                              ".test/" + std::string(1 + i * 7 % 11, 'd') + "/");
  for (int i = 0; i < 12; ++i) {
    obs.push_back({urls[i], std::string_view(urls[i]).substr(0, i % 5), i % 4, 1000L * i});
    hosts.push_back(i % 3 ? "a.test" : "b.test");
  }
  const auto batch = EncodeBatch(spec, obs, hosts);
  SiteStatistics stats(spec.set);
  for (size_t i = 0; i < obs.size(); ++i) stats.Add(hosts[i], HubFeatures(obs[i], spec.set).data());
  stats.Finish();
  EXPECT_EQ(stats.SiteSize("a.test"), 8u);
  EXPECT_EQ(stats.SiteSize("b.test"), 4u);
  EXPECT_EQ(stats.SiteSize("c.test"), 0u);
  for (size_t i = 0; i < obs.size(); ++i) {
    std::vector<double> x = HubFeatures(obs[i], spec.set);
    ASSERT_TRUE(stats.Encode(hosts[i], x.data()).ok());
    EXPECT_EQ(x, batch[i]) << i;
  }
  // A URL shorter than every b.test URL: percentile 0 for its URL length.
  std::vector<double> x = HubFeatures({"http://b.test/", "", 0, 0}, spec.set);
  ASSERT_TRUE(stats.Encode("b.test", x.data()).ok());
  EXPECT_DOUBLE_EQ(x[1], 0.0);
  // A site with no reference URLs is an error, not a silent 0.
  Status s = stats.Encode("c.test", x.data());
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("c.test"), std::string::npos);
}

TEST(HubSiteRelativeTest, SpecNamesAndModelKindsRoundTrip) {
  for (const char* name : {"full", "url", "full-site", "url-site"}) {
    HubFeatureSpec spec;
    ASSERT_TRUE(ParseHubFeatureSpec(name, &spec)) << name;
    EXPECT_EQ(HubFeatureSpecName(spec), name);
    HubFeatureSpec back;
    ASSERT_TRUE(HubSpecFromModelKind(HubSpecModelKind(spec), &back));
    EXPECT_EQ(back.set, spec.set);
    EXPECT_EQ(back.reading, spec.reading);
  }
  HubFeatureSpec spec;
  EXPECT_FALSE(ParseHubFeatureSpec("site", &spec));
  EXPECT_FALSE(ParseHubFeatureSpec("url-sites", &spec));
  EXPECT_FALSE(HubSpecFromModelKind("hub-content", &spec));
  EXPECT_EQ(HubSpecModelKind({HubFeatureSet::kBeforeDownload, HubFeatureReading::kSiteRelative}),
            kSiteRelativeModelKind);
  EXPECT_EQ(HubSpecModelKind({HubFeatureSet::kBeforeDownload, HubFeatureReading::kRaw}),
            "hub-url-before-download");
}

// Three sites of different URL scales, hubs the shorter URLs of each.
std::vector<HubExample> ScaledSites() {
  std::vector<HubExample> rows;
  for (int k = 0; k < 3; ++k) {
    const std::string host = "h" + std::to_string(k) + ".test";
    for (int i = 0; i < 40; ++i) {
      HubExample e;
      e.host = host;
      e.label = i % 4 == 0 ? 1 : 0;
      e.url = "http://" + host + "/" + std::string(40 * k, 'p') + "/" +
              std::string(e.label ? 2 + i % 3 : 12 + i % 5, 'n') + ".html";
      e.anchor = std::string(i % 7, 'a');
      e.crawl_depth = 1 + i % 3;
      rows.push_back(e);
    }
  }
  return rows;
}

// A site-relative model survives the model file: the reloaded model gives
// the same decision values and probabilities, and the file's kind says which
// features it reads; a reader that expects the raw set refuses it.
TEST(HubSiteRelativeTest, SaveLoadRoundTripGivesIdenticalPredictions) {
  const HubFeatureSpec spec{HubFeatureSet::kBeforeDownload, HubFeatureReading::kSiteRelative};
  const std::vector<HubExample> rows = ScaledSites();
  const auto encoded = EncodeHubRows(spec, rows);
  std::vector<size_t> all(rows.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  SvmGridOptions g;
  g.log2c_min = -1, g.log2c_max = 5, g.log2c_step = 3;
  g.log2g_min = -5, g.log2g_max = 1, g.log2g_step = 3;
  g.folds = 4;
  g.threads = 1;
  auto model = SvmModel::Train(SpecDataset(spec, rows, encoded, all),
                               std::string(HubSpecModelKind(spec)), g);
  ASSERT_TRUE(model.ok()) << model.status().message();
  char tmpl[] = "/tmp/hub_site_model_XXXXXX";
  const int fd = mkstemp(tmpl);
  ASSERT_GE(fd, 0);
  close(fd);
  const std::string path = tmpl;
  ASSERT_TRUE(model->Save(path).ok());
  auto loaded = SvmModel::Load(path, "");
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  HubFeatureSpec read;
  ASSERT_TRUE(HubSpecFromModelKind(loaded->kind(), &read));
  EXPECT_TRUE(read.site_relative());
  EXPECT_TRUE(loaded->CheckFeatures(HubSpecFeatureNames(spec)).ok());
  int right = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(model->Decision(encoded[i]), loaded->Decision(encoded[i])) << i;
    EXPECT_EQ(model->Probability(encoded[i]), loaded->Probability(encoded[i])) << i;
    EXPECT_EQ(model->Predict(encoded[i]), loaded->Predict(encoded[i])) << i;
    right += loaded->Predict(encoded[i]) == rows[i].label;
  }
  EXPECT_GE(right, 110);  // of 120: the percentiles separate every site
  // The other reading is refused by kind and by feature names.
  auto as_raw = SvmModel::Load(path, "hub-url-before-download");
  ASSERT_FALSE(as_raw.ok());
  EXPECT_NE(as_raw.status().message().find("hub-url-site-relative"), std::string::npos)
      << as_raw.status().message();
  EXPECT_FALSE(loaded->CheckFeatures(HubFeatureNames(HubFeatureSet::kBeforeDownload)).ok());
  std::remove(path.c_str());
}

}  // namespace
}  // namespace topicrawl::hub
