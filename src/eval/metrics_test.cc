#include "eval/metrics.h"

#include <gtest/gtest.h>

#include "eval/metrics_report.h"
#include "support/fake_crawl_db.h"

namespace topicrawl::eval {
namespace {

// A 10-download crawl whose metrics were computed by hand (values in the
// comments); see also the Python one-liner in the commit message.
CrawlRecord HandCrawl() {
  std::vector<std::pair<std::string, std::optional<double>>> rows = {
      {"http://a.org/r1.html", 0.9},        {"http://a.org/n1.html", 0.1},
      {"https://a.org/r2.html?x=1", 0.7},   {"http://a.org/r1.html#dup", 0.62},
      {"http://b.org/ext.html", 0.3},       {"http://a.org/", std::nullopt},
      {"http://a.org/r3.html", 0.8},        {"http://a.org/n3.html", 0.0},
      {"http://a.org/r4.html", 0.5},        {"http://a.org/n4.html", 0.65}};
  CrawlRecord crawl;
  for (size_t i = 0; i < rows.size(); ++i) {
    DownloadedPage p;
    p.id = static_cast<int64_t>(i) + 1;
    p.url = rows[i].first;
    p.relevance = rows[i].second;
    p.fetched_at_ms = 1'000'000 + 1000 * (static_cast<int64_t>(i) + 1);
    crawl.pages.push_back(p);
  }
  crawl.pages[6].final_url = "http://a.org/n2.html";  // r3 redirected to n2
  crawl.meta = {{"started_at", "1000000"}, {"finished_at", "1010000"}};
  return crawl;
}

LabelSet HandLabels() {
  return LabelSet::Parse(
             "http://a.org/r1.html\t1\t\nhttp://a.org/r2.html\t1\t\n"
             "http://a.org/r3.html\t1\t\nhttp://a.org/r4.html\t1\t\n"
             "http://a.org/r5.html\t1\t\nhttp://a.org/index.html\t1\t\n"
             "http://a.org/n1.html\t0\t\nhttp://a.org/n2.html\t0\t\n"
             "http://a.org/n3.html\t0\t\nhttp://a.org/n4.html\t0\t\n")
      .value();
}

MetricOptions At(std::vector<int64_t> n) {
  MetricOptions o;
  o.checkpoints = std::move(n);
  return o;
}

TEST(MetricsTest, SelfJudgedMetricsFollowSeed000Equations) {
  CrawlMetrics m = ComputeMetrics(HandCrawl(), At({5, 20}), nullptr, nullptr);
  EXPECT_EQ(m.beta, 0.62);
  EXPECT_EQ(m.beta_source, "default");
  ASSERT_EQ(m.checkpoints.size(), 2u);  // 20 > DP is skipped, final DP added
  const CheckpointMetrics& c5 = m.checkpoints[0];
  EXPECT_EQ(c5.n, 5);
  EXPECT_EQ(c5.lp, 3);  // 0.9, 0.7, 0.62 (R >= beta includes equality)
  EXPECT_DOUBLE_EQ(c5.accuracy, 0.6);                   // eq. 8
  EXPECT_NEAR(c5.ardp, 0.524, 1e-12);                   // eq. 9
  EXPECT_NEAR(c5.sddp, 0.28688673723265773, 1e-12);     // eq. 10, 1/DP
  EXPECT_NEAR(*c5.arlp, 0.74, 1e-12);                   // eq. 11
  EXPECT_NEAR(*c5.sdlp, 0.11775681155103798, 1e-12);    // eq. 12, 1/LP
  EXPECT_NEAR(*c5.elapsed_s, 5.0, 1e-12);
  EXPECT_FALSE(c5.true_harvest.has_value());
  const CheckpointMetrics& c10 = m.checkpoints[1];
  EXPECT_EQ(c10.n, 10);
  EXPECT_EQ(c10.lp, 5);
  EXPECT_DOUBLE_EQ(c10.accuracy, 0.5);
  EXPECT_NEAR(c10.ardp, 0.457, 1e-12);  // the NULL relevance counts as 0
  EXPECT_NEAR(c10.sddp, 0.3175547196941025, 1e-12);
  EXPECT_NEAR(*c10.arlp, 0.734, 1e-12);
  EXPECT_NEAR(*c10.sdlp, 0.10307278981380102, 1e-12);
  EXPECT_EQ(m.unscored_pages, 1);
  EXPECT_NEAR(*m.wall_s, 10.0, 1e-12);
  EXPECT_NEAR(*m.pages_per_s, 1.0, 1e-12);
  ASSERT_EQ(m.curves.accuracy.size(), 10u);
  EXPECT_DOUBLE_EQ(m.curves.accuracy[0], 1.0);
  EXPECT_DOUBLE_EQ(m.curves.accuracy[1], 0.5);
}

TEST(MetricsTest, GroundTruthMetricsCountDistinctLabelledPages) {
  LabelSet labels = HandLabels();
  UrlSet reachable = UrlSet::Parse(
      "http://a.org/r1.html\nhttp://a.org/r2.html\nhttp://a.org/r3.html\nhttp://a.org/\n");
  CrawlMetrics m = ComputeMetrics(HandCrawl(), At({5}), &labels, &reachable);
  // Relevant found after n downloads: 1 1 2 2 2 3 3 3 4 4 (r1, r2, r1 again,
  // an unlabelled host, a.org/ = index.html, r3 redirected to n2, r4).
  EXPECT_EQ(m.relevant_total, 6);
  EXPECT_EQ(m.reachable_relevant_total, std::optional<int64_t>(4));
  EXPECT_EQ(m.unlabelled_pages, 1);
  const CheckpointMetrics& c5 = m.checkpoints[0];
  EXPECT_EQ(c5.relevant_found, std::optional<int64_t>(2));
  EXPECT_DOUBLE_EQ(*c5.true_harvest, 0.4);
  EXPECT_DOUBLE_EQ(*c5.recall, 2.0 / 6);
  EXPECT_DOUBLE_EQ(*c5.recall_reachable, 0.5);
  EXPECT_NEAR(*c5.avg_harvest_rate, 0.6133333333333333, 1e-12);
  EXPECT_NEAR(*c5.avg_target_recall, 0.26666666666666666, 1e-12);
  const CheckpointMetrics& c10 = m.checkpoints[1];
  EXPECT_DOUBLE_EQ(*c10.true_harvest, 0.4);
  EXPECT_DOUBLE_EQ(*c10.recall, 4.0 / 6);
  EXPECT_DOUBLE_EQ(*c10.recall_reachable, 0.75);  // r4 is not reachable
  EXPECT_NEAR(*c10.avg_harvest_rate, 0.521468253968254, 1e-12);
  EXPECT_NEAR(*c10.avg_target_recall, 0.41666666666666663, 1e-12);
  EXPECT_EQ(m.pages_to_recall_50, std::optional<int64_t>(6));
  EXPECT_EQ(m.pages_to_recall_90, std::nullopt);
  ASSERT_EQ(m.curves.recall.size(), 10u);
  EXPECT_DOUBLE_EQ(m.curves.true_harvest[2], 2.0 / 3);
}

TEST(MetricsTest, JudgeQualityComparesOwnDecisionsWithLabels) {
  LabelSet labels = HandLabels();
  MetricOptions o = At({5});
  o.beta = 0.5;
  CrawlMetrics m = ComputeMetrics(HandCrawl(), o, &labels, nullptr);
  // Distinct labelled downloads and R >= 0.5: r1 0.9 tp, n1 0.1 tn, r2 0.7 tp,
  // (r1 again: skipped), (b.org: unlabelled), index.html NULL fn, r3->n2 0.8
  // fp, n3 0.0 tn, r4 0.5 tp, n4 0.65 fp.
  ASSERT_TRUE(m.judge.has_value());
  EXPECT_EQ(m.judge->tp, 3);
  EXPECT_EQ(m.judge->fp, 2);
  EXPECT_EQ(m.judge->fn, 1);
  EXPECT_EQ(m.judge->tn, 2);
  EXPECT_DOUBLE_EQ(*m.judge->precision, 0.6);
  EXPECT_DOUBLE_EQ(*m.judge->recall, 0.75);
  EXPECT_DOUBLE_EQ(*m.judge->f1, 2 * 0.6 * 0.75 / 1.35);
  nlohmann::json j = MetricsToJson(m);
  EXPECT_EQ(j["judge"]["tp"], 3);
  EXPECT_NE(MetricsToTable(m).find("judge"), std::string::npos);
  // Nothing judged relevant: precision and F1 are undefined, not 0.
  o.beta = 1.0;
  CrawlMetrics none = ComputeMetrics(HandCrawl(), o, &labels, nullptr);
  EXPECT_FALSE(none.judge->precision.has_value());
  EXPECT_DOUBLE_EQ(*none.judge->recall, 0.0);
  EXPECT_FALSE(none.judge->f1.has_value());
  EXPECT_FALSE(ComputeMetrics(HandCrawl(), o, nullptr, nullptr).judge.has_value());
}

TEST(MetricsTest, RecallReachableIsOmittedWithoutReachableSet) {
  LabelSet labels = HandLabels();
  CrawlMetrics m = ComputeMetrics(HandCrawl(), At({}), &labels, nullptr);
  ASSERT_EQ(m.checkpoints.size(), 1u);
  EXPECT_FALSE(m.checkpoints[0].recall_reachable.has_value());
  EXPECT_FALSE(m.reachable_relevant_total.has_value());
  EXPECT_FALSE(m.notes.empty());
}

TEST(MetricsTest, BetaComesFromFlagThenMetaThenDefault) {
  CrawlRecord crawl = HandCrawl();
  crawl.meta["beta"] = "0.7";
  CrawlMetrics meta = ComputeMetrics(crawl, At({}), nullptr, nullptr);
  EXPECT_EQ(meta.beta_source, "meta");
  EXPECT_EQ(meta.checkpoints.back().lp, 3);  // 0.9, 0.7, 0.8
  MetricOptions flag = At({});
  flag.beta = 0.85;
  CrawlMetrics flagged = ComputeMetrics(crawl, flag, nullptr, nullptr);
  EXPECT_EQ(flagged.beta_source, "flag");
  EXPECT_EQ(flagged.checkpoints.back().lp, 1);
  EXPECT_EQ(flagged.checkpoints.back().sdlp, std::optional<double>(0.0));  // one page
}

TEST(MetricsTest, NoRelevantPagesLeavesArlpNull) {
  MetricOptions o = At({});
  o.beta = 0.99;
  CrawlMetrics m = ComputeMetrics(HandCrawl(), o, nullptr, nullptr);
  EXPECT_EQ(m.checkpoints.back().lp, 0);
  EXPECT_FALSE(m.checkpoints.back().arlp.has_value());
  EXPECT_FALSE(m.checkpoints.back().sdlp.has_value());
}

TEST(MetricsTest, EmptyCrawlHasNoCheckpoints) {
  CrawlRecord empty;
  CrawlMetrics m = ComputeMetrics(empty, MetricOptions(), nullptr, nullptr);
  EXPECT_EQ(m.dp, 0);
  EXPECT_TRUE(m.checkpoints.empty());
  EXPECT_FALSE(m.wall_s.has_value());
  EXPECT_FALSE(m.notes.empty());
}

TEST(MetricsTest, MissingFinishedAtUsesLastDownload) {
  CrawlRecord crawl = HandCrawl();
  crawl.meta.erase("finished_at");
  CrawlMetrics m = ComputeMetrics(crawl, At({}), nullptr, nullptr);
  EXPECT_NEAR(*m.wall_s, 10.0, 1e-12);  // last fetched_at - started_at
}

TEST(MetricsTest, ReadsFromCrawlDatabaseEndToEnd) {
  std::string dir = testing::MakeTempDir("metrics_db");
  std::vector<testing::FakePage> pages;
  for (int i = 0; i < 4; ++i) {
    pages.push_back({"http://a.org/" + std::to_string(i) + ".html", "ok", 0.25 * i,
                     1000 + 500 * i});
  }
  pages.insert(pages.begin() + 1, {"http://a.org/x.html", "robots_denied", std::nullopt, 0});
  testing::WriteFakeCrawl(dir, pages, {{"started_at", "0"}, {"finished_at", "2000"}});
  StatusOr<CrawlRecord> crawl = ReadCrawl(dir);
  ASSERT_TRUE(crawl.ok());
  CrawlMetrics m = ComputeMetrics(*crawl, At({2}), nullptr, nullptr);
  EXPECT_EQ(m.dp, 4);
  EXPECT_EQ(m.failed_rows, 1);
  EXPECT_DOUBLE_EQ(m.checkpoints[0].ardp, 0.125);  // 0 and 0.25
  EXPECT_DOUBLE_EQ(m.checkpoints[1].ardp, 0.375);
  EXPECT_EQ(m.checkpoints[1].lp, 1);               // 0.75 only
  EXPECT_DOUBLE_EQ(*m.pages_per_s, 2.0);
}

TEST(MetricsTest, ParsesCheckpointLists) {
  StatusOr<std::vector<int64_t>> ok = ParseCheckpointList("1000, 5000,10000");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, (std::vector<int64_t>{1000, 5000, 10000}));
  EXPECT_FALSE(ParseCheckpointList("1000,,2").ok());
  EXPECT_FALSE(ParseCheckpointList("-5").ok());
  EXPECT_FALSE(ParseCheckpointList("10k").ok());
}

TEST(MetricsReportTest, JsonHasTheDocumentedKeys) {
  LabelSet labels = HandLabels();
  CrawlMetrics m = ComputeMetrics(HandCrawl(), At({5}), &labels, nullptr);
  nlohmann::json j = MetricsToJson(m);
  for (const char* key : {"checkpoints", "pages_to_recall_50", "pages_to_recall_90", "wall_s",
                          "pages_per_s"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  ASSERT_EQ(j["checkpoints"].size(), 2u);
  for (const char* key : {"n", "dp", "lp", "accuracy", "ardp", "sddp", "arlp", "sdlp",
                          "true_harvest", "recall", "recall_reachable", "oracle_recall",
                          "share_of_oracle"}) {
    EXPECT_TRUE(j["checkpoints"][0].contains(key)) << key;
  }
  EXPECT_TRUE(j["checkpoints"][0]["recall_reachable"].is_null());
  EXPECT_TRUE(j["checkpoints"][0]["oracle_recall"].is_null());  // no --oracle
  EXPECT_TRUE(j["oracle_graph"].is_null());
  AddOracleCurve({0.5, 0.5, 0.5, 0.5, 0.8}, "test graph", &m);
  j = MetricsToJson(m);
  EXPECT_DOUBLE_EQ(j["checkpoints"][0]["oracle_recall"].get<double>(), 0.8);
  EXPECT_DOUBLE_EQ(j["checkpoints"][0]["share_of_oracle"].get<double>(), (2.0 / 6) / 0.8);
  EXPECT_EQ(j["oracle_graph"], "test graph");
  EXPECT_NE(MetricsToTable(m).find("share"), std::string::npos);
  EXPECT_EQ(j["pages_to_recall_50"], 6);
  EXPECT_TRUE(j["pages_to_recall_90"].is_null());
  std::string csv = MetricsToCsv(m);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);
  EXPECT_NE(MetricsToTable(m).find("harvest"), std::string::npos);
}

}  // namespace
}  // namespace topicrawl::eval
