#include "eval/experiment.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "eval/experiment_report.h"
#include "support/fake_crawl_db.h"

namespace topicrawl::eval {
namespace {

using testing::FakePage;

// Pages p0..p9 of one web; p0..p3 are relevant.
LabelSet Labels() {
  std::string text;
  for (int i = 0; i < 10; ++i) {
    text += "http://w.org/p" + std::to_string(i) + ".html\t" + (i < 4 ? "1" : "0") + "\t\n";
  }
  return LabelSet::Parse(text).value();
}

// Deterministic fake crawls: which pages each (strategy, seed) downloads.
Status FakeRun(const RunRequest& r, int* calls) {
  ++*calls;
  std::vector<int> order;
  std::vector<double> relevance;
  if (r.strategy == "good") {
    order = r.rng_seed == 1 ? std::vector<int>{0, 1, 2, 5, 3, 6}
                            : std::vector<int>{0, 1, 5, 6, 2, 3};
    relevance = r.rng_seed == 1 ? std::vector<double>{0.9, 0.8, 0.7, 0.1, 0.9, 0.65}
                                : std::vector<double>{0.9, 0.8, 0.1, 0.1, 0.9, 0.65};
  } else if (r.strategy == "bad") {
    order = r.rng_seed == 1 ? std::vector<int>{5, 6, 7, 0, 8, 9}
                            : std::vector<int>{5, 6, 7, 8, 0, 1};
    relevance.assign(6, 0.1);
  } else {
    return Status::Error("unknown strategy " + r.strategy);
  }
  std::vector<FakePage> pages;
  for (size_t i = 0; i < order.size(); ++i) {
    pages.push_back({"http://w.org/p" + std::to_string(order[i]) + ".html", "ok",
                     relevance[i], static_cast<int64_t>(1000 * (i + 1))});
  }
  testing::WriteFakeCrawl(r.out_dir, pages,
                          {{"started_at", "0"}, {"finished_at", "6000"},
                           {"strategy", r.strategy}, {"rng_seed", std::to_string(r.rng_seed)}});
  return Status::Ok();
}

ExperimentSpec Spec(const std::string& dir) {
  ExperimentSpec spec;
  spec.strategies = {"good", "bad", "broken"};
  spec.runs = 2;
  spec.out_dir = dir;
  spec.metric_options.checkpoints = {3, 100};
  return spec;
}

bool IsWellFormedHarvestChart(const std::string& svg) {
  return svg.rfind("<?xml", 0) == 0 && svg.find("</svg>") != std::string::npos;
}

const StrategyCheckpoint& At(const StrategySummary& s, const std::string& label) {
  for (const StrategyCheckpoint& c : s.checkpoints) {
    if (c.label == label) return c;
  }
  static StrategyCheckpoint none;
  ADD_FAILURE() << "no checkpoint " << label << " for " << s.strategy;
  return none;
}

TEST(ExperimentTest, RunsEveryStrategyAndSeedAndAggregatesMeanSd) {
  std::string dir = testing::MakeTempDir("experiment");
  LabelSet labels = Labels();
  int calls = 0;
  std::ostringstream progress;
  StatusOr<ExperimentResult> result = RunExperiment(
      Spec(dir), [&](const RunRequest& r) { return FakeRun(r, &calls); }, &labels, nullptr,
      &progress);
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(calls, 6);
  ASSERT_EQ(result->runs.size(), 6u);
  EXPECT_EQ(result->runs[1].request.rng_seed, 2);
  EXPECT_EQ(result->runs[1].request.out_dir, dir + "/runs/good-2");
  EXPECT_FALSE(result->runs[4].status.ok());  // broken
  EXPECT_NE(progress.str().find("broken seed 1 failed"), std::string::npos);

  ExperimentSummary s = SummarizeExperiment(*result, 10);
  ASSERT_EQ(s.strategies.size(), 3u);
  const StrategySummary& good = s.strategies[0];
  EXPECT_EQ(good.runs_ok, 2);
  ASSERT_EQ(good.checkpoints.size(), 2u);  // "3" and "final" (100 never reached)
  const StrategyCheckpoint& g3 = At(good, "3");
  EXPECT_EQ(g3.runs, 2);
  // True harvest at 3: seed 1 found p0 p1 p2 (1.0), seed 2 p0 p1 (2/3).
  EXPECT_NEAR(g3.metrics.at("true_harvest").mean, 5.0 / 6, 1e-12);
  EXPECT_NEAR(g3.metrics.at("true_harvest").sd, std::sqrt(2 * (1.0 / 36)), 1e-12);
  EXPECT_NEAR(g3.metrics.at("accuracy").mean, 5.0 / 6, 1e-12);
  EXPECT_NEAR(At(good, "final").metrics.at("recall").mean, 1.0, 1e-12);
  const StrategySummary& bad = s.strategies[1];
  EXPECT_EQ(At(bad, "3").metrics.at("true_harvest").mean, 0.0);
  EXPECT_EQ(At(bad, "3").metrics.at("sddp").sd, 0.0);
  EXPECT_NEAR(At(bad, "final").metrics.at("recall").mean, 0.375, 1e-12);  // 1/4, 2/4
  EXPECT_EQ(s.strategies[2].runs_failed, 2);
  EXPECT_EQ(good.totals.at("pages_per_s").mean, 1.0);
  // pages_to_recall_50: good seeds 1 and 2 at n = 2; bad seed 1 never
  // (1/4), seed 2 at n = 6 -> one run counted.
  EXPECT_EQ(good.totals.at("pages_to_recall_50").mean, 2.0);
  EXPECT_EQ(bad.totals.at("pages_to_recall_50").mean, 6.0);
  EXPECT_EQ(bad.totals.at("pages_to_recall_50").count, 1);
  EXPECT_EQ(bad.totals.count("pages_to_recall_90"), 0u);

  // Curves: 6 downloads on a 10-point grid -> x = 1..6.
  ASSERT_EQ(good.harvest.x.size(), 6u);
  EXPECT_DOUBLE_EQ(good.harvest.mean[0], 1.0);
  ASSERT_EQ(good.recall.x.size(), 6u);
  EXPECT_DOUBLE_EQ(good.recall.mean.back(), 1.0);

  // Friedman over the two strategies with runs, at DP = 3: good wins every
  // metric except SDDP (bad's constant 0.1 has SD 0).
  ASSERT_TRUE(s.friedman.has_value());
  EXPECT_EQ(s.friedman->checkpoint, "3");
  EXPECT_EQ(s.friedman->strategies, (std::vector<std::string>{"good", "bad"}));
  EXPECT_EQ(s.friedman->metrics.size(), 6u);
  EXPECT_NEAR(s.friedman->result.mean_ranks[0], 7.0 / 6, 1e-12);
  EXPECT_NEAR(s.friedman->result.mean_ranks[1], 11.0 / 6, 1e-12);
}

TEST(ExperimentTest, ReusesFinishedRunsAndWritesReport) {
  std::string dir = testing::MakeTempDir("experiment_reuse");
  LabelSet labels = Labels();
  UrlSet reachable = UrlSet::Parse("http://w.org/p0.html\nhttp://w.org/p1.html\n");
  ExperimentSpec spec = Spec(dir);
  spec.strategies = {"good", "bad"};
  int calls = 0;
  auto run = [&](const RunRequest& r) { return FakeRun(r, &calls); };
  ASSERT_TRUE(RunExperiment(spec, run, &labels, &reachable, nullptr).ok());
  EXPECT_EQ(calls, 4);
  StatusOr<ExperimentResult> again = RunExperiment(spec, run, &labels, &reachable, nullptr);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(calls, 4);  // nothing re-run
  EXPECT_TRUE(again->runs[0].reused);
  EXPECT_EQ(again->oracle_relevant, 2);
  EXPECT_EQ(again->relevant_total, 4);
  // Without reuse, the earlier runs are moved aside and run again.
  spec.reuse_finished_runs = false;
  ASSERT_TRUE(RunExperiment(spec, run, &labels, &reachable, nullptr).ok());
  EXPECT_EQ(calls, 8);
  EXPECT_TRUE(std::filesystem::exists(dir + "/runs/good-1.old/crawl.db"));

  ExperimentSummary s = SummarizeExperiment(*again);
  ASSERT_TRUE(WriteExperimentReport(s, dir).ok());
  for (const char* f : {"table.md", "table.csv", "table.json", "harvest.svg", "recall.svg"}) {
    EXPECT_TRUE(std::filesystem::exists(dir + "/" + f)) << f;
  }
  std::string md = ExperimentToMarkdown(s);
  EXPECT_NE(md.find("| good | 2 |"), std::string::npos) << md;
  EXPECT_NE(md.find("Friedman chi²"), std::string::npos);
  EXPECT_NE(md.find(" ± "), std::string::npos);
  EXPECT_NE(md.find("95 % confidence interval"), std::string::npos);
  const std::string csv = ExperimentToCsv(s);
  EXPECT_EQ(csv.rfind("strategy,checkpoint,metric,mean,sd,runs,ci95_low,ci95_high\n", 0), 0u);
  nlohmann::json j = ExperimentToJson(s);
  EXPECT_TRUE(j["strategies"][0]["checkpoints"][0]["metrics"]["dp"].contains("ci95_low"));
  EXPECT_EQ(j["strategies"].size(), 2u);
  EXPECT_EQ(j["friedman"]["strategies"][0], "good");
  std::string recall_svg = RenderRecallChart(s);
  EXPECT_NE(recall_svg.find("oracle bound"), std::string::npos);
}

TEST(ExperimentTest, OracleBoundsFollowTheDefinition) {
  EXPECT_DOUBLE_EQ(OracleHarvest(100, 955), 1.0);
  EXPECT_DOUBLE_EQ(OracleHarvest(1910, 955), 0.5);
  EXPECT_DOUBLE_EQ(OracleRecall(100, 940, 955), 100.0 / 955);
  EXPECT_DOUBLE_EQ(OracleRecall(5000, 940, 955), 940.0 / 955);
  EXPECT_DOUBLE_EQ(OracleRecall(5, 0, 0), 0.0);
}

TEST(ExperimentTest, RejectsInvalidSpecs) {
  auto run = [](const RunRequest&) { return Status::Ok(); };
  ExperimentSpec spec;
  spec.out_dir = testing::MakeTempDir("experiment_bad");
  EXPECT_FALSE(RunExperiment(spec, run, nullptr, nullptr, nullptr).ok());
  spec.strategies = {"a"};
  spec.runs = 0;
  EXPECT_FALSE(RunExperiment(spec, run, nullptr, nullptr, nullptr).ok());
}

TEST(ExperimentTest, RunWithoutDatabaseIsRecordedAsFailure) {
  ExperimentSpec spec;
  spec.strategies = {"ghost"};
  spec.out_dir = testing::MakeTempDir("experiment_ghost");
  StatusOr<ExperimentResult> r = RunExperiment(
      spec, [](const RunRequest&) { return Status::Ok(); }, nullptr, nullptr, nullptr);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->runs.size(), 1u);
  EXPECT_FALSE(r->runs[0].status.ok());
  EXPECT_NE(r->runs[0].status.message().find("no crawl database"), std::string::npos);
  ExperimentSummary s = SummarizeExperiment(*r);
  EXPECT_EQ(s.strategies[0].runs_failed, 1);
  EXPECT_FALSE(s.friedman.has_value());
  EXPECT_TRUE(IsWellFormedHarvestChart(RenderHarvestChart(s)));
}

TEST(MeanAndSdTest, UsesSampleStandardDeviation) {
  MeanSd m = MeanAndSd({2, 4, 4, 4, 5, 5, 7, 9});
  EXPECT_DOUBLE_EQ(m.mean, 5);
  EXPECT_DOUBLE_EQ(m.sd, std::sqrt(32.0 / 7));
  EXPECT_EQ(MeanAndSd({3}).sd, 0);
  EXPECT_EQ(MeanAndSd({3}).ci95, 0);
  EXPECT_EQ(MeanAndSd({}).count, 0);
}

TEST(MeanAndSdTest, NinetyFivePercentIntervalOfTheMean) {
  // Five runs (issue #17's best-first recall): t_{0.975, 4} = 2.776.
  MeanSd m = MeanAndSd({0.609, 0.492, 0.489, 0.480, 0.513});
  EXPECT_NEAR(m.mean, 0.5166, 1e-4);
  EXPECT_NEAR(m.sd, 0.0530, 1e-4);
  EXPECT_NEAR(m.ci95, 2.776 * m.sd / std::sqrt(5.0), 1e-12);
  EXPECT_NEAR(m.ci95_low(), 0.4508, 1e-3);
  EXPECT_NEAR(m.ci95_high(), 0.5824, 1e-3);
  EXPECT_DOUBLE_EQ(StudentT975(1), 12.706);
  EXPECT_DOUBLE_EQ(StudentT975(30), 2.042);
  EXPECT_NEAR(StudentT975(1000), 1.962, 1e-3);
  EXPECT_EQ(StudentT975(0), 0);
}

}  // namespace
}  // namespace topicrawl::eval

