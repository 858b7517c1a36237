#include "eval/wl_diagnostics.h"

#include <gtest/gtest.h>

#include <fstream>

#include "support/fake_crawl_db.h"

namespace topicrawl::eval {
namespace {

// 6 steps: ln f = 1 for L=1..4, halved to 0.5 at L=5.
constexpr char kSteps[] =
    "L\tE1\tE2\taccepted\tln_f\tflat\n"
    "1\t0.50\t0.61\t1\t1\t0\n"   // accepted -> H(bin 30)++
    "2\t0.61\t0.10\t0\t1\t0\n"   // rejected -> H(bin 30)++
    "3\t0.61\t0.11\t1\t1\t0\n"   // accepted -> H(bin 5)++
    "4\t0.11\t0.99\t1\t1\t1\n"   // accepted -> H(bin 49)++; flat
    "garbage row\n"
    "5\t0.99\t1.00\t0\t0.5\t0\n"  // new stage; rejected -> H(bin 49)++
    "6\t0.99\t0.30\t1\t0.5\t0\n"; // accepted -> H(bin 15)++

TEST(WlDiagnosticsTest, SummarisesAcceptanceScheduleAndFlatness) {
  WlStepSummary s = SummarizeWlSteps(kSteps);
  EXPECT_EQ(s.steps, 6);
  EXPECT_EQ(s.accepted, 4);
  EXPECT_DOUBLE_EQ(s.acceptance_rate, 4.0 / 6);
  EXPECT_EQ(s.flat_steps, 1);
  EXPECT_EQ(s.malformed_rows, 1);
  ASSERT_EQ(s.stages.size(), 2u);
  EXPECT_EQ(s.stages[0].ln_f, 1.0);
  EXPECT_EQ(s.stages[0].first_step, 1);
  EXPECT_EQ(s.stages[0].steps, 4);
  EXPECT_DOUBLE_EQ(s.stages[0].acceptance_rate, 0.75);
  // H = {bin30: 2, bin5: 1, bin49: 1}: min 1 / mean 4/3.
  EXPECT_EQ(s.stages[0].visited_bins, 3);
  EXPECT_DOUBLE_EQ(s.stages[0].flatness, 0.75);
  EXPECT_EQ(s.stages[1].first_step, 5);
  EXPECT_EQ(s.stages[1].ln_f, 0.5);
  EXPECT_EQ(s.stages[1].visited_bins, 2);  // H reset: bins 49 and 15
  EXPECT_DOUBLE_EQ(s.stages[1].flatness, 1.0);
}

TEST(WlDiagnosticsTest, ParsesDosAndPlotsIt) {
  WlDos dos = ParseWlDos("bin\tenergy\tln_g\tH\n0\t0.01\t3.5\t4\n1\t0.03\t2.0\t2\n2\t0.05\t0\t0\n");
  ASSERT_EQ(dos.bins.size(), 3u);
  EXPECT_DOUBLE_EQ(dos.flatness, 2.0 / 3.0);  // min 2 / mean 3 over H > 0
  std::string svg = RenderDosChart(dos, "WL density of states");
  EXPECT_NE(svg.find("<polyline"), std::string::npos);
  EXPECT_NE(svg.find("ln g(E)"), std::string::npos);
}

TEST(WlDiagnosticsTest, AbsentFilesAreNotErrors) {
  std::string dir = testing::MakeTempDir("wl_absent");
  WlDiagnostics wl = ReadWlDiagnostics(dir);
  EXPECT_FALSE(wl.present());
  EXPECT_TRUE(WlDiagnosticsToJson(wl).empty());
  std::ofstream(dir + "/wl_steps.tsv") << kSteps;
  wl = ReadWlDiagnostics(dir);
  ASSERT_TRUE(wl.steps.has_value());
  EXPECT_FALSE(wl.dos.has_value());
  EXPECT_EQ(WlDiagnosticsToJson(wl)["steps"]["stages"].size(), 2u);
  EXPECT_NE(WlDiagnosticsToText(wl).find("L=5"), std::string::npos);
}

}  // namespace
}  // namespace topicrawl::eval
