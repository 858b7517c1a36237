// The result-page SVM on the shared SVM module: the training file of
// `label result-pages`, both targets, training + save + load with the
// feature names checked, and the verdict on fixture pages.
#include "strategies/jlse/result_page_svm.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "gtest/gtest.h"
#include "parse/html_parser.h"

namespace topicrawl {
namespace {

std::string TempFile(const std::string& name) {
  return ::testing::TempDir() + "/rp-svm-" + std::to_string(getpid()) + "-" + name;
}

const char kHeader[] =
    "url\tlabel\ttext_degree\tlink_degree\taggregation\ttotal_words\tplain_words\tlinks\t"
    "big_blocks\trelevant\n";

// Detail pages: many words, few links, long blocks; link pages the opposite.
// Relevance alternates, so the "result" target has a quarter positives.
std::string WriteTrainingFile(int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0, 0.3);
  std::string text = kHeader;
  for (int i = 0; i < n; ++i) {
    const bool detail = i % 2 == 0;
    const double td = (detail ? 1.5 : -1.5) + noise(rng);
    const double ld = (detail ? -5.0 : -1.5) + noise(rng);
    const double ag = (detail ? 2.0 : 0.2) + noise(rng);
    text += "http://h.test/p" + std::to_string(i) + "\t" + (detail ? "1" : "0") + "\t" +
            std::to_string(td) + "\t" + std::to_string(ld) + "\t" + std::to_string(ag) +
            "\t100\t90\t5\t2\t" + ((i / 2) % 2 == 0 ? "1" : "0") + "\n";
  }
  const std::string path = TempFile("train-" + std::to_string(seed) + ".tsv");
  std::ofstream(path) << text;
  return path;
}

SvmGridOptions SmallGrid() {
  SvmGridOptions g;
  g.log2c_min = -1;
  g.log2c_max = 3;
  g.log2g_min = -3;
  g.log2g_max = 1;
  g.folds = 4;
  g.threads = 1;
  return g;
}

TEST(ResultPageSvmTest, ReadsBothTargets) {
  const std::string path = WriteTrainingFile(40, 1);
  ResultPageDataSummary sum;
  auto detail = ReadResultPageTsv(path, ResultPageTarget::kDetail, &sum);
  ASSERT_TRUE(detail.ok()) << detail.status().message();
  EXPECT_EQ(detail->size(), 40u);
  EXPECT_EQ(sum.positives, 20u);
  EXPECT_EQ(detail->feature_names, ResultPageFeatureNames());
  auto result = ReadResultPageTsv(path, ResultPageTarget::kResult, &sum);
  ASSERT_TRUE(result.ok()) << result.status().message();
  // Detail pages i = 0, 4, 8, ... are the relevant ones: 10 of 40.
  EXPECT_EQ(sum.used, 40u);
  EXPECT_EQ(sum.positives, 10u);
  EXPECT_EQ(result->labels[0], 1);
  EXPECT_EQ(result->labels[2], 0);  // a DetailPage, not relevant
  EXPECT_EQ(result->labels[1], 0);  // a LinkPage
}

TEST(ResultPageSvmTest, RefusesBadFilesWithTheLine) {
  const std::string bad = TempFile("bad.tsv");
  std::ofstream(bad) << kHeader << "http://a/\t1\t0.5\tx\t1\t1\t1\t1\t1\t-\n";
  auto r = ReadResultPageTsv(bad, ResultPageTarget::kDetail);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find(":2: link_degree 'x'"), std::string::npos)
      << r.status().message();

  std::ofstream(bad) << kHeader << "http://a/\t2\t0.5\t1\t1\t1\t1\t1\t1\t-\n";
  r = ReadResultPageTsv(bad, ResultPageTarget::kDetail);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("label '2'"), std::string::npos);

  std::ofstream(bad) << "url\tscore\n";
  r = ReadResultPageTsv(bad, ResultPageTarget::kDetail);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("label result-pages"), std::string::npos);

  // --target result without topic labels: unknown rows are skipped, and a
  // file without the column is refused.
  std::ofstream(bad) << kHeader << "http://a/\t1\t0.5\t1\t1\t1\t1\t1\t1\t-\n";
  ResultPageDataSummary sum;
  r = ReadResultPageTsv(bad, ResultPageTarget::kResult, &sum);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(sum.skipped_unknown, 1u);
  EXPECT_EQ(r->size(), 0u);
  std::ofstream(bad) << "url\tlabel\ttext_degree\tlink_degree\taggregation\n"
                     << "http://a/\t1\t0.5\t1\t1\n";
  r = ReadResultPageTsv(bad, ResultPageTarget::kResult);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("relevant column"), std::string::npos);
}

TEST(ResultPageSvmTest, TrainSaveLoadAndJudgeFixturePages) {
  auto data = ReadResultPageTsv(WriteTrainingFile(60, 2), ResultPageTarget::kDetail);
  ASSERT_TRUE(data.ok());
  SvmTrainReport rep;
  auto model = SvmModel::Train(*data, kResultPageModelKind, SmallGrid(), &rep);
  ASSERT_TRUE(model.ok()) << model.status().message();
  EXPECT_GT(rep.best.cv_accuracy, 0.95);  // the two classes are far apart
  const std::string path = TempFile("model.svm");
  ASSERT_TRUE(model->Save(path).ok());
  auto loaded = LoadResultPageModel(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  EXPECT_EQ(loaded->Serialize(), model->Serialize());

  // A text page (three 60-word paragraphs, 2 links) and a menu page (40
  // one-word links): features computed by the parser, verdicts by the SVM.
  std::string text = "<html><body><a href='/'>home</a> <a href='/n'>next</a>";
  for (int p = 0; p < 3; ++p) {
    text += "<p>";
    for (int i = 0; i < 60; ++i) text += "word" + std::to_string(i) + " ";
    text += "</p>";
  }
  std::string menu = "<html><body><ul>";
  for (int i = 0; i < 40; ++i) {
    menu += "<li><a href='/p" + std::to_string(i) + "'>item" + std::to_string(i) + "</a></li>";
  }
  const auto ftext = ComputeResultPageFeatures(ParseHtml(text + "</body></html>", "http://a/x"));
  const auto fmenu = ComputeResultPageFeatures(ParseHtml(menu + "</ul></body></html>",
                                                         "http://a/y"));
  EXPECT_TRUE(IsDetailPageBySvm(*loaded, ftext)) << ftext.text_degree << " " << ftext.link_degree;
  EXPECT_FALSE(IsDetailPageBySvm(*loaded, fmenu)) << fmenu.text_degree << " " << fmenu.link_degree;
}

TEST(ResultPageSvmTest, RefusesAModelOfAnotherKind) {
  auto data = ReadResultPageTsv(WriteTrainingFile(40, 3), ResultPageTarget::kDetail);
  ASSERT_TRUE(data.ok());
  auto hub = SvmModel::Train(*data, "hub-url", SmallGrid());
  ASSERT_TRUE(hub.ok());
  const std::string path = TempFile("hub.svm");
  ASSERT_TRUE(hub->Save(path).ok());
  auto loaded = LoadResultPageModel(path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.status().message().find("result-page"), std::string::npos)
      << loaded.status().message();
}

}  // namespace
}  // namespace topicrawl