namespace topicrawl::eval {
namespace {

TEST(ExperimentTest, FriedmanAtUnequalBudgetsSaysSo) {
  // "short" stops after 2 pages, "long" reaches 6: no checkpoint (3) is
  // common, so ranks compare final pages and the summary must say the
  // budgets differ.
  std::string dir = testing::MakeTempDir("experiment-unequal");
  LabelSet labels = Labels();
  ExperimentSpec spec;
  spec.strategies = {"short", "long"};
  spec.runs = 1;
  spec.out_dir = dir;
  spec.metric_options.checkpoints = {3};
  auto run = [](const RunRequest& r) {
    int n = r.strategy == "short" ? 2 : 6;
    std::vector<FakePage> pages;
    for (int i = 0; i < n; ++i) {
      pages.push_back({"http://w.org/p" + std::to_string(i) + ".html", "ok", 0.5,
                       static_cast<int64_t>(1000 * (i + 1))});
    }
    testing::WriteFakeCrawl(r.out_dir, pages, {{"started_at", "0"}, {"finished_at", "6000"}});
    return Status::Ok();
  };
  auto result = RunExperiment(spec, run, &labels, nullptr, nullptr);
  ASSERT_TRUE(result.ok()) << result.status().message();
  ExperimentSummary s = SummarizeExperiment(*result, 10);
  ASSERT_TRUE(s.friedman.has_value());
  EXPECT_EQ(s.friedman->checkpoint, "final");
  bool noted = false;
  for (const std::string& note : s.notes) {
    if (note.find("budgets differ") != std::string::npos &&
        note.find("short 2") != std::string::npos && note.find("long 6") != std::string::npos) {
      noted = true;
    }
  }
  EXPECT_TRUE(noted);
}

}  // namespace
}  // namespace topicrawl::eval
