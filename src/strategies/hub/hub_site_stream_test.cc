// The streaming site-relative encoder (hub_site_stream.h) and the compact
// SiteStatistics against the batch encoder the models are trained with
// (EncodeBatch / ToSitePercentiles): the same vectors bit for bit, hence the
// same decision values, on a hand-made site and on random URLs.
#include "strategies/hub/hub_site_stream.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "classify/svm_model.h"
#include "strategies/hub/hub_dataset.h"
#include "strategies/hub/hub_site_relative.h"
#include "url/url.h"

namespace topicrawl::hub {
namespace {

// Owns the strings of the observations.
struct Batch {
  std::vector<std::string> urls, anchors;
  std::vector<int64_t> depth, size;
  std::vector<UrlObservation> Observations() const {
    std::vector<UrlObservation> obs;
    for (size_t i = 0; i < urls.size(); ++i) obs.push_back({urls[i], anchors[i], depth[i], size[i]});
    return obs;
  }
  void Add(std::string url, std::string anchor, int64_t d, int64_t s) {
    urls.push_back(std::move(url));
    anchors.push_back(std::move(anchor));
    depth.push_back(d);
    size.push_back(s);
  }
};

// Random URLs of a few hosts: paths of random depth and length, dates, file
// names and types, parameters; many repeated values, so ties are common.
Batch RandomBatch(size_t n, int hosts, uint32_t seed) {
  std::mt19937 rng(seed);
  auto pick = [&](int k) { return static_cast<int>(rng() % k); };
  const char* names[] = {"", "index", "list", "article", "page", "default", "content"};
  const char* types[] = {"", ".html", ".htm", ".php", ".aspx", ".pdf", ".shtml"};
  Batch b;
  for (size_t i = 0; i < n; ++i) {
    std::string url = "http://h" + std::to_string(pick(hosts)) + ".test";
    if (pick(3) == 0) url += ":8080";
    for (int d = pick(6); d > 0; --d) url += "/" + std::string(1 + pick(12), 'a' + pick(26));
    if (pick(5) == 0) url += "/2024/0" + std::to_string(1 + pick(9)) + "/1" + std::to_string(pick(9));
    url += "/" + std::string(names[pick(7)]) + types[pick(7)];
    if (pick(3) == 0) url += "?id=" + std::to_string(pick(100));
    if (pick(4) == 0) url += "&p=" + std::to_string(pick(10)) + "&q=x";
    b.Add(url, std::string(pick(30), 'w'), pick(8), pick(4) ? 1024 * pick(64) + pick(3) : -1);
  }
  return b;
}

// The batch encoder with UrlHost sites: what training reads.
std::vector<std::vector<double>> Reference(HubFeatureSet set, const Batch& b,
                                          std::vector<std::string>* host_store) {
  host_store->clear();
  for (const auto& u : b.urls) host_store->push_back(UrlHost(u));
  const std::vector<std::string_view> hosts(host_store->begin(), host_store->end());
  return EncodeBatch({set, HubFeatureReading::kSiteRelative}, b.Observations(), hosts);
}

std::vector<std::vector<double>> Streamed(HubFeatureSet set, const Batch& b,
                                          SiteStreamSummary* summary = nullptr) {
  const std::vector<UrlObservation> obs = b.Observations();
  const size_t dims = HubFeatureNames(set).size();
  std::vector<std::vector<double>> out;
  auto s = ForEachSiteRelative(
      set,
      [&](const std::function<void(const UrlObservation&)>& visit) {
        for (const auto& o : obs) visit(o);
        return Status::Ok();
      },
      [](std::string_view url) { return UrlHost(url); },
      [&](const UrlObservation&, const double* x) { out.emplace_back(x, x + dims); });
  EXPECT_TRUE(s.ok()) << s.status().message();
  if (s.ok() && summary) *summary = *s;
  return out;
}

TEST(HubSiteStreamTest, HandMadeSiteGivesTheBatchEncodersValues) {
  Batch b;
  b.Add("http://a.test/", "", 0, -1);
  b.Add("http://a.test/x/y.html", "Contents", 1, -1);
  b.Add("http://a.test/z/index.php?id=3", "More", 1, -1);
  b.Add("http://a.test/long/deeper/article-page.html", "A much longer anchor", 2, -1);
  b.Add("http://b.test/" + std::string(200, 'q') + "/p.html", "x", 5, -1);
  b.Add("http://a.test/x/y.html", "Contents", 1, -1);  // a duplicate URL: a tie
  std::vector<std::string> hosts;
  const auto want = Reference(HubFeatureSet::kBeforeDownload, b, &hosts);
  SiteStreamSummary summary;
  const auto got = Streamed(HubFeatureSet::kBeforeDownload, b, &summary);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i], want[i]) << i;
  EXPECT_EQ(summary.urls, 6);
  EXPECT_EQ(summary.sites, 2u);
  // URL length on a.test: 14, 22, 22, 30, 43 -> the tie's mid rank 2 / 5.
  EXPECT_DOUBLE_EQ(got[1][1], 0.4);
  EXPECT_DOUBLE_EQ(got[5][1], 0.4);
  EXPECT_DOUBLE_EQ(got[4][1], 0.5);  // the only b.test URL
}

// The site of a URL is computed once per scheme-and-authority prefix; URLs
// whose host is not in that literal prefix are not cached.
TEST(HubSiteStreamTest, SitesByPrefixAgreeWithUrlHostOnOddUrls) {
  Batch b;
  for (const char* u : {"http:///a.test/x", "http:///b.test/y/z", "http://c.test?q=1",
                        "http://c.test#f", "HTTP://C.test/", "http://d.test:81/p",
                        "http://d.test:82/p/q", "http://user@e.test/", "http:/f.test/x"}) {
    b.Add(u, "", 1, -1);
  }
  std::vector<std::string> hosts;
  const auto want = Reference(HubFeatureSet::kBeforeDownload, b, &hosts);
  SiteStreamSummary summary;
  const auto got = Streamed(HubFeatureSet::kBeforeDownload, b, &summary);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i], want[i]) << b.urls[i];
  EXPECT_EQ(hosts[0], "a.test");
  EXPECT_EQ(hosts[1], "b.test");
  EXPECT_EQ(summary.sites, 6u);  // a, b, c, d, e, f
}

// More URLs per host than SiteStatistics buffers (kMergeEvery), both feature
// sets: identical vectors, and a trained model's decision values, classes
// and probabilities from one decision value equal the old two calls.
TEST(HubSiteStreamTest, RandomUrlsGiveIdenticalVectorsAndDecisionValues) {
  for (HubFeatureSet set : {HubFeatureSet::kBeforeDownload, HubFeatureSet::kFull}) {
    const Batch b = RandomBatch(3 * SiteStatistics::kMergeEvery + 123, 3, 7);
    std::vector<std::string> hosts;
    const auto want = Reference(set, b, &hosts);
    SiteStreamSummary summary;
    const auto got = Streamed(set, b, &summary);
    ASSERT_EQ(got.size(), want.size());
    size_t differ = 0;
    for (size_t i = 0; i < want.size(); ++i) differ += got[i] != want[i];
    EXPECT_EQ(differ, 0u);
    EXPECT_EQ(summary.sites, 3u);  // h0..h2 (UrlHost drops the port)
    // The statistics hold distinct values, not URLs.
    EXPECT_LT(summary.distinct_values, want.size() / 4);

    // A model trained on the batch encoder's vectors (labels: short URLs).
    SvmDataset data;
    data.feature_names = HubSpecFeatureNames({set, HubFeatureReading::kSiteRelative});
    for (size_t i = 0; i < 400; ++i) data.Add(want[i], b.urls[i].size() < 40 ? 1 : 0);
    SvmGridOptions g;
    g.folds = 4;
    g.threads = 1;
    auto model = SvmModel::TrainAt(data, "test", 1, -1, g);
    ASSERT_TRUE(model.ok()) << model.status().message();
    size_t decision_differ = 0;
    for (size_t i = 0; i < want.size(); ++i) {
      const double d = model->Decision(got[i]);
      decision_differ += d != model->Decision(want[i]);
      decision_differ += model->PredictOfDecision(d) != model->Predict(want[i]);
      decision_differ += model->ProbabilityOfDecision(d) != model->Probability(want[i]);
    }
    EXPECT_EQ(decision_differ, 0u);
  }
}

// SiteStatistics alone on random values with many ties and merges: the
// same bits as ToSitePercentiles, and a value outside the population gets
// the share below it.
TEST(HubSiteStreamTest, CompactStatisticsMatchToSitePercentiles) {
  std::mt19937 rng(3);
  const size_t n = 2 * SiteStatistics::kMergeEvery + 77;
  const size_t dims = HubFeatureNames(HubFeatureSet::kFull).size();
  std::vector<std::vector<double>> rows(n, std::vector<double>(dims));
  std::vector<std::string_view> hosts(n);
  const char* names[] = {"x", "y", "z", "w"};
  SiteStatistics stats(HubFeatureSet::kFull);
  for (size_t i = 0; i < n; ++i) {
    hosts[i] = names[i < n / 2 ? rng() % 2 : 2 + rng() % 2];  // runs of hosts and mixes
    for (size_t d = 0; d < dims; ++d) {
      rows[i][d] = d % 2 ? static_cast<double>(rng() % 50) : std::ldexp(rng() % 1000, -3);
    }
    stats.Add(hosts[i], rows[i].data());
  }
  stats.Finish();
  std::vector<std::vector<double>> want = rows;
  ToSitePercentiles(hosts, SiteRelativeDims(HubFeatureSet::kFull), &want);
  size_t differ = 0;
  for (size_t i = 0; i < n; ++i) {
    std::vector<double> x = rows[i];
    ASSERT_TRUE(stats.Encode(hosts[i], x.data()).ok());
    differ += x != want[i];
  }
  EXPECT_EQ(differ, 0u);
  EXPECT_EQ(stats.SiteSize("x") + stats.SiteSize("y") + stats.SiteSize("z") + stats.SiteSize("w"), n);
  // Above every reference value: percentile 1; below all: 0.
  std::vector<double> x(dims, 1e9);
  ASSERT_TRUE(stats.Encode("x", x.data()).ok());
  EXPECT_EQ(x[1], 1.0);
  x.assign(dims, -1);
  ASSERT_TRUE(stats.Encode("x", x.data()).ok());
  EXPECT_EQ(x[1], 0.0);
}

TEST(HubSiteStreamTest, AStreamThatChangesBetweenPassesIsAnError) {
  Batch b = RandomBatch(50, 2, 1);
  const std::vector<UrlObservation> obs = b.Observations();
  int calls = 0;
  auto s = ForEachSiteRelative(
      HubFeatureSet::kBeforeDownload,
      [&](const std::function<void(const UrlObservation&)>& visit) {
        // The second pass drops the last URL.
        const size_t n = ++calls == 1 ? obs.size() : obs.size() - 1;
        for (size_t i = 0; i < n; ++i) visit(obs[i]);
        return Status::Ok();
      },
      [](std::string_view url) { return UrlHost(url); }, [](const UrlObservation&, const double*) {});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("changed between the two passes"), std::string::npos);
  // A host the first pass did not have.
  calls = 0;
  s = ForEachSiteRelative(
      HubFeatureSet::kBeforeDownload,
      [&](const std::function<void(const UrlObservation&)>& visit) {
        visit({++calls == 1 ? "http://a.test/" : "http://new.test/", "", 0, -1});
        return Status::Ok();
      },
      [](std::string_view url) { return UrlHost(url); }, [](const UrlObservation&, const double*) {});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("new.test"), std::string::npos);
  // A failing replay passes its error on.
  s = ForEachSiteRelative(
      HubFeatureSet::kBeforeDownload,
      [](const std::function<void(const UrlObservation&)>&) { return Status::Error("cannot read F"); },
      [](std::string_view url) { return UrlHost(url); }, [](const UrlObservation&, const double*) {});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(), "cannot read F");
}

}  // namespace
}  // namespace topicrawl::hub
